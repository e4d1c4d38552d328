import { seedConfiguration, type EvoConfiguration } from '../core/configuration.ts';
import type { EpisodeDigest, EpisodeDigestStep } from '../core/lineage.ts';

export const SEED: EvoConfiguration = seedConfiguration({ temperature: 0.8, numCandidates: 3, beta: 2, lambda: 0.05, threshold: 0.8, maxSteps: 15 });

export function step(action: string, over: Partial<EpisodeDigestStep> = {}): EpisodeDigestStep {
  return { regUrl: '/list', title: 'List', action, ok: true, reward: 0.2, rejected: [], hinted: [], page: [], ...over };
}

export function digest(steps: EpisodeDigestStep[], over: Partial<EpisodeDigest> = {}): EpisodeDigest {
  return { episodeId: 'e1', task: 'Open order 12', configurationId: 'c0', outcome: 'success', score: 1, hitStepLimit: false, steps, at: 1000, ...over };
}
