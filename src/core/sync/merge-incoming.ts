/**
 * Merges what teammates shared into local memory through the file import's
 * own path (`importMemory`): the accepted documents become one archive,
 * validated again and written in one transaction with the provenance index
 * (all of it or nothing). Refused and held documents change nothing.
 *
 * Deletions: a document its author deleted (they forgot the site, deleted
 * the item, or replaced it with a newer version) removes the row it brought,
 * and only that row. A teammate's deletion never removes the person's own
 * items: what you taught stays yours until you forget it (see
 * docs/team-memory.md, "Deletions").
 */
import { ownStoresOf } from '../learning/learner-definition.ts';
import type { LearnerDataStore } from '../learning/learner-data-store.ts';
import { importMemory, type MemoryTransferDeps } from '../learning/memory-transfer.ts';
import { buildArchive, type MemoryArchive } from '../archive/memory-archive.ts';
import { checkIncoming } from './check-incoming.ts';
import { resolveVersions, type Conflict } from './conflicts.ts';
import { itemAddress, type Member, type SharedDoc, type SharedPart } from './shared-doc.ts';
import { indexRecordOf, TEAM_INDEX_ID, type TeamIndex } from './team-index.ts';

export interface MergeDeps {
  /** The import path of a file import (registry learners' memories included). */
  transfer: MemoryTransferDeps;
  index: TeamIndex;
  /** The generic learner store (its rows and the team index); the learners' own stores are reached through `transfer.learnerMemories`. */
  stores: { learnerData: LearnerDataStore };
}

export interface MergeInput {
  /** Every live version of each item that changed; for a transition, every transition of its episode. */
  docs: readonly unknown[];
  /** Documents deleted in the team database since the last merge. */
  deletedIds: readonly string[];
  me: Member;
  /** Teammates the person forgot: their documents are not merged. */
  muted: ReadonlySet<string>;
  sharedSites: readonly string[];
  now: number;
  /** Held documents the person accepted. */
  reviewed?: ReadonlySet<string>;
}

export interface MergeReport {
  imported: number;
  removed: number;
  refused: { docId: string; reason: string }[];
  held: { docId: string; reason: string; author: string | null; origin: string | null; reviewable: boolean }[];
  conflicts: Conflict[];
  /** Documents of forgotten teammates, left unmerged. */
  muted: number;
}

/** The address and author a document id names (`origin|part|key|author|hash`); null when it is not one of ours. */
export function parseDocId(id: string): { origin: string; part: SharedPart; key: string; author: string } | null {
  const parts = id.split('|');
  if (parts.length < 5) return null;
  const [origin, part] = parts as [string, string];
  if (!/^(transitions|experiences|learners\/[A-Za-z0-9_-]+)$/.test(part)) return null;
  return { origin, part, key: parts.slice(2, -2).join('|'), author: parts[parts.length - 2]! };
}

/** Removes one row of local memory, whichever store holds it (a learner's own store, by the part's name, or learnerData). */
export async function deleteRow(deps: Pick<MergeDeps, 'stores' | 'transfer'>, origin: string, part: SharedPart, key: string): Promise<number> {
  if (part.startsWith('learners/')) return (await deps.stores.learnerData.delete({ learnerId: part.slice('learners/'.length), origin, key })) ? 1 : 0;
  const own = ownStoresOf(deps.transfer.learnerMemories).find((s) => s.name === part);
  return own ? own.delete([key]) : 0;
}

/** The archive a set of winning teammate documents makes, with their index records. */
function archiveOf(docs: readonly SharedDoc[], now: number): MemoryArchive {
  const learners: Record<string, unknown[]> = { [TEAM_INDEX_ID]: docs.map((d) => indexRecordOf(d, now)) };
  const own: Record<string, unknown[]> = {};
  for (const d of docs) {
    if (d.part.startsWith('learners/')) (learners[d.part.slice('learners/'.length)] ??= []).push(d.item);
    else (own[d.part] ??= []).push(d.item);
  }
  return buildArchive({ episodes: [], own, learners, now });
}

