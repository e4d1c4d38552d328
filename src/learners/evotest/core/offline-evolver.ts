/**
 * The evolver without a model (EvoTest §"Four Evolutionary Operators", the
 * parts a rule can do honestly): it reads the episode's digest, diagnoses what
 * happened (a loop, a wrong memory hint, a failure with no loop, a success
 * that followed the hints, a step limit) and applies one operator per child to
 * the parent configuration. Every operator is generic: it reads the shape of
 * the trajectory, never a site's wording.
 */
import type { EvoConfiguration, Hyperparameters } from './configuration.ts';
import type { EpisodeDigest, ProposedChild } from './lineage.ts';
import { salientPhrases } from './state-abstraction.ts';
import { nudged, type Nudge, type Tunables } from '../../../core/learning/tunables.ts';

export interface Diagnosis {
  /** The same action on the same page repeated at least `loopRepeats` times. */
  loop: { regUrl: string; action: string; times: number } | null;
  /** A hinted action was taken and failed, was rejected, or the episode failed right after it. */
  wrongHint: string | null;
  /** The episode succeeded and took at least one hinted action. */
  followedHints: boolean;
  succeeded: boolean;
  hitStepLimit: boolean;
  /** The episode filled or selected values (the evolver should see them). */
  enteredValues: boolean;
}

