/**
 * Order within one page (issue 35 part 4): what the page shows open — a
 * dialog, an expanded section — is part of the state, counted from the
 * episode's arrival on the page, so the steps before and after "Save note" on
 * one URL are two states.
 */
import { describe, expect, it } from 'vitest';
import { computeEffectiveState } from '../../src/core/agent/effective-state.ts';
import { appendStep } from '../../src/core/agent/demonstration-recorder.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { MAX_PAGE_MARKS, openedSince, pageMarks } from '../../src/core/page/page-marks.ts';

const node = (ref: string | null, kind: SnapshotNode['kind'], role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind, role, name, states: {}, depth: 1, inViewport: true, ...extra,
});
const page = (nodes: SnapshotNode[]): PageObservation => ({
  url: 'http://shop.test/checkout', title: 'Checkout', nodes, focusedRef: null,
  offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});

describe('pageMarks', () => {
  it('names the open dialogs and the expanded controls, with their context, in page order; not a combobox\'s list, not a collapsed control', () => {
    const marks = pageMarks(page([
      node('1', 'interactive', 'button', 'Change address', { states: { expanded: true }, context: [{ role: 'group', name: 'Delivery address' }] }),
      node('2', 'interactive', 'button', 'Menu', { states: { expanded: false } }),
      node('3', 'interactive', 'combobox', 'Country', { states: { expanded: true } }),
      node(null, 'landmark', 'dialog', 'Gift note'),
      node('4', 'interactive', 'button', 'Save note', { context: [{ role: 'dialog', name: 'Gift note' }] }),
      node('5', 'interactive', 'button', 'Shipping', { states: { expanded: true } }),
      node('6', 'interactive', 'button', 'Shipping', { states: { expanded: true } }),
      node(null, 'landmark', 'navigation', 'Main'),
    ]));
    expect(marks).toEqual([
      'expanded <button "Change address" in group "Delivery address">',
      'open <dialog "Gift note">',
      'expanded <button "Shipping">',
    ]);
  });

  it(`keeps at most ${MAX_PAGE_MARKS}`, () => {
    const many = Array.from({ length: 30 }, (_, i) => node(String(i), 'interactive', 'treeitem', `Folder ${i}`, { states: { expanded: true } }));
    const marks = pageMarks(page(many));
    expect(marks).toHaveLength(20);
    expect(marks.at(-1)).toBe('expanded <treeitem "Folder 19">');
  });

  it('openedSince: what is open now and was not on arrival; nothing without a baseline', () => {
    expect(openedSince(['open <dialog "Cookies">'], ['open <dialog "Cookies">', 'open <dialog "Gift note">'])).toEqual(['open <dialog "Gift note">']);
    expect(openedSince(['open <dialog "Cookies">'], [])).toEqual([]);
    expect(openedSince(null, ['open <dialog "Gift note">'])).toEqual([]);
  });
});

describe('the effective state holds what the episode opened on this page', () => {
  const CHANGE = 'click(<button "Change address">)';
  const FILL = 'fill(<textbox "Street">, "5 Oak Lane")';
  const USE = 'click(<button "Use this address">)';
  const step = (semantic: string, marks: string[] | undefined, regUrl = '/checkout') => ({ regUrl, semantic, ok: true, marks });
  const MENU = 'expanded <button "Collapse main menu">';
  const SECTION = 'expanded <button "Change address">';

  it('tells "before Use this address" (section open) from "after it" (closed), with the same actions behind them', () => {
    const steps = [step(CHANGE, [MENU]), step(FILL, [MENU, SECTION])];
    // A menu the site shows expanded on every load is the page, not progress.
    expect(computeEffectiveState(steps, '/checkout', undefined, [MENU, SECTION])).toEqual([FILL, SECTION]);
    expect(computeEffectiveState([...steps, step(USE, [MENU, SECTION])], '/checkout', undefined, [MENU])).toEqual([FILL]);
  });

  it('reads the marks from the page when it is given, and counts from the first step of this visit', () => {
    const open = page([node(null, 'landmark', 'dialog', 'Gift note'), node('1', 'interactive', 'textbox', 'Message')]);
    const visit = [step('click(<link "Checkout">)', [], '/cart'), step('click(<button "Add a gift note">)', [])];
    expect(computeEffectiveState(visit, '/checkout', open)).toEqual(['open <dialog "Gift note">']);
    // Arriving with the dialog open: it was open on arrival, so it is not this visit's progress.
    expect(computeEffectiveState(visit.slice(0, 1), '/checkout', open)).toEqual([]);
    // A first step recorded before marks were kept: no baseline, no marks (the state as it was).
    expect(computeEffectiveState([step('click(<button "Add a gift note">)', undefined)], '/checkout', open)).toEqual([]);
  });

  it('a demonstration\'s steps carry the marks its page reported, and its states count them', () => {
    const started: Episode = {
      id: 'd1', origin: 'http://shop.test', task: 'Send it with a note', startUrl: 'http://shop.test/checkout', tabId: 1, status: 'running',
      steps: [], answer: null, error: null, learners: [], attempt: 1, kind: 'demonstration', startedAt: 0, endedAt: null,
    };
    const url = 'http://shop.test/checkout';
    const one = appendStep(started, { action: 'click(<button "Add a gift note">)', url, title: 'Checkout', marks: [] }, 1);
    const two = appendStep({ ...started, steps: one }, { action: 'fill(<textbox "Message" in dialog "Gift note">, "Hi")', url, title: 'Checkout', marks: ['open <dialog "Gift note">'] }, 2);
    const three = appendStep({ ...started, steps: two }, { action: 'click(<button "Place order">)', url, title: 'Checkout', marks: [] }, 3);
    expect(three.map((s) => [s.pageMarks, s.effectiveState])).toEqual([
      [[], []],
      [['open <dialog "Gift note">'], ['open <dialog "Gift note">']],
      [[], ['fill(<textbox "Message" in dialog "Gift note">, "Hi")']],
    ]);
  });
});