export async function mergeIncoming(deps: MergeDeps, input: MergeInput): Promise<MergeReport> {
  const report: MergeReport = { imported: 0, removed: 0, refused: [], held: [], conflicts: [], muted: 0 };
  const sites = new Set(input.sharedSites);
  const accepted: SharedDoc[] = [];
  const context = { learnerMemories: deps.transfer.learnerMemories, ...(input.reviewed ? { reviewed: input.reviewed } : {}) };
  for (const raw of input.docs) {
    const verdict = checkIncoming(raw, context);
    if (verdict.status === 'refused') report.refused.push({ docId: verdict.docId, reason: verdict.reason });
    else if (verdict.status === 'held') {
      if (verdict.doc?.provenance.author.id === input.me.id) continue;
      // Already merged (accepted before): not held again.
      if (verdict.doc && (await deps.index.get(verdict.doc.origin, verdict.doc.part, verdict.doc.key))?.docId === verdict.docId) continue;
      report.held.push({ docId: verdict.docId, reason: verdict.reason, author: verdict.doc?.provenance.author.name ?? null, origin: verdict.doc?.origin ?? null, reviewable: verdict.reviewable });
    } else if (!sites.has(verdict.doc.origin)) continue;
    else if (input.muted.has(verdict.doc.provenance.author.id)) report.muted++;
    else accepted.push(verdict.doc);
  }
  const { winners, conflicts } = resolveVersions(accepted);
  report.conflicts = conflicts;
  const teammateWinners = [...winners.values()].filter((d) => d.provenance.author.id !== input.me.id);
  const fresh: SharedDoc[] = [];
  for (const d of teammateWinners) {
    if ((await deps.index.get(d.origin, d.part, d.key))?.docId !== d._id) fresh.push(d);
  }
  // A store that writes rows in groups replaces a group's rows at once (an episode's transitions): a group with anything new is imported whole.
  const ownStores = ownStoresOf(deps.transfer.learnerMemories);
  const groupOf = (d: SharedDoc): string | null => {
    const group = ownStores.find((s) => s.name === d.part)?.writeGroup?.(d.item) ?? null;
    return group === null ? null : `${d.part}|${group}`;
  };
  const groupsWithNews = new Set(fresh.map(groupOf).filter((g) => g !== null));
  const toImport = [
    ...fresh.filter((d) => groupOf(d) === null),
    ...teammateWinners.filter((d) => { const g = groupOf(d); return g !== null && groupsWithNews.has(g); }),
  ];
  if (toImport.length > 0) {
    const transfer = { ...deps.transfer, learnerMemories: [...deps.transfer.learnerMemories, { id: TEAM_INDEX_ID, memory: deps.index.memory() }] };
    // Each learner record says whose it is (an imported guide shows its origin in the panel).
    const authors = new Map(toImport.map((d) => [`${d.part}|${d.origin}|${d.key}`, d.provenance.author.name]));
    const importedFrom = (r: { learnerId: string; origin: string; key: string }) => {
      const author = authors.get(`learners/${r.learnerId}|${r.origin}|${r.key}`);
      return author ? `team memory, shared by ${author}` : 'team memory';
    };
    await importMemory(transfer, JSON.stringify(archiveOf(toImport, input.now)), { importedFrom });
    report.imported = toImport.length;
  }
  for (const id of input.deletedIds) {
    const at = parseDocId(id);
    if (at === null || at.author === input.me.id || winners.has(itemAddress(at))) continue;
    const entry = await deps.index.get(at.origin, at.part, at.key);
    if (entry?.docId !== id) continue;
    report.removed += await deleteRow(deps, at.origin, at.part, at.key);
    await deps.index.remove(at.origin, at.part, at.key);
  }
  return report;
}

/** Forgets one teammate: removes every row they brought (the caller also mutes them). */
export async function forgetTeammate(deps: Pick<MergeDeps, 'index' | 'stores' | 'transfer'>, authorId: string): Promise<number> {
  let removed = 0;
  for (const row of await deps.index.rows()) {
    if (row.entry.provenance.author.id !== authorId) continue;
    removed += await deleteRow(deps, row.origin, row.entry.part, row.entry.key);
    await deps.index.remove(row.origin, row.entry.part, row.entry.key);
  }
  return removed;
}
