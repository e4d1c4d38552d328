import { describe, expect, it } from 'vitest';
import { computeEffectiveState } from '../../src/core/agent/effective-state.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';

const on = (regUrl: string, semantic: string, ok = true) => ({ regUrl, semantic, ok });

describe('computeEffectiveState', () => {
  it('is empty ("No action") with no history or right after arriving from another page', () => {
    expect(computeEffectiveState([], '/search')).toEqual([]);
    expect(computeEffectiveState([on('/search', 'fill(<searchbox "Search">, "red shirt")'), on('/search', 'click(<button "Go">)')], '/products/ID')).toEqual([]);
  });

  it('keeps lasting widget state, latest per element, dropping buttons, presses, scrolls and failures', () => {
    const steps = [
      on('/reports', 'click(<button "Refresh">)'),
      on('/reports', 'select_option(<combobox "Show by">, "Year")'),
      on('/reports', 'fill(<textbox "From">, "2020")'),
      on('/reports', 'click(<tab "Monthly">)'),
      on('/reports', 'fill(<textbox "From">, "2023")'),
      on('/reports', 'press("Enter")'),
      on('/reports', 'scroll(0, 300)'),
      on('/reports', 'fill(<textbox "To">, "2024")', false),
      on('/reports', 'check(<checkbox "Paid only">)'),
      on('/reports', 'uncheck(<checkbox "Paid only">)'),
    ];
    expect(computeEffectiveState(steps, '/reports')).toEqual([
      'select_option(<combobox "Show by">, "Year")',
      'click(<tab "Monthly">)',
      'fill(<textbox "From">, "2023")',
      'uncheck(<checkbox "Paid only">)',
    ]);
  });

  it('counts only actions since the last arrival on the page', () => {
    const steps = [
      on('/a', 'fill(<textbox "Name">, "Ann")'),
      on('/a', 'click(<link "Details">)'),
      on('/b', 'click(<link "Back to list">)'),
    ];
    expect(computeEffectiveState(steps, '/a')).toEqual([]);
    expect(computeEffectiveState([...steps, on('/a', 'fill(<textbox "City">, "Oslo")')], '/a')).toEqual(['fill(<textbox "City">, "Oslo")']);
  });

  it('clear removes a filled value; unparseable actions are ignored', () => {
    const steps = [
      on('/f', 'fill(<textbox "Q">, "x")'),
      on('/f', 'fill(<textbox "R">, "y")'),
      on('/f', 'clear(<textbox "Q">)'),
      on('/f', 'fill(<textbox "S", "broken'),
    ];
    expect(computeEffectiveState(steps, '/f')).toEqual(['fill(<textbox "R">, "y")']);
  });

  it('drops an entry the current page contradicts (a reverted setting), and keeps what the page cannot contradict', () => {
    const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
      ref, kind: 'interactive', role, name, states: {}, depth: 1, inViewport: true, ...extra,
    });
    const page = (nodes: SnapshotNode[]): PageObservation => ({
      url: 'http://app.test/prefs', title: 'Preferences', nodes, focusedRef: null,
      offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    });
    const steps = [
      on('/prefs', 'select_option(<combobox "Units">, "Metric")'),
      on('/prefs', 'fill(<textbox "Nickname">, "Kit")'),
      on('/prefs', 'check(<checkbox "Weekly digest">)'),
      on('/prefs', 'click(<radio "Dark">)'),
      on('/prefs', 'fill(<textbox "PIN">, "{password}")'),
      on('/prefs', 'fill(<textbox "Gone field">, "x")'),
      on('/prefs', 'click(<button "Revert">)'),
    ];
    const all = steps.slice(0, 6).map((s) => s.semantic);
    // Without the page the rule is as before.
    expect(computeEffectiveState(steps, '/prefs')).toEqual(all);
    // The page still shows every effect.
    const holding = page([
      node('1', 'combobox', 'Units', { value: 'Metric', options: ['Imperial', 'Metric'] }),
      node('2', 'textbox', 'Nickname', { value: 'Kit' }),
      node('3', 'checkbox', 'Weekly digest', { states: { checked: true } }),
      node('4', 'radio', 'Dark', { states: { checked: true } }),
      node('5', 'textbox', 'PIN', { inputType: 'password', value: '4321' }),
    ]);
    expect(computeEffectiveState(steps, '/prefs', holding)).toEqual(all);
    // "Revert" put every visible setting back: only the masked secret and the field the page no longer shows remain.
    const reverted = page([
      node('1', 'combobox', 'Units', { value: 'Imperial', options: ['Imperial', 'Metric'] }),
      node('2', 'textbox', 'Nickname', { value: '' }),
      node('3', 'checkbox', 'Weekly digest', { states: { checked: false } }),
      node('4', 'radio', 'Dark', { states: { checked: false } }),
      node('5', 'textbox', 'PIN', { inputType: 'password', value: '' }),
    ]);
    expect(computeEffectiveState(steps, '/prefs', reverted)).toEqual([
      'fill(<textbox "PIN">, "{password}")',
      'fill(<textbox "Gone field">, "x")',
    ]);
  });

  it('keeps two lines appended to one field, both, after its whole value; a whole value or a clear replaces them', () => {
    const A = 'fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")';
    const B = 'fill(<textbox "Content">, "\\n[[Category:Landmarks]]", "append")';
    const typed = 'fill(<textbox "Content">, "Intro.")';
    const tick = 'check(<checkbox "Minor edit">)';
    expect(computeEffectiveState([on('/edit', A), on('/edit', B)], '/edit')).toEqual([A, B]);
    // The field's entries sit where its latest action was: the tick came before the second append.
    expect(computeEffectiveState([on('/edit', typed), on('/edit', A), on('/edit', tick), on('/edit', B)], '/edit')).toEqual([tick, typed, A, B]);
    expect(computeEffectiveState([on('/edit', A), on('/edit', B), on('/edit', typed)], '/edit')).toEqual([typed]);
    expect(computeEffectiveState([on('/edit', A), on('/edit', B), on('/edit', 'clear(<textbox "Content">)')], '/edit')).toEqual([]);
  });

  it('reads the changes against the field as the page shows it: what each added must be there', () => {
    const A = 'fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")';
    const B = 'fill(<textbox "Content">, "\\n[[Category:Landmarks]]", "append")';
    const typed = 'fill(<textbox "Content">, "Intro.")';
    const field = (value: string): PageObservation => ({
      url: 'http://wiki.test/edit', title: 'Edit', focusedRef: null,
      nodes: [{ ref: '1', kind: 'interactive', role: 'textbox', name: 'Content', value, states: {}, depth: 0, inViewport: true, multiline: true }],
      offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    });
    const steps = [on('/edit', typed), on('/edit', A), on('/edit', B)];
    // "Intro." + "\n[[Category:Bridges]]" + "\n[[Category:Landmarks]]": the whole value with both lines, both lines.
    expect(computeEffectiveState(steps, '/edit', field('Intro.\n[[Category:Bridges]]\n[[Category:Landmarks]]'))).toEqual([typed, A, B]);
    // The page dropped the second line: that append is gone, and so is the whole value as it was left.
    expect(computeEffectiveState(steps, '/edit', field('Intro.\n[[Category:Bridges]]'))).toEqual([A]);
    // A value cut short by the snapshot (300 characters, the last one "…") contradicts nothing past the cut.
    const long = `${'x'.repeat(400)}`;
    const cut = `${'x'.repeat(299)}…`;
    expect(computeEffectiveState([on('/edit', `fill(<textbox "Content">, "${long}")`), on('/edit', A)], '/edit', field(cut))).toEqual([`fill(<textbox "Content">, "${long}")`, A]);
  });

  it('keeps a value a click took into the page (a tag box emptied by Add, the tag now a chip), followed by that click', () => {
    const fill = 'fill(<textbox "Add a tag">, "groceries")';
    const add = 'click(<button "Add">)';
    const editor = (box: string, chips: string[]): PageObservation => ({
      url: 'http://notes.test/notes/21/edit', title: 'Edit', focusedRef: null,
      nodes: [
        { ref: '1', kind: 'interactive', role: 'textbox', name: 'Add a tag', value: box, states: {}, depth: 0, inViewport: true },
        { ref: '2', kind: 'interactive', role: 'button', name: 'Add', states: {}, depth: 0, inViewport: true },
        ...chips.map((c, i): SnapshotNode => ({ ref: `c${i}`, kind: 'interactive', role: 'button', name: `Remove tag ${c}`, states: {}, depth: 1, inViewport: true })),
        { ref: '3', kind: 'interactive', role: 'button', name: 'Update', states: {}, depth: 0, inViewport: true },
      ],
      offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    });
    // Typed, not yet added: the fill, as always.
    expect(computeEffectiveState([on('/notes/ID/edit', fill)], '/notes/ID/edit', editor('groceries', ['home']))).toEqual([fill]);
    // Added: the box is empty and the page shows "groceries" on a chip. Before this rule the state was [] — the arrival's.
    const added = [on('/notes/ID/edit', fill), on('/notes/ID/edit', add)];
    expect(computeEffectiveState(added, '/notes/ID/edit', editor('', ['home', 'groceries']))).toEqual([fill, add]);
    // Emptied, but the value is shown nowhere (a Clear, a Revert): gone, as before.
    expect(computeEffectiveState(added, '/notes/ID/edit', editor('', ['home']))).toEqual([]);
    // Shown, but no click came after the fill: the page emptied it on its own; nothing took it.
    expect(computeEffectiveState([on('/notes/ID/edit', fill)], '/notes/ID/edit', editor('', ['home', 'groceries']))).toEqual([]);
    // Whole words only: "grocery" on a chip is not "groceries".
    expect(computeEffectiveState(added, '/notes/ID/edit', editor('', ['grocery']))).toEqual([]);
  });
});
