/**
 * Model tokens per step and per episode, and the per-site daily budget that
 * pauses an episode once the site has used it up (a person paying per token
 * sets a ceiling per site; 0 means no ceiling).
 */
import type { Episode, StepRecord } from '../episode/episode.ts';

/** Prompt + completion tokens of one step (every model call made for it). */
export const stepTokens = (step: Pick<StepRecord, 'promptTokens' | 'completionTokens'>): number => step.promptTokens + step.completionTokens;

/** Tokens of a whole episode. */
export const episodeTokens = (episode: Pick<Episode, 'steps'>): number => episode.steps.reduce((n, s) => n + stepTokens(s), 0);

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Tokens the episodes on one site used in the 24 hours before `now`. */
export function tokensSpentOnSite(episodes: readonly Pick<Episode, 'origin' | 'steps'>[], origin: string, now: number): number {
  let spent = 0;
  for (const e of episodes) {
    if (e.origin !== origin) continue;
    for (const s of e.steps) if (s.startedAt >= now - DAY_MS) spent += stepTokens(s);
  }
  return spent;
}

/** The person-facing reason to pause, or null while the site is within its budget. */
export function budgetExceeded(spent: number, budget: number, origin: string): string | null {
  if (budget <= 0 || spent < budget) return null;
  return `This site (${origin}) has used ${spent} model tokens in the last 24 hours, over its budget of ${budget}. The episode is paused; raise the budget in the options to go on.`;
}

export class TokenBudgetError extends Error {
  override name = 'TokenBudgetError';
}
