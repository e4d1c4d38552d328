import * as z from 'zod';
import { seedConfiguration, type EvoConfiguration } from '../core/configuration.ts';
import type { Tunables } from '../../../core/learning/tunables.ts';
import type { EpisodeDigest, EpisodeDigestStep } from '../core/lineage.ts';

/** Tunables as another learner might declare them (the registry hands EvoTest the real ones). */
export const TUNABLES: Tunables = {
  beta: { name: 'β', schema: z.number().min(0).max(10).describe('update strength'), read: () => 2 },
  lambda: { name: 'λ', schema: z.number().min(0).max(1).describe('optimism'), read: () => 0.05, explore: { times: 2, min: 0.05, max: 0.3 } },
  threshold: { name: 'r', schema: z.number().min(0).max(1).describe('similarity threshold'), read: () => 0.8, stricter: { add: 0.05, max: 0.95 } },
};

export const SEED: EvoConfiguration = seedConfiguration({ temperature: 0.8, numCandidates: 3, maxSteps: 15 }, { beta: 2, lambda: 0.05, threshold: 0.8 });

export function step(action: string, over: Partial<EpisodeDigestStep> = {}): EpisodeDigestStep {
  return { regUrl: '/list', title: 'List', action, ok: true, reward: 0.2, rejected: [], hinted: [], page: [], ...over };
}

export function digest(steps: EpisodeDigestStep[], over: Partial<EpisodeDigest> = {}): EpisodeDigest {
  return { episodeId: 'e1', task: 'Open order 12', configurationId: 'c0', outcome: 'success', score: 1, hitStepLimit: false, steps, at: 1000, ...over };
}
