/**
 * Issue 23, "one Candidate value": a proposal becomes a Candidate once, at
 * the validate stage; its semantic form is computed there (and once per
 * remembered action JitRL adds), never again on the way through adjust, rank
 * and record. Strings are formatted for the stored record only.
 */
import { describe, expect, it, vi } from 'vitest';
import { adjustStage, rankStage, recordStage, validateStage } from '../../src/core/agent/step-stages.ts';
import { EpisodeSchema, type Episode } from '../../src/core/episode/episode.ts';
import { candidateRecord, pageActionOf, proposedCandidates } from '../../src/core/learning/candidate.ts';
import { JitrlLearner } from '../../src/learners/jitrl/core/jitrl-learner.ts';
import type { Learner, RequestShape, StepContext } from '../../src/core/learning/learner.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import * as semanticAction from '../../src/core/page/semantic-action.ts';
import * as actionGrammar from '../../src/core/page/action-grammar.ts';
import type { PolicyProposal } from '../../src/core/policy/policy.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { click, scriptedRandom, transition, valueOf } from '../../src/learners/jitrl/test/jitrl-helpers.ts';

vi.mock('../../src/core/page/semantic-action.ts', async (original) => {
  const real = await original<typeof import('../../src/core/page/semantic-action.ts')>();
  return { ...real, toSemanticAction: vi.fn(real.toSemanticAction) };
});
vi.mock('../../src/core/page/action-grammar.ts', async (original) => {
  const real = await original<typeof import('../../src/core/page/action-grammar.ts')>();
  return { ...real, formatAction: vi.fn(real.formatAction), parseAction: vi.fn(real.parseAction) };
});
const counters = {
  semantic: () => vi.mocked(semanticAction.toSemanticAction).mock.calls.length,
  format: () => vi.mocked(actionGrammar.formatAction).mock.calls.length,
  parse: () => vi.mocked(actionGrammar.parseAction).mock.calls.length,
};
/** How many times `work` derives a semantic form (`calls`), and formats or parses action text. */
async function countSemantic<T>(work: () => Promise<T>): Promise<{ result: T; calls: number; formats: number; parses: number }> {
  const before = { semantic: counters.semantic(), format: counters.format(), parse: counters.parse() };
  const result = await work();
  return { result, calls: counters.semantic() - before.semantic, formats: counters.format() - before.format, parses: counters.parse() - before.parse };
}

const URL = 'https://shop.test/products/42';
const node = (ref: string, role: string, name: string) => ({ ref, kind: 'interactive', role, name, states: {}, depth: 1, inViewport: true });
const observation = {
  url: URL, title: 'Red shirt', nodes: [node('1', 'button', 'Add blue shirt'), node('2', 'button', 'Add red shirt'), node('3', 'link', 'Size guide')],
  focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 0,
} as unknown as PageObservation;
const BLUE = 'click(<button "Add blue shirt">)';
const RED = 'click(<button "Add red shirt">)';
const GUIDE = 'click(<link "Size guide">)';
const context: StepContext = { episodeId: 'now', stepIndex: 0, task: 'add the red shirt to the cart', origin: 'https://shop.test', url: URL, regUrl: '/products/ID', observation, effectiveState: [] };
const episode: Episode = {
  id: 'now', origin: 'https://shop.test', task: context.task, startUrl: URL, tabId: null, status: 'running', steps: [],
  answer: null, error: null, learners: ['jitrl'], attempt: 2, kind: 'bench', startedAt: 0, endedAt: null,
};
// The policy proposes blue twice (a duplicate) and red; memory remembers red (a success) and the size guide (a success).
const proposal: PolicyProposal = {
  candidates: [{ action: click('1'), logit: Math.log(0.6) }, { action: click('2'), logit: Math.log(0.3) }, { action: click('1'), logit: Math.log(0.1) }],
  logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [],
};
const shape: RequestShape = { guide: null, sections: [], temperature: 0.8, numCandidates: 3, tuned: {} };

async function jitrlWithMemory(): Promise<Learner> {
  const store = new InMemoryStepRowStore();
  await store.putEpisode('old', [
    transition({ id: 'old:0', action: RED, url: 'https://shop.test/products/41', futureRewards: [1] }),
    transition({ id: 'old:1', action: GUIDE, url: 'https://shop.test/products/41', futureRewards: [1], stepIndex: 1 }),
  ]);
  return new JitrlLearner({ store, settings: () => ({ ...DEFAULT_JITRL, advantageFloor: 0 }), random: scriptedRandom(0.9), clock: { now: () => 1 } });
}

