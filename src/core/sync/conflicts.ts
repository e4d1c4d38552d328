/**
 * Two members changed the same item (a library experience, a
 * guide, a buffer entry): both versions are documents in the team
 * database, and every replica keeps the same one. The rule, in order: the
 * version taught last wins; on a tie, the larger author id; then the larger
 * content hash. It looks only at the documents, never at who is reading, so
 * two members who hold the same documents keep the same version.
 * Transitions never conflict: each is one step of one episode, never edited.
 */
import { itemAddress, type SharedDoc } from './shared-doc.ts';

/** Negative when `a` wins over `b`. */
export function compareVersions(a: SharedDoc, b: SharedDoc): number {
  const pa = a.provenance;
  const pb = b.provenance;
  if (pa.taughtAt !== pb.taughtAt) return pb.taughtAt - pa.taughtAt;
  if (pa.author.id !== pb.author.id) return pa.author.id < pb.author.id ? 1 : -1;
  if (a.contentHash !== b.contentHash) return a.contentHash < b.contentHash ? 1 : -1;
  return 0;
}

export interface Conflict {
  origin: string;
  part: string;
  key: string;
  /** Who taught the version kept, and when. */
  kept: { author: string; taughtAt: number; docId: string };
  /** The versions set aside (still in the team database, so nothing is lost). */
  setAside: { author: string; taughtAt: number; docId: string }[];
}

export interface Resolved {
  /** The version each item keeps, by address. */
  winners: Map<string, SharedDoc>;
  /** Items with versions from more than one member. */
  conflicts: Conflict[];
}

const versionOf = (d: SharedDoc) => ({ author: d.provenance.author.name, taughtAt: d.provenance.taughtAt, docId: d._id });

/** Picks one version of each item. */
export function resolveVersions(docs: readonly SharedDoc[]): Resolved {
  const byAddress = new Map<string, SharedDoc[]>();
  for (const d of docs) byAddress.set(itemAddress(d), [...(byAddress.get(itemAddress(d)) ?? []), d]);
  const winners = new Map<string, SharedDoc>();
  const conflicts: Conflict[] = [];
  for (const [address, versions] of byAddress) {
    const sorted = [...versions].sort(compareVersions);
    const kept = sorted[0]!;
    winners.set(address, kept);
    const others = sorted.slice(1).filter((d) => d.provenance.author.id !== kept.provenance.author.id);
    if (others.length > 0) conflicts.push({ origin: kept.origin, part: kept.part, key: kept.key, kept: versionOf(kept), setAside: others.map(versionOf) });
  }
  return { winners, conflicts };
}
