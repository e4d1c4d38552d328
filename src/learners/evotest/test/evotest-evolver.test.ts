import { describe, expect, it } from 'vitest';
import { buildMemory, hintsFor, memoryPageKey, phraseHints } from '../core/experience-memory.ts';
import { diagnose, evolveOffline } from '../core/offline-evolver.ts';
import { abstractDigest, milestonesIn } from '../core/state-abstraction.ts';
import { diffConfigurations } from '../core/configuration-diff.ts';
import { digest, SEED, step, TUNABLES } from './evotest-helpers.ts';

const ORDERS = 'click(<link "Orders">)';
const NEXT = 'click(<button "Next">)';
const DONE = 'send_msg_to_user("done")';

describe('EvoTest memory rules', () => {
  const success = digest([step(ORDERS, { reward: 0.5 }), step(NEXT, { regUrl: '/orders', reward: 0.05 }), step(DONE, { regUrl: '/orders', reward: 1 })]);
  const loop = digest([step(NEXT), step(NEXT), step(NEXT, { ok: false }), step(ORDERS)], { episodeId: 'e2', outcome: 'failure', score: 0 });

  it('derives success pairs and failure patterns by the rules', () => {
    const memory = buildMemory([success, loop], SEED.memoryRules);
    // minStepReward 0.1: the 0.05 step is not a success pair; only the successful episode counts.
    expect(memory.success.get(memoryPageKey('', '/list'))).toEqual([{ action: ORDERS, gain: 0.5, support: 1 }]);
    expect(memory.success.get(memoryPageKey('', '/orders'))).toEqual([{ action: DONE, gain: 1, support: 1 }]);
    expect(memory.failure.get(memoryPageKey('', '/list'))).toEqual([{ action: NEXT, kind: 'loop', support: 2 }]);
    // Hints on /list: ORDERS suggested; NEXT avoided (it never succeeded on /list).
    const hints = hintsFor(memory, SEED.memoryRules, { regUrl: '/list', done: [] });
    expect(hints).toEqual({ suggested: [ORDERS], avoid: [{ action: NEXT, kind: 'loop', support: 2 }] });
    expect(hintsFor(memory, SEED.memoryRules, { regUrl: '/list', done: [ORDERS] }).suggested).toEqual([]);
    expect(phraseHints(hints, SEED.memoryRules)).toBe(
      `Earlier successful attempts on this page did (consider them):\n- ${ORDERS}\nThese actions went wrong on this page before (avoid unless nothing else fits):\n- ${NEXT} (loop)`,
    );
  });

  it('a rule mutation changes the whole memory at once', () => {
    const rules = { ...SEED.memoryRules, successPair: { minStepReward: 0, requireEpisodeSuccess: false }, failurePattern: { ...SEED.memoryRules.failurePattern, lastActionsOfFailure: 1 } };
    const memory = buildMemory([success, loop], rules);
    expect(memory.success.get(memoryPageKey('', '/orders'))).toEqual([{ action: DONE, gain: 1, support: 1 }, { action: NEXT, gain: 0.05, support: 1 }]);
    expect(memory.success.get(memoryPageKey('', '/list'))).toEqual([{ action: ORDERS, gain: 0.7, support: 2 }, { action: NEXT, gain: 0.4, support: 2 }]);
    expect(memory.failure.get(memoryPageKey('', '/list'))).toEqual([{ action: NEXT, kind: 'loop', support: 2 }, { action: ORDERS, kind: 'dead-end', support: 1 }]);
    // ORDERS also succeeded on /list, so it is not avoided there; NEXT too (it appears among the success pairs now).
    expect(hintsFor(memory, rules, { regUrl: '/list', done: [] }).avoid).toEqual([]);
  });
});

