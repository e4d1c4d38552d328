// Order within one page (issue 35 part 4): on an editor page, "title filled" and
// "title and the unnamed text box filled" are two states, so the step taught after
// the second fill is not this very state's step before it.
import { describe, expect, it } from 'vitest';
import type { Episode, StepRecord } from '../../../core/episode/episode.ts';
import type { Action } from '../../../core/page/action.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import { chooseProposal } from '../../../core/agent/proposal-choice.ts';
import { stateTokensOf, tokenize } from '../../../core/page/tokenize.ts';
import { JitrlLearner } from '../core/jitrl-learner.ts';
import { rankNeighbours } from '../core/retrieve-neighbours.ts';
import { InMemoryMemoryStore } from '../core/transition.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { pageOf, scriptedRandom, stepRecord, stepValuesOf, transition } from './jitrl-helpers.ts';

const TASK = 'Write a note titled "Five soups" with the text "Leek and potato comes first." and save it as a draft';
const URL = 'https://notes.test/new';
const FILL_TITLE = 'fill(<textbox "Title">, "Five soups")';
const FILL_TEXT = 'fill(<textbox "">, "Leek and potato comes first.")';
const SAVE = 'click(<button "Save draft">)';
// The editor page written for this test: a named title field, an unnamed text box, Save draft.
const page = pageOf([
  { ref: '1', role: 'textbox', name: 'Title' },
  { ref: '2', role: 'textbox', name: '' },
  { ref: '3', role: 'button', name: 'Save draft' },
]);
const at = (index: number, effectiveState: string[], semantic: string, decision: 'approved' | 'edited' | 'picked', correction?: 'edit' | 'pick'): StepRecord =>
  stepRecord({ index, url: URL, regUrl: '/new', effectiveState, chosen: { action: semantic, semantic, decision, ...(correction ? { correction } : {}) } });
const taught: Episode = {
  id: 'taught', origin: 'https://notes.test', task: TASK, startUrl: URL, tabId: null, status: 'success', answer: null, error: null,
  learners: ['jitrl'], attempt: 1, kind: 'bench', startedAt: 0, endedAt: 1,
  steps: [
    at(0, [], FILL_TITLE, 'approved'),
    at(1, [FILL_TITLE], FILL_TEXT, 'edited', 'edit'),
    at(2, [FILL_TITLE, FILL_TEXT], SAVE, 'picked', 'pick'),
  ],
};
const context: StepContext = {
  episodeId: 'alone', stepIndex: 1, task: TASK, origin: 'https://notes.test', url: URL, regUrl: '/new',
  observation: { url: URL, title: 'New note', nodes: [] } as unknown as StepContext['observation'],
  effectiveState: [FILL_TITLE],
};
const fillText: Action = { type: 'fill', target: { kind: 'ref', ref: '2' }, text: 'Leek and potato comes first.' };
const save: Action = { type: 'click', target: { kind: 'ref', ref: '3' } };

describe('order within one page: an unnamed field filled after a named one is a state of its own', () => {
  it('after the title, the taught text fill is this very state\'s step and Save draft is not (it came after the text)', async () => {
    const store = new InMemoryMemoryStore();
    const learner = new JitrlLearner({ store, settings: () => DEFAULT_JITRL, random: scriptedRandom(0.9), clock: { now: () => 5000 } });
    await learner.learn({ episode: taught, rewards: [0, 0, 1], rewardSource: 'outcome' });
    // The policy likes Save draft better (0.6 to 0.4), as an offline scorer may.
    const out = await learner.adjust({ context, candidates: page.propose([{ action: save, logit: Math.log(0.6) }, { action: fillText, logit: Math.log(0.4) }]), resolve: page.resolve });
    // [title]: {fill, textbox, title, ⟨task value⟩, ⟨fill textbox "title"⟩} (5); [title, text] adds ⟨fill textbox ""⟩ (6):
    // J = 5/6, similarity 0.7·5/6 + 0.3·1. Words alone made them one set (similarity 1: both "this very state").
    expect(stepValuesOf(out).neighbours.map((n) => [n.transitionId, n.similarity])).toEqual([
      ['taught:1', 1],
      ['taught:2', expect.closeTo(0.7 * 5 / 6 + 0.3, 12)],
    ]);
    expect(out.candidates.map((c) => [c.semantic, c.settled === true])).toEqual([[SAVE, false], [FILL_TEXT, true]]);
    const choice = chooseProposal(out.candidates, { mode: 'sampling', temperature: 1, u: 0.01 });
    expect(out.candidates[choice.index]!.semantic).toBe(FILL_TEXT);
    expect(choice.how).toBe('exploited');
  });

  it('a row stored before the marks (words only) is still this very state: its marks are read from its effective state', () => {
    const words = tokenize([FILL_TITLE, FILL_TEXT].join(' '));
    const old = transition({ id: 'old:2', regUrl: '/new', url: URL, task: TASK, effectiveState: [FILL_TITLE, FILL_TEXT], stateTokens: words, action: SAVE });
    const query = { origin: 'https://shop.test', regUrl: '/new', stateTokens: stateTokensOf([FILL_TITLE, FILL_TEXT]), taskTokens: tokenize(TASK), stepIndex: 2 };
    // 9 words (fill, textbox, title, five, soups, leek, potato, comes, first) and 2 marks: without the marks'
    // union the old row would share 9 of 11 tokens, 0.7·9/11 + 0.3 ≈ 0.87, a neighbour but not this very state.
    expect(stateTokensOf([FILL_TITLE, FILL_TEXT])).toHaveLength(11);
    expect(rankNeighbours([old], query, DEFAULT_JITRL).map((n) => n.similarity)).toEqual([1]);
  });
});
