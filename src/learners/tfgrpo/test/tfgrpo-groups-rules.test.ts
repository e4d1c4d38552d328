import { describe, expect, it } from 'vitest';
import { groupKeyOf, splitGroup, taskTemplate, unchangedReason } from '../core/group.ts';
import { deriveRules } from '../core/offline-rules.ts';
import { resolveOperations } from '../core/operations.ts';
import { experienceSections, instantiateHint, selectForPrompt } from '../core/prompt-experiences.ts';
import { attempt, experience, G1, ORIGIN, step } from './tfgrpo-helpers.ts';

describe('groups', () => {
  it('instances of one template share a key; other tasks and other sites do not', () => {
    expect(taskTemplate('Add "Red mug" to the cart')).toBe('add {} to the cart');
    expect(groupKeyOf(ORIGIN, 'Add "Red mug" to the cart')).toBe(groupKeyOf(ORIGIN, "add  'Blue cup' to the cart"));
    expect(groupKeyOf(ORIGIN, 'Add 2 mugs to the cart')).toBe(groupKeyOf(ORIGIN, 'Add 5 mugs to the cart'));
    expect(groupKeyOf(ORIGIN, 'Add "Red mug" to the cart')).not.toBe(groupKeyOf(ORIGIN, 'Remove "Red mug" from the cart'));
    expect(groupKeyOf(ORIGIN, 'Open the cart')).not.toBe(groupKeyOf('http://other.test', 'Open the cart'));
  });

  it('only mixed groups have winners and losers; partial sits between', () => {
    const s = attempt('s', 'success', []);
    const f = attempt('f', 'failure', []);
    const p = attempt('p', 'partial', []);
    expect(splitGroup([s, f, f])).toEqual({ verdict: 'mixed', winners: [s], losers: [f, f] });
    expect(splitGroup([p, f])).toEqual({ verdict: 'mixed', winners: [p], losers: [f] });
    expect(splitGroup([s, p, f])).toEqual({ verdict: 'mixed', winners: [s], losers: [f] });
    expect(splitGroup([s, s, s]).verdict).toBe('all-success');
    expect(splitGroup([f, f, f]).verdict).toBe('all-failure');
    expect(unchangedReason('all-failure', 3)).toBe('all 3 attempts in the group failed: with no contrast between winners and losers there is nothing to learn, so the library is unchanged');
  });
});

describe('offline rules: page-type contrasts', () => {
  const win = attempt('w', 'success', [
    step('/list', 'fill(<searchbox "Search">, "teapot")', { title: 'Products' }),
    step('/list', 'click(<link "Red teapot">)', { title: 'Products' }),
    step('/product/ID', 'fill(<spinbutton "Quantity">, "2")', { title: 'Red teapot' }),
    step('/product/ID', 'click(<button "Add to cart">)', { title: 'Red teapot' }),
    step('/cart', 'send_msg_to_user("done")', { title: 'Cart' }),
  ], 'Add 2 of the "teapot" to the cart');
  const lose = attempt('l', 'failure', [
    step('/list', 'fill(<searchbox "Search">, "teapot")', { title: 'Products' }),
    step('/list', 'click(<link "Red teapot">)', { title: 'Products' }),
    step('/product/ID', 'click(<button "Add to cart">)', { title: 'Red teapot' }),
    step('/product/ID', 'click(<link "Reviews">)', { title: 'Red teapot' }),
    step('/product/ID', 'click(<button "Buy now">)', { title: 'Red teapot', ok: false, error: 'not found' }),
  ], 'Add 2 of the "teapot" to the cart');

  it('keeps what every winner did and no loser did, and what losers did and no winner did, per page type', () => {
    const rules = deriveRules(splitGroup([win, lose]), G1);
    expect(rules.reason).toBeNull();
    expect(rules.operations).toEqual([{
      op: 'ADD',
      group: G1,
      text: 'On the page "Red teapot": the successful attempts did fill(<spinbutton "Quantity">, "{quantity}") where the failed ones did click(<link "Reviews">), click(<button "Buy now">).',
      hint: {
        pageType: '/product/ID',
        taskPattern: 'Add {quantity} of the {search} to the cart',
        prefer: ['fill(<spinbutton "Quantity">, "{quantity}")'],
        avoid: ['click(<link "Reviews">)', 'click(<button "Buy now">)'],
      },
    }]);
  });

  it('names a page by its URL pattern when attempts saw different titles there (instances of a template)', () => {
    const other = { ...lose, steps: lose.steps.map((s) => (s.regUrl === '/product/ID' ? { ...s, title: 'Blue teapot' } : s)) };
    const [op] = deriveRules(splitGroup([win, other]), G1).operations;
    expect(op).toMatchObject({ text: expect.stringMatching(/^On product detail pages \(\/product\/ID\): /) });
  });

  it('says so when winners and losers did the same things', () => {
    const same = { ...lose, steps: win.steps };
    expect(deriveRules(splitGroup([win, same]), G1)).toEqual({
      operations: [],
      reason: 'the successful and failed attempts took the same actions on every page they shared: no rule can be read off them without a model',
    });
  });

  it('never keeps the text typed into a secret field', () => {
    const w = attempt('w', 'success', [step('/login', 'fill(<textbox "Password">, "hunter22")'), step('/login', 'click(<button "Sign in">)')], 'Sign in');
    const l = attempt('l', 'failure', [step('/login', 'click(<link "Help">)')], 'Sign in');
    const text = JSON.stringify(deriveRules(splitGroup([w, l]), G1).operations);
    expect(text).not.toContain('hunter22');
    expect(text).toContain('click(<button \\"Sign in\\">)');
  });

  it('a hint binds its {variables} to the next instance of the template', () => {
    const hint = { pageType: '/product/ID', taskPattern: 'Add {quantity} of the {search} to the cart', prefer: ['fill(<spinbutton "Quantity">, "{quantity}")'], avoid: ['click(<link "Reviews">)'] };
    expect(instantiateHint(hint, 'Add 3 of the "kettle" to the cart')).toEqual({
      prefer: ['fill(<spinbutton "Quantity">, "3")'],
      avoid: ['click(<link "Reviews">)'],
    });
  });
});

