/**
 * Merging newly distilled entries into a site's buffer: dedup (the same page
 * type or skill, or nearly the same text, becomes one entry with the union of
 * its provenance), and a cap per site that evicts the least useful entries.
 * Pure: it returns what to write and what to delete; the caller does the I/O.
 */
import { jaccard, tokenize } from '../../../core/page/tokenize.ts';
import type { DynamicsEntry, ExperienceEntry, Provenance, SkillEntry } from './experience.ts';

/** Token Jaccard above which two entries of the same kind count as one. */
export const DUPLICATE_SIMILARITY = 0.8;
/** Provenance keeps the most recent episode ids only, so a row never grows without bound. */
export const MAX_EPISODE_IDS = 50;
const MAX_USAGES = 8;

export interface MergeResult {
  /** Entries to write (new ones and changed existing ones). */
  put: ExperienceEntry[];
  /** Ids to delete (stored entries evicted by the cap). */
  evicted: string[];
  /** Entries the cap removed, counting incoming ones that never got stored. */
  dropped: number;
  added: number;
  merged: number;
}

export function entryText(entry: ExperienceEntry): string {
  return entry.kind === 'dynamics'
    ? `${entry.pageName} ${entry.description} ${entry.usages.join(' ')}`
    : `${entry.name.replace(/\{[^}]*\}/g, ' ')} ${entry.steps.map((s) => s.text).join(' ')}`;
}

/** The abstract action sequence of a skill: two skills doing the same thing the same way. */
const actionSignature = (s: SkillEntry): string => s.steps.flatMap((st) => st.exampleActions).join('\n');
const normName = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

export function isDuplicate(a: ExperienceEntry, b: ExperienceEntry): boolean {
  if (a.origin !== b.origin) return false;
  if (a.kind === 'dynamics' && b.kind === 'dynamics') {
    if (a.regUrl === b.regUrl) return true;
  } else if (a.kind === 'skill' && b.kind === 'skill') {
    if (normName(a.name) === normName(b.name)) return true;
    const sig = actionSignature(a);
    if (sig !== '' && sig === actionSignature(b)) return true;
  } else {
    return false;
  }
  return jaccard(tokenize(entryText(a)), tokenize(entryText(b))) >= DUPLICATE_SIMILARITY;
}

export function mergeProvenance(kept: Provenance, other: Provenance, now: number): Provenance {
  const ids = [...kept.episodeIds];
  for (const id of other.episodeIds) if (!ids.includes(id)) ids.push(id);
  return {
    episodeIds: ids.slice(-MAX_EPISODE_IDS),
    createdAt: Math.min(kept.createdAt, other.createdAt),
    updatedAt: now,
    retrieved: kept.retrieved + other.retrieved,
    retrievedThenSucceeded: kept.retrievedThenSucceeded + other.retrievedThenSucceeded,
    source: kept.source,
  };
}

/** How much an entry says: distinct tokens of its text and example actions. */
function detail(entry: ExperienceEntry): number {
  if (entry.kind === 'dynamics') return tokenize(`${entry.description} ${entry.usages.join(' ')}`).length;
  const withExamples = entry.steps.filter((s) => s.exampleActions.length > 0).length;
  return tokenize(entryText(entry)).length + 2 * withExamples + entry.variables.length;
}

function mergeDynamics(kept: DynamicsEntry, incoming: DynamicsEntry, now: number): DynamicsEntry {
  const usages = [...kept.usages];
  for (const u of incoming.usages) if (!usages.some((x) => normName(x) === normName(u))) usages.push(u);
  const better = detail(incoming) > detail(kept) ? incoming : kept;
  return {
    ...kept,
    pageName: better.pageName,
    description: better.description,
    usages: usages.slice(0, MAX_USAGES),
    provenance: mergeProvenance(kept.provenance, incoming.provenance, now),
  };
}

/** Whether `short`'s steps are `long`'s with some left out (same order): `long` took a detour. */
function isShortcutOf(short: SkillEntry, long: SkillEntry): boolean {
  if (short.steps.length >= long.steps.length) return false;
  let at = 0;
  for (const step of long.steps) if (at < short.steps.length && normName(step.text) === normName(short.steps[at]!.text)) at++;
  return at === short.steps.length;
}

function mergeSkill(kept: SkillEntry, incoming: SkillEntry, now: number): SkillEntry {
  // The same way without some of the steps also worked: the extra steps were a
  // detour, so the shorter way is kept (issue 23: merging must not keep the
  // longer skill with its detour). Otherwise keep the more detailed version as
  // a whole: name, variables and steps belong together.
  const better = isShortcutOf(incoming, kept) ? incoming
    : isShortcutOf(kept, incoming) ? kept
    : detail(incoming) > detail(kept) ? incoming : kept;
  return {
    ...kept,
    name: better.name,
    variables: better.variables,
    steps: better.steps,
    provenance: mergeProvenance(kept.provenance, incoming.provenance, now),
  };
}

function mergeEntry(kept: ExperienceEntry, incoming: ExperienceEntry, now: number): ExperienceEntry {
  if (kept.kind === 'dynamics' && incoming.kind === 'dynamics') return mergeDynamics(kept, incoming, now);
  if (kept.kind === 'skill' && incoming.kind === 'skill') return mergeSkill(kept, incoming, now);
  return kept;
}

/**
 * Usefulness for eviction: the Laplace-smoothed rate at which replaying the
 * entry was followed by success, so a never-replayed entry (1/2) outranks one
 * replayed often without success and ranks below a proven one.
 */
export function usefulness(entry: ExperienceEntry): number {
  const p = entry.provenance;
  return (p.retrievedThenSucceeded + 1) / (p.retrieved + 2);
}

/**
 * Least useful first; among equals the one fewer episodes produced (a page
 * seen in many episodes is a page the site revolves around), then the one
 * untouched longest, then by id for determinism.
 */
export function evictionOrder(a: ExperienceEntry, b: ExperienceEntry): number {
  return usefulness(a) - usefulness(b)
    || a.provenance.episodeIds.length - b.provenance.episodeIds.length
    || a.provenance.updatedAt - b.provenance.updatedAt
    || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Merges `incoming` (one site's freshly distilled entries) into `existing`
 * (that site's buffer) and applies the cap.
 */
export function mergeIntoBuffer(
  existing: readonly ExperienceEntry[],
  incoming: readonly ExperienceEntry[],
  options: { maxEntries: number; now: number },
): MergeResult {
  const buffer = new Map<string, ExperienceEntry>(existing.map((e) => [e.id, e]));
  const changed = new Set<string>();
  let added = 0;
  let merged = 0;
  for (const entry of incoming) {
    const match = buffer.get(entry.id) ?? [...buffer.values()].find((e) => isDuplicate(e, entry));
    if (match) {
      buffer.set(match.id, mergeEntry(match, entry, options.now));
      merged++;
      changed.add(match.id);
    } else {
      buffer.set(entry.id, entry);
      added++;
      changed.add(entry.id);
    }
  }
  const evicted: string[] = [];
  const excess = buffer.size - options.maxEntries;
  if (excess > 0) {
    for (const e of [...buffer.values()].sort(evictionOrder).slice(0, excess)) {
      buffer.delete(e.id);
      evicted.push(e.id);
    }
  }
  const put = [...changed].flatMap((id) => {
    const e = buffer.get(id);
    return e ? [e] : [];
  });
  // An evicted entry that existed before must be deleted; one that never got written needs nothing.
  const existedBefore = new Set(existing.map((e) => e.id));
  return { put, evicted: evicted.filter((id) => existedBefore.has(id)), dropped: evicted.length, added, merged };
}
