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
