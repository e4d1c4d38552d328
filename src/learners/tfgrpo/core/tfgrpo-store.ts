/**
 * Where Training-Free GRPO keeps its state: one library per site (replaced
 * whole, in library order), the revisions that make an update undoable, and
 * the groups still collecting attempts. The IndexedDB implementation is in
 * src/adapters/idb; the in-memory one serves tests and the benchmark.
 */
import * as z from 'zod';
import type { TfgrpoExperience } from './experience.ts';
import { GroupAttemptSchema } from './group.ts';
import type { LibraryRevision } from './library.ts';

export const PendingGroupSchema = z.strictObject({
  key: z.string().min(1),
  origin: z.string().min(1),
  attempts: z.array(GroupAttemptSchema),
});
export type PendingGroup = z.infer<typeof PendingGroupSchema>;

/** Revisions kept per site (undo goes back one at a time from the newest). */
export const MAX_REVISIONS_PER_SITE = 10;

export interface TfgrpoStore {
  library(origin: string): Promise<TfgrpoExperience[]>;
  /** Replaces the site's library and records `revision` (when given) in one transaction. */
  saveLibrary(origin: string, library: TfgrpoExperience[], revision: LibraryRevision | null): Promise<void>;
  /** The newest revision of the site, or null. */
  latestRevision(origin: string): Promise<LibraryRevision | null>;
  /** Restores the revision's `before` as the library and drops the revision, in one transaction. */
  undo(revision: LibraryRevision): Promise<void>;
  pendingGroup(key: string): Promise<PendingGroup | null>;
  savePendingGroup(group: PendingGroup): Promise<void>;
  deletePendingGroup(key: string): Promise<void>;
  /** Deletes the site's library, revisions and pending groups; returns how many experiences went. */
  forgetSite(origin: string): Promise<number>;
  /** Every site's experiences. */
  allExperiences(): Promise<TfgrpoExperience[]>;
}

/** Copies on the way in and out, as IndexedDB does. */
export class InMemoryTfgrpoStore implements TfgrpoStore {
  private readonly libraries = new Map<string, TfgrpoExperience[]>();
  private readonly revisions: LibraryRevision[] = [];
  private readonly pending = new Map<string, PendingGroup>();

  async library(origin: string): Promise<TfgrpoExperience[]> {
    return structuredClone(this.libraries.get(origin) ?? []);
  }

  async saveLibrary(origin: string, library: TfgrpoExperience[], revision: LibraryRevision | null): Promise<void> {
    this.libraries.set(origin, structuredClone(library));
    if (revision) {
      this.revisions.push(structuredClone(revision));
      const mine = this.revisions.filter((r) => r.origin === origin);
      for (const old of mine.slice(0, Math.max(0, mine.length - MAX_REVISIONS_PER_SITE))) {
        this.revisions.splice(this.revisions.indexOf(old), 1);
      }
    }
  }

  async latestRevision(origin: string): Promise<LibraryRevision | null> {
    const mine = this.revisions.filter((r) => r.origin === origin);
    const last = mine[mine.length - 1];
    return last ? structuredClone(last) : null;
  }

  async undo(revision: LibraryRevision): Promise<void> {
    this.libraries.set(revision.origin, structuredClone(revision.before));
    const i = this.revisions.findIndex((r) => r.id === revision.id);
    if (i >= 0) this.revisions.splice(i, 1);
  }

  async pendingGroup(key: string): Promise<PendingGroup | null> {
    const g = this.pending.get(key);
    return g ? structuredClone(g) : null;
  }

  async savePendingGroup(group: PendingGroup): Promise<void> {
    this.pending.set(group.key, structuredClone(group));
  }

  async deletePendingGroup(key: string): Promise<void> {
    this.pending.delete(key);
  }

  async forgetSite(origin: string): Promise<number> {
    const n = this.libraries.get(origin)?.length ?? 0;
    this.libraries.delete(origin);
    for (let i = this.revisions.length - 1; i >= 0; i--) if (this.revisions[i]!.origin === origin) this.revisions.splice(i, 1);
    for (const [key, g] of this.pending) if (g.origin === origin) this.pending.delete(key);
    return n;
  }

  async allExperiences(): Promise<TfgrpoExperience[]> {
    return structuredClone([...this.libraries.values()].flat());
  }
}