describe('EvoTest state abstraction', () => {
  const page = ['Page: Order 12 (https://a.test/orders/12)', 'main', '  heading "Order placed" level=1', '  [4] button "Ship"', '  [5] textbox "Note" value="fragile"', '  text "Thank you"'].join('\n');
  it('keeps the configured parts and finds milestones by plain substring', () => {
    expect(abstractDigest(page, { keep: ['title', 'headings'], maxLines: 5, milestonePhrases: [] })).toEqual(['Page: Order 12 (https://a.test/orders/12)', 'heading "Order placed" level=1']);
    expect(abstractDigest(page, { keep: ['values', 'text'], maxLines: 5, milestonePhrases: [] })).toEqual(['[5] textbox "Note" value="fragile"', 'text "Thank you"']);
    expect(abstractDigest(page, { keep: ['controls', 'landmarks'], maxLines: 2, milestonePhrases: [] })).toEqual(['main', '[4] button "Ship"']);
    expect(milestonesIn(page, { keep: ['title'], maxLines: 5, milestonePhrases: ['order PLACED', 'Shipped'] })).toEqual(['order PLACED']);
  });
});

describe('EvoTest offline evolver', () => {
  it('after a loop: explore (more candidates, hotter, a loop rule) and catch loops sooner', () => {
    const d = digest([step(NEXT), step(NEXT), step(NEXT)], { outcome: 'failure', score: 0 });
    expect(diagnose(d, SEED).loop).toEqual({ regUrl: '/list', action: NEXT, times: 3 });
    const children = evolveOffline(SEED, d, 2, TUNABLES);
    expect(children.map((c) => diffConfigurations(SEED, c.configuration).map((x) => `${x.path}=${x.after}`))).toEqual([
      ['guidance=If an action leaves the page as it was, choose a different element instead of repeating it.', 'hyperparameters.temperature=1', 'hyperparameters.numCandidates=4'],
      ['memoryRules.failurePattern.loopRepeats=2', 'memoryRules.avoidPenalty=1.5'],
    ]);
    expect(children[0]!.rationale).toMatch(/^explore after a loop: looped on click\(<button "Next">\) \(3×\)/);
  });

  it('after a wrong memory hint: tighten r and demote hints to suggestions', () => {
    const instructed = { ...SEED, memoryRules: { ...SEED.memoryRules, hintPhrasing: 'instruction' as const } };
    const d = digest([step(ORDERS, { hinted: [ORDERS] }), step(DONE)], { outcome: 'failure', score: 0 });
    expect(diagnose(d, instructed).wrongHint).toBe(ORDERS);
    const [first] = evolveOffline(instructed, d, 1, TUNABLES);
    expect(diffConfigurations(instructed, first!.configuration)).toEqual([
      { path: 'memoryRules.hintPhrasing', before: 'instruction', after: 'suggestion' },
      { path: 'memoryRules.maxHints', before: '3', after: '2' },
      { path: 'hyperparameters.threshold', before: '0.8', after: '0.85' },
    ]);
  });

  it('after a failure without a loop: blame the end, then widen the search', () => {
    const d = digest([step(ORDERS), step(DONE)], { outcome: 'failure', score: 0 });
    const children = evolveOffline(SEED, d, 3, TUNABLES);
    expect(children.map((c) => c.rationale.split(':')[0])).toEqual(['blame the end of a failure', 'widen the search after a failure']);
    expect(children[1]!.configuration.hyperparameters).toMatchObject({ numCandidates: 4, lambda: 0.1 });
  });

  it('after a success that followed the hints: hints become instructions, the goal page gives a milestone, temperature drops', () => {
    const d = digest([
      step(ORDERS, { hinted: [ORDERS], page: ['Page: Orders (https://a.test/orders)', 'heading "Orders" level=1'] }),
      step(DONE, { page: ['Page: Order 12 (https://a.test/orders/12)', 'heading "Orders" level=1', 'heading "Order shipped" level=2'] }),
    ]);
    const children = evolveOffline(SEED, d, 3, TUNABLES);
    expect(children.map((c) => diffConfigurations(SEED, c.configuration).map((x) => `${x.path}=${x.after}`))).toEqual([
      ['memoryRules.hintPhrasing=instruction'],
      ['stateAbstraction.milestonePhrases=[Order 12]'],
      ['hyperparameters.temperature=0.6'],
    ]);
  });
});
