/**
 * Meta-training's own checkpoint: everything Algorithm 2 has done so far
 * (candidates, pool, the iteration in flight with its finished sessions and
 * proposal), written atomically after every session, so a killed run resumes
 * where it stopped without re-running a finished session.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as z from 'zod';
import { SessionResultSchema } from './meta-train-session.ts';

export const MetaTrainConfigSchema = z.strictObject({
  suite: z.string(),
  train: z.array(z.string()).min(1),
  val: z.array(z.string()).min(1),
  budget: z.number().int().positive(),
  /** K, attempts per session. */
  attempts: z.number().int().positive(),
  seed: z.number().int(),
  selection: z.enum(['mean', 'z']),
  seedStrategy: z.string(),
  model: z.string(),
});
export type MetaTrainConfig = z.infer<typeof MetaTrainConfigSchema>;

export const MetaCandidateSchema = z.strictObject({
  id: z.string(),
  strategy: z.string(),
  parentId: z.string().nullable(),
  iteration: z.number().int().nonnegative(),
  val: z.record(z.string(), z.number()).nullable(),
  valUnpadded: z.record(z.string(), z.number()).nullable(),
});

export const IterationRecordSchema = z.strictObject({
  iteration: z.number().int().positive(),
  parentId: z.string(),
  taskId: z.string(),
  parentScore: z.number(),
  candidateId: z.string().nullable(),
  candidateScore: z.number().nullable(),
  outcome: z.enum(['proposal-dropped', 'no-local-improvement', 'validated']),
  /** Validation tasks on which the candidate became the expert. */
  won: z.array(z.string()),
  note: z.string(),
});
export type IterationRecord = z.infer<typeof IterationRecordSchema>;

export const MetaTrainStateSchema = z.strictObject({
  version: z.literal(1),
  config: MetaTrainConfigSchema,
  evaluations: z.number().int().nonnegative(),
  /** Iterations finished (0 while the seed is being scored). */
  iteration: z.number().int().nonnegative(),
  seeded: z.boolean(),
  candidates: z.array(MetaCandidateSchema),
  pool: z.record(z.string(), z.strictObject({ candidateId: z.string(), score: z.number() })),
  /** The iteration in progress: sessions finished in it (by label) and its proposal, once made. */
  inFlight: z.strictObject({
    iteration: z.number().int().nonnegative(),
    sessions: z.record(z.string(), SessionResultSchema),
    proposal: z.union([z.strictObject({ strategy: z.string(), analysis: z.string() }), z.strictObject({ dropped: z.string() })]).nullable(),
  }).nullable(),
  history: z.array(IterationRecordSchema),
  done: z.boolean(),
});
export type MetaTrainState = z.infer<typeof MetaTrainStateSchema>;

export interface CheckpointStore {
  load(): Promise<MetaTrainState | null>;
  save(state: MetaTrainState): Promise<void>;
}

export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

/** A JSON file, replaced atomically (write a sibling, then rename) so a kill never leaves half a file. */
export function fileCheckpoint(path: string): CheckpointStore {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new CheckpointError(`${path} is not JSON; delete it or pass --fresh`);
      }
      const parsed = MetaTrainStateSchema.safeParse(value);
      if (!parsed.success) throw new CheckpointError(`${path} is not a meta-training checkpoint (${parsed.error.issues[0]?.message ?? 'invalid'}); delete it or pass --fresh`);
      return parsed.data;
    },
    async save(state) {
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(state));
      await rename(tmp, path);
    },
  };
}

export function memoryCheckpoint(): CheckpointStore & { saved: number } {
  let state: MetaTrainState | null = null;
  const store = {
    saved: 0,
    async load() {
      return state === null ? null : structuredClone(state);
    },
    async save(s: MetaTrainState) {
      state = structuredClone(s);
      store.saved++;
    },
  };
  return store;
}
