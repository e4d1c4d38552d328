/**
 * Issue 25: a replayed step runs only on the one element with the same role
 * and name. The mutant — resolving the remembered step the way memory
 * candidates are resolved (nearest match) — acts on another product here,
 * which is what the "0 steps on a wrong element" figure would then count.
 */
import { describe, expect, it } from 'vitest';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';
import { checkPrecondition, valuesThePageMustShow } from '../../src/core/replay/replay-step.ts';
import { replayProposal } from '../../src/core/replay/replay-proposal.ts';
import { EpisodeSchema, recordedStepRecord, type Episode } from '../../src/core/episode/episode.ts';

const node = (ref: string, role: string, name: string, depth = 0): SnapshotNode => ({ ref, kind: 'interactive', role, name, states: {}, depth, inViewport: true });
const page = (nodes: SnapshotNode[], url = 'https://shop.test/product/7'): PageObservation => ({
  url, title: 't', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});
const step = { regUrl: '/product/{id}', action: 'click(<button "Add Red mug to cart">)' };

describe('the precondition of a replayed step', () => {
  it('holds on the one element with the same role and name, and gives its ref', () => {
    expect(checkPrecondition(step, page([node('1', 'button', 'Add Red mug set to cart'), node('2', 'button', 'Add Red mug to cart')]))).toEqual({ ok: true, action: { type: 'click', target: { kind: 'ref', ref: '2' } } });
  });

  it('refuses a near name, and so does memory resolution: another product is not a stand-in', () => {
    const changed = page([node('1', 'button', 'Add Red mug set to cart'), node('3', 'link', 'Home')]);
    expect(checkPrecondition(step, changed)).toEqual({ ok: false, reason: '<button "Add Red mug to cart"> is not on the page' });
    const parsed = parseAction(step.action);
    if (!parsed.ok) throw parsed.error;
    expect(resolveSemanticAction(parsed.action, changed)).toMatchObject({ ok: false, code: 'unresolved', candidates: 0 });
  });

  it('refuses two matches, another role, a dialog over the page, and another page type', () => {
    expect(checkPrecondition(step, page([node('1', 'button', 'Add Red mug to cart'), node('2', 'button', 'add  red mug to CART')]))).toEqual({ ok: false, reason: '2 elements match <button "Add Red mug to cart">' });
    expect(checkPrecondition(step, page([node('1', 'link', 'Add Red mug to cart')]))).toMatchObject({ ok: false });
    const dialog: SnapshotNode = { ref: null, kind: 'landmark', role: 'alertdialog', name: 'Leave the page?', states: {}, depth: 0, inViewport: true };
    expect(checkPrecondition(step, page([node('1', 'button', 'Add Red mug to cart'), dialog, node('2', 'button', 'Stay', 1)]))).toEqual({ ok: false, reason: 'an unexpected dialog is open ("Leave the page?")' });
    // Inside the dialog the step may run (a procedure that learned the dialog).
    expect(checkPrecondition({ regUrl: '/product/{id}', action: 'click(<button "Stay">)' }, page([dialog, node('2', 'button', 'Stay', 1)]))).toMatchObject({ ok: true });
    expect(checkPrecondition(step, page([node('1', 'button', 'Add Red mug to cart')], 'https://shop.test/cart'))).toEqual({ ok: false, reason: 'a different page type (/cart, not /product/{id})' });
  });

  it('checks the content as well as the control: the item the plan went to must be the item on the page', () => {
    const plan = [
      { action: 'fill(<searchbox "Search">, "{item}")' },
      { action: 'click(<link "{item}" in item "{item}">)' },
      { action: 'click(<button "Add to cart">)' },
    ];
    const values = { item: 'Desk lamp' };
    expect(valuesThePageMustShow(plan, values, 2)).toEqual(['Desk lamp']);
    // A fill carries its own value: nothing more to show; nor does the first step.
    expect(valuesThePageMustShow(plan, values, 0)).toEqual([]);
    const add = { regUrl: '/product/{id}', action: 'click(<button "Add to cart">)' };
    const heading: SnapshotNode = { ref: null, kind: 'heading', role: 'heading', name: 'Desk lamp', states: {}, depth: 0, inViewport: true, level: 1 };
    expect(checkPrecondition(add, page([heading, node('1', 'button', 'Add to cart')]), ['Desk lamp'])).toMatchObject({ ok: true });
    // The same page and control, showing a substitute: the replay stops before acting.
    const mug = { ...heading, name: 'Ceramic mug' };
    expect(checkPrecondition(add, page([mug, node('1', 'button', 'Add to cart')]), ['Desk lamp'])).toEqual({
      ok: false, reason: 'the page does not show "Desk lamp", the item the plan acts on',
    });
  });
});

