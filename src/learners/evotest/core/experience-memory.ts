/**
 * EvoTest's memory M and its interaction logic: success pairs (page, action
 * that led towards success) and failure patterns (loops, errors, rejections,
 * dead ends), derived from the lineage's recent episodes by the running
 * configuration's memory rules. Deriving at read time means a mutation of the
 * rules takes effect on the whole shared memory at once.
 */
import type { MemoryRules } from './configuration.ts';
import type { EpisodeDigest } from './lineage.ts';

export type FailureKind = 'loop' | 'failed' | 'rejected' | 'dead-end';

export interface SuccessPair {
  action: string;
  /** Summed reward of the step over the episodes that took it. */
  gain: number;
  support: number;
}

export interface FailurePattern {
  action: string;
  kind: FailureKind;
  support: number;
}

export interface EvoMemory {
  success: Map<string, SuccessPair[]>;
  failure: Map<string, FailurePattern[]>;
}

const SUCCESSFUL = new Set(['success', 'partial']);

function push<T extends { action: string; support: number }>(map: Map<string, T[]>, regUrl: string, entry: T, merge: (a: T, b: T) => T): void {
  const list = map.get(regUrl) ?? [];
  const at = list.findIndex((e) => e.action === entry.action);
  if (at >= 0) list[at] = merge(list[at]!, entry);
  else list.push(entry);
  map.set(regUrl, list);
}

/**
 * Memory is keyed by page: origin and page type. A path means nothing across
 * sites: "/checkout" of the shop and of its payment provider are two pages.
 */
export const memoryPageKey = (origin: string, regUrl: string): string => `${origin}\n${regUrl}`;

/** `siteOrigin`: the lineage's site, the origin of steps that record none. */
export function buildMemory(episodes: readonly EpisodeDigest[], rules: MemoryRules, siteOrigin = ''): EvoMemory {
  const success = new Map<string, SuccessPair[]>();
  const failure = new Map<string, FailurePattern[]>();
  const fail = (regUrl: string, action: string, kind: FailureKind) =>
    push(failure, regUrl, { action, kind, support: 1 }, (a, b) => ({ ...a, support: a.support + b.support }));

  for (const episode of episodes) {
    const succeeded = SUCCESSFUL.has(episode.outcome);
    const counts = new Map<string, number>();
    for (const step of episode.steps) {
      const page = memoryPageKey(step.origin ?? siteOrigin, step.regUrl);
      if (!rules.successPair.requireEpisodeSuccess || succeeded) {
        if (step.ok && step.reward >= rules.successPair.minStepReward) {
          push(success, page, { action: step.action, gain: step.reward, support: 1 }, (a, b) => ({ action: a.action, gain: a.gain + b.gain, support: a.support + b.support }));
        }
      }
      const key = `${page}\n${step.action}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (counts.get(key) === rules.failurePattern.loopRepeats) fail(page, step.action, 'loop');
      if (rules.failurePattern.includeFailedActions && !step.ok) fail(page, step.action, 'failed');
      if (rules.failurePattern.includeRejected) for (const r of step.rejected) fail(page, r, 'rejected');
    }
    if (!succeeded && rules.failurePattern.lastActionsOfFailure > 0) {
      for (const step of episode.steps.slice(-rules.failurePattern.lastActionsOfFailure)) fail(memoryPageKey(step.origin ?? siteOrigin, step.regUrl), step.action, 'dead-end');
    }
  }
  for (const list of success.values()) list.sort((a, b) => b.support - a.support || b.gain - a.gain);
  return { success, failure };
}

export interface MemoryHints {
  /** Actions that led towards success on this page, best first, not yet done in this episode. */
  suggested: string[];
  /** Actions that looped, failed or led nowhere on this page (and never succeeded there). */
  avoid: FailurePattern[];
}

/** `origin`: the current page's (as `buildMemory`'s `siteOrigin`, '' when neither is given). */
export function hintsFor(memory: EvoMemory, rules: MemoryRules, input: { origin?: string; regUrl: string; done: readonly string[] }): MemoryHints {
  const done = new Set(input.done);
  const page = memoryPageKey(input.origin ?? '', input.regUrl);
  const good = memory.success.get(page) ?? [];
  const goodActions = new Set(good.map((p) => p.action));
  const suggested = good.filter((p) => !done.has(p.action)).slice(0, rules.maxHints).map((p) => p.action);
  // One entry per action (the first kind seen names it); an action that also succeeded here is not avoided.
  const avoid = (memory.failure.get(page) ?? []).filter((f) => !goodActions.has(f.action));
  return { suggested, avoid };
}

/** The prompt text of the hints, phrased as the rules say. Page text inside actions is quoted data. */
export function phraseHints(hints: MemoryHints, rules: MemoryRules): string {
  const lines: string[] = [];
  if (hints.suggested.length) {
    lines.push(rules.hintPhrasing === 'instruction'
      ? 'Verified on this page in earlier successful attempts — take the first that applies:'
      : 'Earlier successful attempts on this page did (consider them):');
    for (const a of hints.suggested) lines.push(`- ${a}`);
  }
  if (hints.avoid.length) {
    lines.push('These actions went wrong on this page before (avoid unless nothing else fits):');
    for (const f of hints.avoid) lines.push(`- ${f.action} (${f.kind === 'dead-end' ? 'the attempt failed right after it' : f.kind})`);
  }
  return lines.join('\n');
}
