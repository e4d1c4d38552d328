// Shared builders for the JitRL unit tests: transitions, a tiny page of
// elements with resolve/toSemantic, a scripted random source and step records.
import type { StepRecord } from '../../../core/episode/episode.ts';
import { formatAction, parseAction } from '../../../core/page/action-grammar.ts';
import type { Action, Target } from '../../../core/page/action.ts';
import type { Transition } from '../core/transition.ts';
import { stateTokensOf, tokenize } from '../../../core/page/tokenize.ts';
import type { RandomSource } from '../../../core/ports.ts';
import type { ResolveAction } from '../../../core/learning/learner.ts';
import { proposedCandidates, type Candidate } from '../../../core/learning/candidate.ts';
import { JITRL_ID, JitrlCandidateEvidenceSchema, JitrlStepEvidenceSchema, type JitrlCandidateEvidence, type JitrlStepEvidence } from '../core/evidence.ts';
import { blankStep } from '../../../../test/support/step-record.ts';

export function transition(p: Partial<Transition> & { id: string }): Transition {
  const effectiveState = p.effectiveState ?? [];
  const task = p.task ?? 'add the red shirt to the cart';
  return {
    origin: 'https://shop.test',
    regUrl: '/products/ID',
    effectiveState,
    stateTokens: p.stateTokens ?? stateTokensOf(effectiveState),
    task,
    taskTokens: p.taskTokens ?? tokenize(task),
    action: 'click(<button "Add to cart">)',
    reward: 1,
    rewardSource: 'person',
    futureRewards: p.futureRewards ?? [p.reward ?? 1],
    episodeId: p.id.split(':')[0] ?? p.id,
    stepIndex: 0,
    createdAt: 1000,
    updatedAt: 1000,
    ...p,
  };
}

/** Returns the given values in order, then repeats the last one. */
export function scriptedRandom(...values: number[]): RandomSource & { calls: number } {
  const source = {
    calls: 0,
    next() {
      const v = values[Math.min(source.calls, values.length - 1)] ?? 0.5;
      source.calls++;
      return v;
    },
  };
  return source;
}

export interface PageElement { ref: string; role: string; name: string }

/** Formats a ref-form action in semantic form for the test page. */
export type ToSemantic = (action: Action) => string;

/**
 * resolve/toSemantic against a fixed list of elements (exact role + name),
 * and `propose`: the policy's proposals as the seam's candidates on this page.
 */
export function pageOf(elements: PageElement[]): { resolve: ResolveAction; toSemantic: ToSemantic; propose: (proposals: readonly { action: Action; logit: number; rationale?: string }[]) => Candidate[] } {
  const withTarget = (action: Action, target: Target | null): Action | null =>
    target === null ? null : ({ ...action, target } as Action);
  const toSemantic: ToSemantic = (action) => {
    if (!('target' in action) || action.target === undefined || action.target.kind !== 'ref') return formatAction(action);
    const ref = action.target.ref;
    const el = elements.find((e) => e.ref === ref);
    return formatAction(withTarget(action, el ? { kind: 'semantic', role: el.role, name: el.name } : null) ?? action);
  };
  return {
    toSemantic,
    resolve: (semantic) => {
      const parsed = parseAction(semantic);
      if (!parsed.ok) return null;
      const action = parsed.action;
      if (!('target' in action) || action.target === undefined || action.target.kind !== 'semantic') return { action, semantic: toSemantic(action) };
      const { role, name } = action.target;
      const el = elements.find((e) => e.role === role && e.name === name);
      const resolved = withTarget(action, el ? { kind: 'ref', ref: el.ref } : null);
      return resolved === null ? null : { action: resolved, semantic: toSemantic(resolved) };
    },
    propose: (proposals) => proposedCandidates(proposals.map((p) => ({ page: { action: p.action, semantic: toSemantic(p.action) }, logit: p.logit, ...(p.rationale !== undefined ? { rationale: p.rationale } : {}) }))),
  };
}

export const click = (ref: string): Action => ({ type: 'click', target: { kind: 'ref', ref } });

export function stepRecord(p: Partial<StepRecord> & { index: number }): StepRecord {
  return blankStep({
    url: 'https://shop.test/products/42',
    regUrl: '/products/ID',
    result: { ok: true, navigated: false },
    startedAt: 1000 + p.index,
    ...p,
  });
}

/** JitRL's evidence about one candidate (Q, A, Ã, support, kind), validated by its schema. */
export const valueOf = (c: { evidence?: Readonly<Record<string, unknown>> | undefined } | undefined): JitrlCandidateEvidence =>
  JitrlCandidateEvidenceSchema.parse(c?.evidence?.[JITRL_ID]);

/** JitRL's evidence for a step (V, neighbours, dropped memory actions): an adjust output's or a stored step's. */
export const stepValuesOf = (x: { evidence?: unknown }): JitrlStepEvidence => {
  const stored = x.evidence as Record<string, unknown> | undefined;
  return JitrlStepEvidenceSchema.parse(stored !== undefined && JITRL_ID in stored ? stored[JITRL_ID] : x.evidence);
};
