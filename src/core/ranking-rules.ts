/**
 * The rank stage's own rules beyond choosing by probability (core/agent:
 * proposal-stage.ts), by name. They are the agent's, on by default; a
 * learner may switch one off for a step through the request
 * (`RequestChange.rankingOff`) to measure without it. The request carries
 * these names only, so the shared contract names no learner's setting.
 * A file of its own: the learning contract and the agent both read it.
 */
export const RANKING_RULES = [
  /** Bar the actions that led round a loop (back at a page as it was, no progress). */
  'bar-loops',
] as const;
export type RankingRule = (typeof RANKING_RULES)[number];

/** Whether `rule` applies at this step: on unless the request switched it off. */
export function rankingRuleOn(rule: RankingRule, request?: { readonly rankingOff?: readonly RankingRule[] }): boolean {
  return !(request?.rankingOff ?? []).includes(rule);
}