/**
 * Issue 30 / 35: a substitute item inside an approved plan. The plan opened
 * "Desk lamp" and now adds it to the cart; the page at the same address shows
 * a look-alike item under the same "Add to cart" (same control, same effect).
 * The replay proposal stops before the step. `bench:trust`'s content-check-off
 * mutant hands the loop the plan with its values written into the steps
 * (plan-shapes.ts): the check has no item to look for, and the step is
 * proposed on the substitute — this test's second half.
 */
describe('a replayed plan on a substitute item', () => {
  const plan = (abstractSteps: { regUrl: string; action: string }[]): Episode => EpisodeSchema.parse({
    id: 'e2', origin: 'https://shop.test', task: 'Buy the desk lamp for me.', startUrl: 'https://shop.test/', tabId: null, status: 'running',
    steps: [{ ...recordedStepRecord({ index: 0, url: 'https://shop.test/', regUrl: '/', semantic: 'click(<link "desk lamp">)', decision: 'auto', result: { ok: true, navigated: true }, startedAt: 1 }), replayStep: { procedureId: 'p', step: 0, of: 2 } }],
    answer: null, error: null, learners: [], attempt: 1, kind: 'live', startedAt: 0, endedAt: null,
    replay: {
      procedureId: 'p', template: 'Buy the {item} for me.', values: { item: 'desk lamp' }, abstractSteps,
      steps: [{ regUrl: '/', action: 'click(<link "desk lamp">)' }, { regUrl: '/product/{id}', action: 'click(<button "Add to cart">)' }],
      origins: ['https://shop.test'], endsWithAnswer: false, status: 'approved', fallback: null, message: null, tokensPerModelStep: null,
    },
  });
  const abstract = [{ regUrl: '/', action: 'click(<link "{item}">)' }, { regUrl: '/product/{id}', action: 'click(<button "Add to cart">)' }];
  const heading = (name: string): SnapshotNode => ({ ref: null, kind: 'heading', role: 'heading', name, states: {}, depth: 0, inViewport: true, level: 1 });
  // The page's item in its title and heading; below, a related product's card (on a substitute's page, the plan's item).
  const context = (name: string, related = 'Ceramic mug') => ({
    stepIndex: 1, url: 'https://shop.test/product/7', regUrl: '/product/{id}', effectiveState: [],
    observation: {
      ...page([heading(name), node('9', 'button', 'Add to cart'), { ...heading('You may also like'), level: 2 }, { ...heading(related), level: 3 }, node('10', 'link', related)]),
      title: `${name} — Shop`,
    },
  });
  const input = { rejected: [], started: 2, now: 3 };

  it('stops before "Add to cart" on a look-alike item, and proposes it on the item the plan opened', () => {
    for (const substitute of ['Ceramic mug', 'D\u0435sk l\u0430mp', 'Desk lamps (set of 4)']) {
      // The item the plan opened is named on the page, in a related product's card: not as the page's item.
      const stopped = replayProposal(plan(abstract), context(substitute, 'Desk lamp'), input);
      expect(stopped).toMatchObject({ kind: 'policy', replay: { status: 'fell_back', fallback: { step: 1, reason: 'the page does not show "desk lamp", the item the plan acts on' } } });
    }
    expect(replayProposal(plan(abstract), context('Desk lamp'), input)).toMatchObject({ kind: 'step', step: { candidates: [{ action: 'click([9])', semantic: 'click(<button "Add to cart">)' }] } });
  });

  it('the content-check-off mutant (values written into the plan\'s steps) proposes it on the substitute', () => {
    const written = abstract.map((s) => ({ ...s, action: s.action.replace('{item}', 'desk lamp') }));
    expect(replayProposal(plan(written), context('Ceramic mug'), input)).toMatchObject({ kind: 'step', step: { candidates: [{ action: 'click([9])' }] } });
  });
});
