/** Builders for Training-Free GRPO tests: experiences, groups and attempts with only the fields a test cares about. */
import type { GroupRef, TfgrpoExperience } from '../core/experience.ts';
import type { AttemptStep, GroupAttempt } from '../core/group.ts';
import type { TfgrpoSettings } from '../core/tfgrpo-settings.ts';

export const ORIGIN = 'http://shop.fixture.test';

export const G1: GroupRef = { id: 'g-1', task: 'Add the teapot to the cart', episodeIds: ['e1', 'e2'], at: 100 };
export const G2: GroupRef = { id: 'g-2', task: 'Add the mug to the cart', episodeIds: ['e3', 'e4'], at: 200 };

export function experience(id: string, text: string, over: Partial<TfgrpoExperience['provenance']> = {}, rest: Partial<TfgrpoExperience> = {}): TfgrpoExperience {
  return {
    id,
    origin: ORIGIN,
    text,
    hint: null,
    source: 'model',
    provenance: { createdBy: G1, updatedBy: [], createdAt: 10, updatedAt: 10, inPrompt: 0, inPromptThenSucceeded: 0, ...over },
    ...rest,
  };
}

export function step(regUrl: string, action: string, over: Partial<AttemptStep> = {}): AttemptStep {
  return { url: `${ORIGIN}${regUrl}`, regUrl, title: null, digest: null, action, ok: true, error: null, ...over };
}

export function attempt(episodeId: string, outcome: GroupAttempt['outcome'], steps: AttemptStep[], task = 'Add the teapot to the cart'): GroupAttempt {
  return { episodeId, origin: ORIGIN, task, outcome, answer: null, endedAt: 1, steps };
}

export const TFGRPO_ON: TfgrpoSettings = {
  enabled: true,
  groupSize: 3,
  closeWhenMixed: true,
  rolloutTemperature: 0.7,
  maxPerSite: 40,
  inPrompt: 12,
  maxDeleteFraction: 0.25,
  ruleHints: true,
};
