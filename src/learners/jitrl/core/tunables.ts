/**
 * The numbers JitRL lets a tuner move per step (its definition's `tunables`):
 * β, λ and r, with the ranges a tuner may use, and how each answers a failure
 * (more optimism for untried actions) or a misleading memory (stricter retrieval).
 */
import * as z from 'zod';
import type { Tunables } from '../../../core/learning/tunables.ts';
import type { Settings } from '../../../core/settings.ts';
import type { JitrlSettings } from './settings.ts';

export function jitrlTunables(read: (settings: Settings) => JitrlSettings): Tunables {
  return {
    beta: { name: 'β', schema: z.number().min(0).max(10).describe('the memory-based value update strength beta'), read: (s) => read(s).beta },
    lambda: {
      name: 'λ', schema: z.number().min(0).max(1).describe('the optimism probability lambda'), read: (s) => read(s).lambda,
      explore: { times: 2, min: 0.05, max: 0.3 },
    },
    threshold: {
      name: 'r', schema: z.number().min(0).max(1).describe('the retrieval similarity threshold'), read: (s) => read(s).threshold,
      stricter: { add: 0.05, max: 0.95 },
    },
  };
}

/**
 * The settings with a tuner's values for this step (`request.tuned`). Moving r
 * moves its decay floor by the same amount, so the authors' decay keeps its shape.
 */
export function withTuned(settings: JitrlSettings, tuned: Readonly<Record<string, number>> | undefined): JitrlSettings {
  if (!tuned) return settings;
  const out = { ...settings };
  if (tuned.beta !== undefined) out.beta = tuned.beta;
  if (tuned.lambda !== undefined) out.lambda = tuned.lambda;
  if (tuned.threshold !== undefined) {
    out.threshold = tuned.threshold;
    out.thresholdFloor = Math.min(tuned.threshold, Math.max(0, settings.thresholdFloor + tuned.threshold - settings.threshold));
  }
  return out;
}