async function throughTheStages(learners: Learner[]) {
  const notes: string[] = [];
  const exclude = new Set<string>();
  const valid = validateStage(proposal, observation, exclude, notes);
  const adjusted = await adjustStage({ learners, context, episode, candidates: valid, exclude, notes, signal: new AbortController().signal, request: shape });
  const ranked = rankStage({ adjusted, episode, context, settings: { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } }, exclude, notes });
  return recordStage({ context, proposal, shape, adjusted, ranked, exclude, notes, started: 0, now: 5 });
}

describe('one Candidate value through the seam', () => {
  it('computes each candidate\'s semantic form once: policy → validate → adjust (JitRL) → rank → record', async () => {
    const jitrl = await jitrlWithMemory();
    const { result: step, calls, formats, parses } = await countSemantic(() => throughTheStages([jitrl]));
    expect(step.candidates.map((c) => [c.semantic, c.origin])).toEqual([[RED, 'model'], [GUIDE, 'memory'], [BLUE, 'model']]);
    // Three proposals (one a duplicate of blue) + one remembered action resolved onto the page.
    expect(calls).toBe(4);
    // Text: each semantic form formatted once (4) and each stored candidate's action once (3); the only parse is
    // the remembered action's stored text (red was proposed, so its memory is not resolved again).
    expect([formats, parses]).toEqual([7, 1]);
    // The stored record carries the formatted action and the target as the page showed it.
    expect(step.candidates.map((c) => c.action)).toEqual(['click([2])', 'click([3])', 'click([1])']);
    expect(step.candidates[0]!.target).toMatchObject({ role: 'button', name: 'Add red shirt' });
    expect(EpisodeSchema.safeParse({ ...episode, steps: [step] }).success).toBe(true);
  });

  it('without an adjuster, a candidate is made once and stored with adjusted = base', async () => {
    const { result: step, calls, formats, parses } = await countSemantic(() => throughTheStages([]));
    expect(calls).toBe(3);
    expect([formats, parses]).toEqual([3 + 2, 0]);
    expect(step.candidates.map((c) => [c.semantic, c.baseLogit, c.adjustedLogit])).toEqual([[BLUE, Math.log(0.6), Math.log(0.6)], [RED, Math.log(0.3), Math.log(0.3)]]);
    expect(step.candidates[0]!.baseProb).toBeCloseTo(2 / 3, 15);
    expect(step.evidence).toBeUndefined();
  });

  it('keeps JitRL\'s numbers in its evidence, on the step and on each candidate (hand-derived)', async () => {
    const step = await throughTheStages([await jitrlWithMemory()]);
    // N(s) = {red 1, guide 1}: V = 1; Q_red = Q_guide = 1 (A 0); blue unseen, λ missed: Q 0, A −1, Ã −1/(1 + ε).
    expect(step.evidence?.jitrl).toMatchObject({ v: 1, droppedMemoryActions: 0 });
    const blue = step.candidates.find((c) => c.semantic === BLUE)!;
    expect(valueOf(blue)).toMatchObject({ q: 0, advantage: -1, support: 0, valueKind: 'neutral' });
    expect(blue.adjustedLogit).toBeCloseTo(Math.log(0.6) - 2, 7);
    const guide = step.candidates.find((c) => c.semantic === GUIDE)!;
    // A memory-only action enters one nat below the lowest model logit (z of red, log 0.3).
    expect(guide.baseLogit).toBeCloseTo(Math.log(0.3) - 1, 15);
    expect(valueOf(guide)).toMatchObject({ q: 1, advantage: 0, support: 1, valueKind: 'known' });
  });

  it('a candidate record round-trips: the stored action parses back to the structured action', () => {
    const [red] = proposedCandidates([{ page: pageActionOf(click('2'), observation), logit: 0 }]);
    const record = candidateRecord(red!);
    const parsed = parseAction(record.action);
    expect(parsed.ok && parsed.action).toEqual(click('2'));
    expect(record).toEqual({ action: 'click([2])', semantic: RED, origin: 'model', target: red!.target, baseLogit: 0, adjustedLogit: 0, baseProb: 1, adjustedProb: 1 });
  });
});