export function diagnose(digest: EpisodeDigest, parent: EvoConfiguration): Diagnosis {
  const counts = new Map<string, number>();
  let loop: Diagnosis['loop'] = null;
  for (const step of digest.steps) {
    const key = `${step.regUrl}\n${step.action}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n >= parent.memoryRules.failurePattern.loopRepeats && (loop === null || n > loop.times)) loop = { regUrl: step.regUrl, action: step.action, times: n };
  }
  const succeeded = digest.outcome === 'success' || digest.outcome === 'partial';
  let wrongHint: string | null = null;
  digest.steps.forEach((step, i) => {
    if (wrongHint) return;
    const rejectedHint = step.rejected.find((r) => step.hinted.includes(r));
    if (rejectedHint) wrongHint = rejectedHint;
    else if (step.hinted.includes(step.action) && (!step.ok || (!succeeded && i >= digest.steps.length - 2))) wrongHint = step.action;
  });
  return {
    loop,
    wrongHint,
    followedHints: succeeded && digest.steps.some((s) => s.hinted.includes(s.action)),
    succeeded,
    hitStepLimit: digest.hitStepLimit,
    enteredValues: digest.steps.some((s) => /^(fill|select_option|type)\(/.test(s.action)),
  };
}

type Operator = {
  name: string;
  applies: (d: Diagnosis, c: EvoConfiguration) => boolean;
  apply: (c: EvoConfiguration, d: Diagnosis, digest: EpisodeDigest, tunables: Tunables) => EvoConfiguration;
  why: (d: Diagnosis, tunables: Tunables) => string;
};

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The hyperparameters with every tunable that answers `pressure` nudged (tunables.ts). */
function pressed(h: Hyperparameters, tunables: Tunables, pressure: 'explore' | 'stricter'): Hyperparameters {
  const out: Record<string, number> = { ...h };
  for (const [key, t] of Object.entries(tunables)) {
    const nudge: Nudge | undefined = t[pressure];
    const value = h[key];
    if (nudge !== undefined && value !== undefined) out[key] = nudged(value, nudge);
  }
  return out as Hyperparameters;
}
/** "r + 0.05", "λ": how the tunables that answer `pressure` move, for the rationale. */
const movedNames = (tunables: Tunables, pressure: 'explore' | 'stricter'): string => Object.values(tunables)
  .flatMap((t) => { const n = t[pressure]; return n === undefined ? [] : [n.add !== undefined && n.times === undefined ? `${t.name} + ${n.add}` : t.name]; })
  .join(', ');
const LOOP_RULE = 'If an action leaves the page as it was, choose a different element instead of repeating it.';
const withRule = (guidance: string, rule: string): string => (guidance.includes(rule) ? guidance : [guidance, rule].filter(Boolean).join('\n').slice(0, 1500));

/** Operators in priority order; the first `count` that apply and change something become children. */
const OPERATORS: Operator[] = [
  {
    name: 'explore after a loop',
    applies: (d) => d.loop !== null,
    apply: (c) => ({
      ...c,
      guidance: withRule(c.guidance, LOOP_RULE),
      hyperparameters: { ...c.hyperparameters, temperature: round(Math.min(1.5, c.hyperparameters.temperature + 0.2)), numCandidates: Math.min(6, c.hyperparameters.numCandidates + 1) },
    }),
    why: (d) => `looped on ${d.loop!.action} (${d.loop!.times}×): more candidates, higher temperature`,
  },
  {
    name: 'catch loops sooner',
    applies: (d, c) => d.loop !== null && c.memoryRules.failurePattern.loopRepeats > 2,
    apply: (c) => ({ ...c, memoryRules: { ...c.memoryRules, failurePattern: { ...c.memoryRules.failurePattern, loopRepeats: c.memoryRules.failurePattern.loopRepeats - 1 }, avoidPenalty: round(Math.min(5, c.memoryRules.avoidPenalty + 0.5)) } }),
    why: () => 'a loop went on too long: count a loop one repeat sooner and avoid it harder',
  },
  {
    name: 'stricter memory after a wrong hint',
    applies: (d) => d.wrongHint !== null,
    apply: (c, _d, _digest, tunables) => ({
      ...c,
      memoryRules: { ...c.memoryRules, hintPhrasing: 'suggestion', maxHints: Math.max(1, c.memoryRules.maxHints - 1) },
      hyperparameters: pressed(c.hyperparameters, tunables, 'stricter'),
    }),
    why: (d, tunables) => `the memory hint ${d.wrongHint} went wrong: ${movedNames(tunables, 'stricter') ? `stricter (${movedNames(tunables, 'stricter')}), ` : ''}hints only as suggestions`,
  },
  {
    name: 'blame the end of a failure',
    applies: (d, c) => !d.succeeded && d.loop === null && c.memoryRules.failurePattern.lastActionsOfFailure < 3,
    apply: (c) => ({ ...c, memoryRules: { ...c.memoryRules, failurePattern: { ...c.memoryRules.failurePattern, lastActionsOfFailure: c.memoryRules.failurePattern.lastActionsOfFailure + 1 } } }),
    why: () => 'failed without a loop: the last action before the end counts as a failure pattern',
  },
  {
    name: 'widen the search after a failure',
    applies: (d) => !d.succeeded,
    apply: (c, _d, _digest, tunables) => ({ ...c, hyperparameters: pressed({ ...c.hyperparameters, numCandidates: Math.min(6, c.hyperparameters.numCandidates + 1) }, tunables, 'explore') }),
    why: (_d, tunables) => `failed: one more candidate${movedNames(tunables, 'explore') ? ` and more exploration (${movedNames(tunables, 'explore')})` : ''}`,
  },
  {
    name: 'more steps',
    applies: (d) => d.hitStepLimit && d.loop === null,
    apply: (c) => ({ ...c, hyperparameters: { ...c.hyperparameters, maxSteps: Math.min(50, c.hyperparameters.maxSteps + 5) } }),
    why: () => 'ran out of steps without looping: five more steps',
  },
  {
    name: 'commit to verified hints',
    applies: (d, c) => d.followedHints && c.memoryRules.hintPhrasing === 'suggestion',
    apply: (c) => ({ ...c, memoryRules: { ...c.memoryRules, hintPhrasing: 'instruction' } }),
    why: () => 'succeeded following the memory: hints become instructions',
  },
  {
    name: 'mark the goal as a milestone',
    applies: (d) => d.succeeded,
    apply: (c, _d, digest) => {
      const first = new Set(salientPhrases((digest.steps[0]?.page ?? []).join('\n')));
      const last = salientPhrases((digest.steps.at(-1)?.page ?? []).join('\n')).filter((p) => !first.has(p) && !/[{}<>;]/.test(p));
      const known = new Set(c.stateAbstraction.milestonePhrases.map((p) => p.toLowerCase()));
      const phrase = last.find((p) => !known.has(p.toLowerCase()));
      if (!phrase) return c;
      return { ...c, stateAbstraction: { ...c.stateAbstraction, milestonePhrases: [...c.stateAbstraction.milestonePhrases, phrase].slice(-12) } };
    },
    why: () => 'succeeded: what the last page showed (and the first did not) becomes a milestone',
  },
  {
    name: 'exploit after a success',
    applies: (d, c) => d.succeeded && c.hyperparameters.temperature > 0.2,
    apply: (c) => ({ ...c, hyperparameters: { ...c.hyperparameters, temperature: round(Math.max(0.2, c.hyperparameters.temperature - 0.2)) } }),
    why: () => 'succeeded: lower temperature to repeat what worked',
  },
  {
    name: 'keep entered values',
    applies: (d, c) => d.enteredValues && !c.stateAbstraction.keep.includes('values') && !c.stateAbstraction.keep.includes('controls'),
    apply: (c) => ({ ...c, stateAbstraction: { ...c.stateAbstraction, keep: [...c.stateAbstraction.keep, 'values'] } }),
    why: () => 'the episode entered values the digest did not keep',
  },
];

export const OFFLINE_OPERATOR_NAMES = OPERATORS.map((o) => o.name);

/** Up to `count` children of `parent`, one operator each; operators that change nothing are skipped. */
export function evolveOffline(parent: EvoConfiguration, digest: EpisodeDigest, count: number, tunables: Tunables): ProposedChild[] {
  const d = diagnose(digest, parent);
  const children: ProposedChild[] = [];
  for (const op of OPERATORS) {
    if (children.length >= count) break;
    if (!op.applies(d, parent)) continue;
    const child = op.apply(parent, d, digest, tunables);
    if (JSON.stringify(child) === JSON.stringify(parent)) continue;
    children.push({ configuration: child, source: 'offline', rationale: `${op.name}: ${op.why(d, tunables)}` });
  }
  return children;
}
