/**
 * Groups (§2, "Rollout and Reward"): in a browser, the attempts at the same
 * task — or at instances of one task template — on one site. Each attempt
 * carries only what the person had: the pages it went through (title, URL,
 * page type, a capped digest of what the page showed), the actions it took,
 * and the person's verdict. GRPO's advantage is zero when every reward in a
 * group is equal (std = 0), so only groups with mixed outcomes teach.
 */
import * as z from 'zod';
import { explicitValues } from '../../../core/learning/shared/skill-variables.ts';
import { hashText, type GroupRef } from './experience.ts';

export const AttemptStepSchema = z.strictObject({
  url: z.string(),
  regUrl: z.string(),
  title: z.string().nullable(),
  /** What the page showed, capped (secrets already masked by whoever recorded it). */
  digest: z.string().nullable(),
  /** The action that ran, in semantic form. */
  action: z.string(),
  ok: z.boolean(),
  error: z.string().nullable(),
});
export type AttemptStep = z.infer<typeof AttemptStepSchema>;

export const AttemptOutcomeSchema = z.enum(['success', 'partial', 'failure']);
export type AttemptOutcome = z.infer<typeof AttemptOutcomeSchema>;

export const GroupAttemptSchema = z.strictObject({
  episodeId: z.string().min(1),
  origin: z.string().min(1),
  task: z.string(),
  /** The person's verdict: GRPO's reward r_i. */
  outcome: AttemptOutcomeSchema,
  /** The answer the agent gave, when it gave one. */
  answer: z.string().nullable(),
  endedAt: z.number(),
  steps: z.array(AttemptStepSchema),
});
export type GroupAttempt = z.infer<typeof GroupAttemptSchema>;

/** r_i ∈ {0, ½, 1}. */
export const OUTCOME_REWARD: Readonly<Record<AttemptOutcome, number>> = { success: 1, partial: 0.5, failure: 0 };

/**
 * The task with the values it names (quoted strings, numbers) replaced by a
 * placeholder: "Add \"red mug\" to the cart" and "Add \"blue cup\" to the
 * cart" are one template. Case and spacing do not matter.
 */
export function taskTemplate(task: string): string {
  let t = task;
  for (const v of explicitValues(task)) t = t.split(v).join('{}');
  return t.replace(/["'“”‘’«»]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

export const groupKeyOf = (origin: string, task: string): string => `${origin}\n${taskTemplate(task)}`;

export type GroupVerdict = 'mixed' | 'all-success' | 'all-failure' | 'all-partial';

export interface GroupSplit {
  verdict: GroupVerdict;
  /** Attempts with the group's best reward (empty unless mixed). */
  winners: GroupAttempt[];
  /** Attempts with the group's worst reward (empty unless mixed). */
  losers: GroupAttempt[];
}

export function splitGroup(attempts: readonly GroupAttempt[]): GroupSplit {
  const rewards = attempts.map((a) => OUTCOME_REWARD[a.outcome]);
  const best = Math.max(...rewards);
  const worst = Math.min(...rewards);
  if (attempts.length === 0 || best === worst) {
    const only = attempts[0]?.outcome ?? 'failure';
    return { verdict: only === 'success' ? 'all-success' : only === 'partial' ? 'all-partial' : 'all-failure', winners: [], losers: [] };
  }
  return {
    verdict: 'mixed',
    winners: attempts.filter((a) => OUTCOME_REWARD[a.outcome] === best),
    losers: attempts.filter((a) => OUTCOME_REWARD[a.outcome] === worst),
  };
}

export function groupRefOf(attempts: readonly GroupAttempt[], at: number): GroupRef {
  const episodeIds = attempts.map((a) => a.episodeId);
  return { id: `g-${hashText(episodeIds.join('\n'))}`, task: attempts[0]?.task ?? '', episodeIds, at };
}

/** Why an all-equal group changes nothing, in the person's words. */
export function unchangedReason(verdict: Exclude<GroupVerdict, 'mixed'>, size: number): string {
  const what = verdict === 'all-success' ? 'succeeded' : verdict === 'all-failure' ? 'failed' : 'partly succeeded';
  return `all ${size} attempts in the group ${what}: with no contrast between winners and losers there is nothing to learn, so the library is unchanged`;
}
