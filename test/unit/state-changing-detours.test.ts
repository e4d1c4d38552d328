/**
 * Issue 23, learning finding 4: a detour that changes state (the wrong
 * product put on the wish list, so the list page does not come back as it
 * was) earns no credit on a success, is blamed on a failure (from the step that
 * went to the wrong item), is left out of CER's skill, and CER's merge does
 * not keep an older, longer version of the skill with the detour in it.
 * A garden shop written for this test: list, plant pages /plant/<n>.
 */
import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../src/core/episode/episode.ts';
import { mergeIntoBuffer } from '../../src/learners/cer/core/buffer.ts';
import { distillOffline } from '../../src/learners/cer/core/distill.ts';
import type { SkillEntry } from '../../src/learners/cer/core/experience.ts';
import { assignStepRewards } from '../../src/core/credit/rewards.ts';
import { blameOnFailure, stepEvidence, type CreditStep } from '../../src/core/credit/step-credit.ts';
import { taskWords, tokenize } from '../../src/core/page/tokenize.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { liveEpisode, ORIGIN, skill, step } from '../../src/learners/cer/test/cer-helpers.ts';

const TASK = 'Put the Lemon thyme in my basket';
const nav = { ok: true, navigated: true } as const;
const at = (i: number, path: string, regUrl: string, key: string, semantic: string): StepRecord =>
  ({ ...step(i, `${ORIGIN}${path}`, regUrl, semantic, { pageKey: key, result: nav }), chosen: { action: 'click([1])', semantic, decision: 'auto' } });

// The wrong plant first, saved to the wish list (the list now shows "Wish list (1)"), back, then the right one.
const WITH_DETOUR = [
  at(0, '/plants', '/plants', 'list', 'click(<link "Lemon balm">)'),
  at(1, '/plant/31', '/plant/ID', 'balm', 'click(<button "Save to wish list">)'),
  at(2, '/plant/31', '/plant/ID', 'balm-saved', 'go_back()'),
  at(3, '/plants', '/plants', 'list-with-wish', 'click(<link "Lemon thyme">)'),
  at(4, '/plant/32', '/plant/ID', 'thyme', 'click(<button "Put in basket">)'),
];

describe('state-changing detours (finding 4)', () => {
  it('a success gives the detour no credit: the wrong click, the wish list and the way back are wasted (−0.5), not half a success', () => {
    const { rewards } = assignStepRewards({ steps: WITH_DETOUR, outcome: 'success', evaluatorScores: null, settings: DEFAULT_SETTINGS.rewards, task: TASK });
    expect(rewards).toEqual([-0.5, -0.5, -0.5, 0.5, 1]);
  });

  it('an item the task names is not a detour ("the Lemon balm and the Lemon thyme": both instances are wanted)', () => {
    const task = 'Put the Lemon balm and the Lemon thyme in my basket';
    const steps = WITH_DETOUR.map((s, i) => (i === 1 ? { ...s, chosen: { ...s.chosen!, semantic: 'click(<button "Put in basket">)' } } : s));
    const { rewards } = assignStepRewards({ steps, outcome: 'success', evaluatorScores: null, settings: DEFAULT_SETTINGS.rewards, task });
    expect(rewards).toEqual([0.5, 0.5, 0.5, 0.5, 1]);
  });

  it('items the task names that share a word are both its values, whichever comes first ("Lemon thyme" before "Lemon balm")', () => {
    const task = 'Put the Lemon balm and the Lemon thyme in my basket';
    // Thyme first (its page is left for balm's, another instance of /plant/ID), then balm.
    const steps = [
      at(0, '/plants', '/plants', 'list', 'click(<link "Lemon thyme">)'),
      at(1, '/plant/32', '/plant/ID', 'thyme', 'click(<button "Put in basket">)'),
      at(2, '/plant/32', '/plant/ID', 'thyme-in', 'go_back()'),
      at(3, '/plants', '/plants', 'list-with-one', 'click(<link "Lemon balm">)'),
      at(4, '/plant/31', '/plant/ID', 'balm', 'click(<button "Put in basket">)'),
    ];
    const { rewards } = assignStepRewards({ steps, outcome: 'success', evaluatorScores: null, settings: DEFAULT_SETTINGS.rewards, task });
    expect(rewards).toEqual([0.5, 0.5, 0.5, 0.5, 1]);
    const credit: CreditStep[] = steps.map((s) => ({ pageKey: s.pageKey ?? null, action: s.chosen!.semantic, ok: true, margin: 0.5, url: s.url, regUrl: s.regUrl }));
    expect(stepEvidence(credit, taskWords(task))).toEqual([null, null, null, null, null]);
  });

  it('an item the task does not name is no detour when the episode never leaves it for another instance', () => {
    // "Boston fern" names "boston" beside "fern" where the task says "cheapest": not the task's value,
    // but nothing says it was the wrong fern — the episode stayed on it.
    const task = 'Put the cheapest fern in my basket';
    const steps = [
      at(0, '/plants', '/plants', 'list', 'click(<link "Boston fern">)'),
      at(1, '/plant/7', '/plant/ID', 'fern', 'click(<button "Put in basket">)'),
    ];
    const { rewards } = assignStepRewards({ steps, outcome: 'success', evaluatorScores: null, settings: DEFAULT_SETTINGS.rewards, task });
    expect(rewards).toEqual([0.5, 1]);
    const credit: CreditStep[] = steps.map((s) => ({ pageKey: s.pageKey ?? null, action: s.chosen!.semantic, ok: true, margin: 0.5, url: s.url, regUrl: s.regUrl }));
    expect(stepEvidence(credit, taskWords(task))).toEqual([null, null]);
  });

  it('a failure blames the step that went to the wrong item, not only the last one through γ', () => {
    const credit: CreditStep[] = WITH_DETOUR.map((s) => ({ pageKey: s.pageKey ?? null, action: s.chosen!.semantic, ok: true, margin: 0.5, url: s.url, regUrl: s.regUrl }));
    expect(blameOnFailure(credit, tokenize(TASK))).toEqual([true, true, true, false, false]);
    // Without the task nothing tells the detour apart: the least-sure (latest) step is blamed.
    expect(blameOnFailure(credit)).toEqual([false, false, false, false, true]);
  });

  it("CER's skill leaves the detour out", () => {
    const episode = liveEpisode('e-wish', TASK, WITH_DETOUR);
    const distilled = distillOffline({ episode }, [], 50).entries.find((e): e is SkillEntry => e.kind === 'skill');
    expect(distilled?.steps.map((s) => s.exampleActions[0])).toEqual(['click(<link "Lemon thyme">)', 'click(<button "Put in basket">)']);
  });

  it("CER's merge keeps the shorter way when the longer one is it plus a detour", () => {
    const step3 = (text: string) => ({ text, exampleActions: [] });
    const longer = skill('s-1', { name: 'Put {item} in the basket', steps: [step3('Open Lemon balm'), step3('Save it to the wish list'), step3('Go back'), step3('Open {item}'), step3('Put it in the basket')] });
    const shorter = skill('s-2', { name: 'Put {item} in the basket', steps: [step3('Open {item}'), step3('Put it in the basket')] });
    const out = mergeIntoBuffer([longer], [shorter], { maxEntries: 10, now: 99 });
    const kept = out.put.find((e): e is SkillEntry => e.kind === 'skill');
    expect(kept?.id).toBe('s-1');
    expect(kept?.steps.map((s) => s.text)).toEqual(['Open {item}', 'Put it in the basket']);
  });
});
