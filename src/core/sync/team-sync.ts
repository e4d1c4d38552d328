/**
 * One round of team memory, written against a port so it runs in Node with
 * a real PouchDB (tests, benchmark) and in the extension the same way:
 *
 *   1. publish   the person's own rows of the shared sites become documents
 *                in the local team database; their documents that no longer
 *                match a row (forgotten, deleted, replaced, site unshared)
 *                are deleted there, so the deletion replicates;
 *   2. replicate local ⇄ team server (CouchDB's protocol, by PouchDB),
 *                pulling only the shared sites; resumable by its checkpoints;
 *   3. merge     what changed locally since the last merge is read from the
 *                changes feed, expanded to every version of each item that
 *                changed, and merged (merge-incoming.ts). The merge checkpoint
 *                moves only after the merge is written: a failed write (full
 *                disk) is retried next round, nothing is skipped.
 */
import { exportArchive } from '../learning/memory-transfer.ts';
import { ownStoresOf } from '../learning/learner-definition.ts';
import { parseArchive } from '../archive/memory-archive.ts';
import { mergeIncoming, parseDocId, type MergeDeps, type MergeReport } from './merge-incoming.ts';
import { shareItems, type ShareResult } from './share-items.ts';
import type { Member, SharedDoc } from './shared-doc.ts';
import { teamSyncError } from './sync-errors.ts';
import { rowAddress } from './team-index.ts';

export interface ChangeBatch {
  /** Ids of documents written or deleted since `since`. */
  changed: { id: string; deleted: boolean }[];
  /** Where the next read starts. */
  next: string;
}

export interface ReplicationReport {
  pushed: number;
  pulled: number;
}

/** What team sync needs of a database (PouchDB in src/adapters/sync). */
export interface TeamDatabasePort {
  /** Ids of the live documents this member authored (all sites). */
  ownDocIds(authorId: string): Promise<Set<string>>;
  /** Writes new documents and deletes the given ids, in the local database. */
  write(puts: readonly SharedDoc[], deletes: readonly string[]): Promise<void>;
  /** Push everything local; pull the shared sites' documents. */
  replicate(sharedSites: readonly string[], signal?: AbortSignal): Promise<ReplicationReport>;
  /** The local changes feed after `since` ('0' = from the start). */
  changesSince(since: string): Promise<ChangeBatch>;
  /** Every live document whose id starts with the prefix. */
  docsWithPrefix(prefix: string): Promise<unknown[]>;
  readCheckpoint(): Promise<string>;
  writeCheckpoint(seq: string): Promise<void>;
}

export interface TeamSyncConfig {
  me: Member;
  sharedSites: readonly string[];
  muted: ReadonlySet<string>;
  /** Held documents the person accepted (merged despite an always-ask action). */
  reviewed?: ReadonlySet<string>;
  appVersion: string;
  now(): number;
}

export interface TeamSyncReport {
  published: { put: number; deleted: number; skipped: ShareResult['skipped']; masked: number };
  replication: ReplicationReport;
  merge: MergeReport;
}

/** Writes the person's shared rows as documents and deletes their documents that no row backs any more. */
export async function publishOwn(deps: MergeDeps, db: TeamDatabasePort, config: TeamSyncConfig): Promise<TeamSyncReport['published']> {
  // The export masks what an older version stored unmasked; sharing masks again (each item on its own): both count.
  const exported = await exportArchive(deps.transfer);
  // Through JSON, as the file export: documents hash the same rows a file holds.
  const archive = parseArchive(JSON.stringify(exported.archive));
  const maskedOnExport = exported.masked;
  const merged = await deps.index.mergedHashes();
  const shared = shareItems({
    archive, sharedSites: config.sharedSites, me: config.me, appVersion: config.appVersion, now: config.now(),
    ownStores: ownStoresOf(deps.transfer.learnerMemories),
    fromTeammate: (part, origin, key, hash) => merged.get(rowAddress(part, origin, key)) === hash,
  });
  // A merged row the person's learning changed is theirs now: it leaves the index, so
  // forgetting the teammate or their deletion no longer removes it.
  for (const doc of shared.docs) {
    if (merged.has(rowAddress(doc.part, doc.origin, doc.key))) await deps.index.remove(doc.origin, doc.part, doc.key);
  }
  const existing = await db.ownDocIds(config.me.id);
  const wanted = new Set(shared.docs.map((d) => d._id));
  const puts = shared.docs.filter((d) => !existing.has(d._id));
  const deletes = [...existing].filter((id) => !wanted.has(id));
  if (puts.length > 0 || deletes.length > 0) await db.write(puts, deletes);
  return { put: puts.length, deleted: deletes.length, skipped: shared.skipped, masked: maskedOnExport + shared.masked };
}