describe('operations from the model: repaired or refused one by one', () => {
  const shown = ['x-a', 'x-b'];
  it('repairs lower-case names, "[2]" and "3"-style numbers and `text` for `content`', () => {
    const out = resolveOperations([
      { op: 'add', text: 'New: a lesson.' },
      { operation: 'Update', id: '[2]', content: 'B: better.' },
      { action: 'remove', number: '1' },
      { operation: 'none' },
    ], shown, G1);
    expect(out.refused).toEqual([]);
    expect(out.operations).toEqual([
      { op: 'ADD', text: 'New: a lesson.', hint: null, group: G1 },
      { op: 'UPDATE', id: 'x-b', text: 'B: better.', group: G1 },
      { op: 'DELETE', id: 'x-a', group: G1 },
      { op: 'NONE', group: G1 },
    ]);
  });

  it('refuses what cannot be repaired, keeping the rest', () => {
    const out = resolveOperations([
      { operation: 'MERGE', id: 1, content: 'x' },
      { operation: 'UPDATE', id: 7, content: 'Out of range.' },
      { operation: 'DELETE', id: null, content: null },
      { operation: 'ADD', id: null, content: '   ' },
      'ADD everything',
      { operation: 'ADD', id: null, content: 'Kept: this one is fine.' },
    ], shown, G1);
    expect(out.operations).toEqual([{ op: 'ADD', text: 'Kept: this one is fine.', hint: null, group: G1 }]);
    expect(out.refused).toEqual([
      expect.stringMatching(/^operation 1 refused: it is not a valid operation \(operation: /),
      'operation 2 refused: UPDATE of number 7, which is not in the library shown (1–2)',
      'operation 3 refused: DELETE of no number, which is not in the library shown (1–2)',
      'operation 4 refused: ADD without content',
      expect.stringMatching(/^operation 5 refused: it is not a valid operation/),
    ]);
  });
});

describe('experiences in the prompt', () => {
  it('numbers the selected experiences in library order and lists the current page hint actions', () => {
    const lib = [
      experience('x-a', 'Sort first: sort by price.'),
      experience('x-b', 'On product pages: set the quantity.', {}, {
        hint: { pageType: '/product/ID', taskPattern: 'Add {quantity} of the {search} to the cart', prefer: ['fill(<spinbutton "Quantity">, "{quantity}")'], avoid: ['click(<link "Reviews">)'] },
      }),
    ];
    expect(experienceSections(lib, 'Add 4 of the "mug" to the cart', '/product/ID')).toEqual([
      { id: 'x-a', title: 'Experience 1', text: 'Sort first: sort by price.' },
      { id: 'x-b', title: 'Experience 2', text: 'On product pages: set the quantity.', suggestedActions: ['fill(<spinbutton "Quantity">, "4")'], discouragedActions: ['click(<link "Reviews">)'] },
    ]);
    expect(experienceSections(lib, 'Add 4 of the "mug" to the cart', '/list')[1]).toEqual({ id: 'x-b', title: 'Experience 2', text: 'On product pages: set the quantity.' });
  });

  it('keeps the most relevant part when the library exceeds the budget', () => {
    const lib = [
      experience('x-a', 'Forum: votes are under each post.'),
      experience('x-b', 'Cart: add the teapot from its product page.'),
      experience('x-c', 'Settings: save after each change.'),
    ];
    expect(selectForPrompt(lib, 'Add the teapot to the cart', '/list', 1).map((e) => e.id)).toEqual(['x-b']);
    expect(selectForPrompt(lib, 'anything', '/list', 5).map((e) => e.id)).toEqual(['x-a', 'x-b', 'x-c']);
  });
});
