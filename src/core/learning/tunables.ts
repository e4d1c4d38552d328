/**
 * Numbers a learner lets other learners tune, declared in its definition
 * (`tunables`): a tuner (one that evolves a configuration per site) reads them
 * from the registry, starts from their settings' values, moves them within
 * their ranges and hands them back on the request (`RequestShape.tuned`).
 * No learner names another's knobs.
 */
import type * as z from 'zod';
import type { Settings } from '../settings.ts';

/** A move under one pressure: value × times + add, then kept within [min, max]. */
export interface Nudge {
  times?: number;
  add?: number;
  min?: number;
  max?: number;
}

export interface Tunable {
  /** Its short name in explanations ("λ"); `schema.description` says what it does. */
  name: string;
  /** A number schema with its range: the values a tuner may set. */
  schema: z.ZodNumber;
  /** Its value in the settings: where a tuner starts. */
  read(settings: Settings): number;
  /** How it moves when an episode failed: more exploration. */
  explore?: Nudge;
  /** How it moves when remembered guidance misled: stricter use of memory. */
  stricter?: Nudge;
}

/** A definition's tunables, by key; keys are unique across the registry (they share `tuned`). */
export type Tunables = Readonly<Record<string, Tunable>>;

/** Every definition's tunables in registry order; a key two learners declare is refused. */
export function registryTunables(definitions: readonly { id: string; tunables?: Tunables }[]): Tunables {
  const out: Record<string, Tunable> = {};
  const owner = new Map<string, string>();
  for (const { id, tunables } of definitions) {
    for (const [key, tunable] of Object.entries(tunables ?? {})) {
      const other = owner.get(key);
      if (other !== undefined) throw new Error(`registry: tunable "${key}" is declared by ${other} and ${id}`);
      owner.set(key, id);
      out[key] = tunable;
    }
  }
  return out;
}

/** The nudged value, rounded to 3 decimals. */
export function nudged(value: number, nudge: Nudge): number {
  let v = value * (nudge.times ?? 1) + (nudge.add ?? 0);
  if (nudge.min !== undefined) v = Math.max(nudge.min, v);
  if (nudge.max !== undefined) v = Math.min(nudge.max, v);
  return Math.round(v * 1000) / 1000;
}