/** The id prefix of everything that competes with a changed document: its item's versions, or its whole episode. */
export function groupPrefixOf(id: string): string | null {
  const at = parseDocId(id);
  if (at === null) return null;
  if (at.part === 'transitions') {
    const colon = at.key.lastIndexOf(':');
    return `${at.origin}|transitions|${colon > 0 ? at.key.slice(0, colon + 1) : at.key}`;
  }
  return `${at.origin}|${at.part}|${at.key}|`;
}

/** Merges what changed locally since the last merge, then moves the checkpoint. */
export async function mergeChanges(deps: MergeDeps, db: TeamDatabasePort, config: TeamSyncConfig): Promise<MergeReport> {
  const since = await db.readCheckpoint();
  const batch = await db.changesSince(since);
  const prefixes = new Set<string>();
  const deletedIds: string[] = [];
  const unknown: string[] = [];
  for (const change of batch.changed) {
    // The person's own documents change nothing locally: their rows are already here.
    if (parseDocId(change.id)?.author === config.me.id) continue;
    if (change.deleted) deletedIds.push(change.id);
    const prefix = groupPrefixOf(change.id);
    if (prefix === null) unknown.push(change.id);
    else prefixes.add(prefix);
  }
  const docs: unknown[] = [];
  for (const prefix of prefixes) docs.push(...(await db.docsWithPrefix(prefix)));
  // A document whose id is not ours is judged too: it is refused with its reason, never skipped unseen.
  for (const id of unknown) docs.push(...(await db.docsWithPrefix(id)).filter((d) => (d as { _id?: unknown })._id === id));
  let report: MergeReport;
  try {
    report = await mergeIncoming(deps, { docs, deletedIds, me: config.me, muted: config.muted, sharedSites: config.sharedSites, now: config.now(), ...(config.reviewed ? { reviewed: config.reviewed } : {}) });
  } catch (error) {
    // The checkpoint stays where it was: the same changes are merged again next round.
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw teamSyncError(/quota/i.test(text) ? 'quota' : 'other', `merging teammates' memory: ${text}`, error);
  }
  await db.writeCheckpoint(batch.next);
  return report;
}

/** Merges one held document the person accepted, with the other versions of its item. */
export async function mergeReviewed(deps: MergeDeps, db: TeamDatabasePort, config: TeamSyncConfig, docId: string): Promise<MergeReport> {
  const prefix = groupPrefixOf(docId);
  if (prefix === null) return { imported: 0, removed: 0, refused: [{ docId, reason: 'not a team-memory document id' }], held: [], conflicts: [], muted: 0 };
  return mergeIncoming(deps, {
    docs: await db.docsWithPrefix(prefix), deletedIds: [], me: config.me, muted: config.muted, sharedSites: config.sharedSites, now: config.now(),
    reviewed: new Set([...(config.reviewed ?? []), docId]),
  });
}

/** One full round: publish, replicate, merge. */
export async function runTeamSync(deps: MergeDeps, db: TeamDatabasePort, config: TeamSyncConfig, signal?: AbortSignal): Promise<TeamSyncReport> {
  const published = await publishOwn(deps, db, config);
  const replication = await db.replicate(config.sharedSites, signal);
  const merge = await mergeChanges(deps, db, config);
  return { published, replication, merge };
}
