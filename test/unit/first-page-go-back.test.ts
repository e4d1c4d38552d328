// Issue 10 (with issue 9's navigation guard): `go_back` on the task's first
// page walked the benchmark's agent to about:blank, where it stayed for the
// rest of the attempt. It is now never offered there, whoever proposes it
// (the policy or memory), and a skipped memory action is not "stale".
import { describe, expect, it } from 'vitest';
import { unavailableActions, validateStage } from '../../src/core/agent/step-stages.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { estimateValues } from '../../src/learners/jitrl/core/estimate-values.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import type { PolicyProposal } from '../../src/core/policy/policy.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { blankStep } from '../support/step-record.ts';
import { click, pageOf, scriptedRandom, transition } from '../../src/learners/jitrl/test/jitrl-helpers.ts';

const GO_BACK = 'go_back()';
const observation = {
  url: 'https://shop.test/', title: 'Shop', nodes: [{ kind: 'interactive', ref: '1', role: 'link', name: 'Deals', states: {}, inViewport: true }],
} as unknown as PageObservation;
const proposal: PolicyProposal = {
  candidates: [{ action: { type: 'go_back' }, logit: -0.1 }, { action: click('1'), logit: -2.4 }],
  logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [],
};
const episodeWith = (steps: Episode['steps']): Episode => ({
  id: 'e', origin: 'https://shop.test', task: 't', startUrl: 'https://shop.test/', tabId: null, status: 'running', steps,
  answer: null, error: null, learners: ['jitrl'], attempt: 1, kind: 'bench', startedAt: 0, endedAt: null,
}) as Episode;
const stepThat = (navigated: boolean, index: number) => blankStep({
  index, url: 'https://shop.test/', regUrl: '/',
  chosen: { action: 'click([1])', semantic: 'click(<link "Deals">)', decision: 'approved' } as never,
  result: { ok: true, navigated } as never,
});

describe('go_back on the first page of the task', () => {
  it('is unavailable until a step has navigated, and again after going back to the start', () => {
    // Before anything ran, "the task is done" is not offered either.
    expect([...unavailableActions(episodeWith([]))]).toEqual([GO_BACK, 'send_msg_to_user("Done.")']);
    expect([...unavailableActions(episodeWith([stepThat(false, 0)]))]).toEqual([GO_BACK]);
    expect([...unavailableActions(episodeWith([stepThat(true, 0)]))]).toEqual([]);
    const back = blankStep({ index: 1, url: 'https://shop.test/deals', regUrl: '/deals', chosen: { action: GO_BACK, semantic: GO_BACK, decision: 'approved' } as never, result: { ok: true, navigated: true } as never });
    expect([...unavailableActions(episodeWith([stepThat(true, 0), back]))]).toEqual([GO_BACK]);
  });

  it('stays unavailable after a link to the page itself (the browser replaced the entry)', () => {
    // The benchmark's agent clicked the site's logo on the home page, then went "back" to about:blank.
    expect([...unavailableActions(episodeWith([stepThat(true, 0)]), 'https://shop.test/')]).toEqual([GO_BACK]);
    expect([...unavailableActions(episodeWith([stepThat(true, 0)]), 'https://shop.test/deals')]).toEqual([]);
  });

  it('is dropped from the policy\'s proposal with a note', () => {
    const notes: string[] = [];
    const valid = validateStage(proposal, observation, new Set(), notes, new Set([GO_BACK]));
    expect(valid.map((c) => c.action.type)).toEqual(['click']);
    expect(notes).toEqual(["dropped go_back(): the task's first page has nothing of the task to go back to"]);
    expect(validateStage(proposal, observation, new Set(), [], new Set()).map((c) => c.action.type)).toEqual(['go_back', 'click']);
    // When it is all the policy proposed, it is shown (the driver refuses it) rather than pausing the episode.
    const alone: PolicyProposal = { ...proposal, candidates: [proposal.candidates[0]!] };
    const only: string[] = [];
    expect(validateStage(alone, observation, new Set(), only, new Set([GO_BACK])).map((c) => c.action.type)).toEqual(['go_back']);
    expect(only).toEqual([
      "dropped go_back(): the task's first page has nothing of the task to go back to",
      'only an unavailable action was proposed: shown, but it will be refused; edit the step',
    ]);
  });

  it('is not added from memory, and a skipped memory action is not counted as stale', () => {
    const page = pageOf([{ ref: '1', role: 'link', name: 'Deals' }]);
    const neighbours = [
      { transition: transition({ id: 'a:0', action: GO_BACK, futureRewards: [1] }), similarity: 1, ret: 1 },
      { transition: transition({ id: 'b:0', action: 'click(<link "Gone">)', futureRewards: [1] }), similarity: 1, ret: 1 },
    ];
    const input = {
      candidates: page.propose([{ action: click('1'), logit: -1 }]),
      neighbours,
      resolve: (s: string) => (s === GO_BACK ? { action: { type: 'go_back' as const }, semantic: GO_BACK } : page.resolve(s)),
      settings: DEFAULT_JITRL,
      random: scriptedRandom(0.9),
    };
    const offered = estimateValues(input);
    expect(offered.candidates.map((c) => c.semantic)).toEqual(['click(<link "Deals">)', GO_BACK]);
    const skipped = estimateValues({ ...input, random: scriptedRandom(0.9), skip: (s) => s === GO_BACK });
    expect(skipped.candidates.map((c) => c.semantic)).toEqual(['click(<link "Deals">)']);
    // Only the action that really is gone is stale.
    expect(skipped.droppedTransitionIds).toEqual(['b:0']);
    expect(skipped.droppedMemoryActions).toBe(1);
  });
});

describe('the proposal draw', () => {
  it('is keyed by seed, task, attempt, step and rejections — not the origin, whose port changes between benchmark runs', async () => {
    const { drawKeyOf } = await import('../../src/core/agent/step-stages.ts');
    expect(drawKeyOf(0, { task: 'Pin the note', attempt: 2 }, 3, 1)).toBe('0:Pin the note:2:3:1');
  });
});
