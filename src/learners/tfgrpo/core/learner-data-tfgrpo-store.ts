/**
 * Training-Free GRPO's store on the generic per-learner store
 * (LearnerDataStore): per site, one record holds the library in order, one
 * record per revision (key `revision:<time>:<id>`, so keys sort oldest
 * first) makes updates undoable, and one record per open group
 * (`group:<task template>`). Every value is validated by LearnerData with the
 * schema below; an unreadable record reads as absent.
 */
import * as z from 'zod';
import { LearnerData } from '../../../core/learning/learner-data.ts';
import type { LearnerDataStore } from '../../../core/learning/learner-data-store.ts';
import type { Clock } from '../../../core/ports.ts';
import { TfgrpoExperienceSchema, type TfgrpoExperience } from './experience.ts';
import { LibraryRevisionSchema, type LibraryRevision } from './library.ts';
import { MAX_REVISIONS_PER_SITE, PendingGroupSchema, type PendingGroup, type TfgrpoStore } from './tfgrpo-store.ts';

export const TfgrpoRecordSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('library'), experiences: z.array(TfgrpoExperienceSchema) }),
  z.strictObject({ kind: z.literal('revision'), revision: LibraryRevisionSchema }),
  z.strictObject({ kind: z.literal('group'), group: PendingGroupSchema }),
]);
export type TfgrpoRecord = z.infer<typeof TfgrpoRecordSchema>;

const LIBRARY_KEY = 'library';
const revisionKey = (r: LibraryRevision): string => `revision:${String(Math.max(0, Math.floor(r.at))).padStart(15, '0')}:${r.id}`;
/** Group keys are `${origin}\n${template}`. */
const splitGroupKey = (key: string): { origin: string; key: string } => {
  const cut = key.indexOf('\n');
  return { origin: cut < 0 ? key : key.slice(0, cut), key: `group:${cut < 0 ? '' : key.slice(cut + 1)}` };
};

export class LearnerDataTfgrpoStore implements TfgrpoStore {
  readonly data: LearnerData<TfgrpoRecord>;

  constructor(store: LearnerDataStore, learnerId: string, clock?: Clock) {
    this.data = new LearnerData(store, learnerId, TfgrpoRecordSchema, clock);
  }

  async library(origin: string): Promise<TfgrpoExperience[]> {
    const read = await this.data.get(origin, LIBRARY_KEY);
    return read.status === 'found' && read.record.value.kind === 'library' ? read.record.value.experiences : [];
  }

  async saveLibrary(origin: string, library: TfgrpoExperience[], revision: LibraryRevision | null): Promise<void> {
    // The revision first: an update is never on record without its way back.
    if (revision) await this.data.put(origin, revisionKey(revision), { kind: 'revision', revision });
    await this.data.put(origin, LIBRARY_KEY, { kind: 'library', experiences: library });
    if (revision) {
      const keys = await this.#revisionKeys(origin);
      for (const key of keys.slice(0, Math.max(0, keys.length - MAX_REVISIONS_PER_SITE))) await this.data.delete(origin, key);
    }
  }

  async latestRevision(origin: string): Promise<LibraryRevision | null> {
    const { records } = await this.data.list(origin);
    const revisions = records.flatMap((r) => (r.value.kind === 'revision' ? [r] : []));
    const last = revisions[revisions.length - 1]?.value;
    return last?.kind === 'revision' ? last.revision : null;
  }

  async undo(revision: LibraryRevision): Promise<void> {
    await this.data.put(revision.origin, LIBRARY_KEY, { kind: 'library', experiences: revision.before });
    await this.data.delete(revision.origin, revisionKey(revision));
  }

  async pendingGroup(key: string): Promise<PendingGroup | null> {
    const at = splitGroupKey(key);
    const read = await this.data.get(at.origin, at.key);
    return read.status === 'found' && read.record.value.kind === 'group' ? read.record.value.group : null;
  }

  async savePendingGroup(group: PendingGroup): Promise<void> {
    const at = splitGroupKey(group.key);
    await this.data.put(at.origin, at.key, { kind: 'group', group });
  }

  async deletePendingGroup(key: string): Promise<void> {
    const at = splitGroupKey(key);
    await this.data.delete(at.origin, at.key);
  }

  async forgetSite(origin: string): Promise<number> {
    const n = (await this.library(origin)).length;
    await this.data.forgetSite(origin);
    return n;
  }

  async allExperiences(): Promise<TfgrpoExperience[]> {
    const { records } = await this.data.list();
    return records.flatMap((r) => (r.value.kind === 'library' ? r.value.experiences : []));
  }

  async #revisionKeys(origin: string): Promise<string[]> {
    const { records } = await this.data.list(origin);
    return records.filter((r) => r.value.kind === 'revision').map((r) => r.key);
  }
}
