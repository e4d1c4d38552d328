import { describe, expect, it } from 'vitest';
import { editProblem, pickChoices, pickedAction, type Picked } from '../../src/ui/app/pick-actions.ts';
import { targetWords } from '../../src/core/page/target-words.ts';

const picked = (role: string, extra: Partial<Picked> = {}): Picked => ({ picked: true, ref: '7', target: { kind: 'semantic', role, name: 'X' }, ...extra });

describe('pickChoices: the actions that fit the picked element, the likeliest first', () => {
  it('a select with options: choose, then click', () => {
    expect(pickChoices(picked('combobox', { options: ['Viewer', 'Admin'] })).map((c) => c.verb)).toEqual(['select_option', 'click']);
  });
  it('a text field (and an editable combobox without options): type, then click', () => {
    expect(pickChoices(picked('textbox')).map((c) => c.verb)).toEqual(['fill', 'click']);
    expect(pickChoices(picked('combobox')).map((c) => c.verb)).toEqual(['fill', 'click']);
    expect(pickChoices(picked('searchbox'))[0]).toEqual({ verb: 'fill', label: 'Type into it', valueLabel: 'Text to type' });
  });
  it('a checkbox: tick, untick, click; a radio: select, click; a button or link: click only', () => {
    expect(pickChoices(picked('checkbox')).map((c) => c.verb)).toEqual(['check', 'uncheck', 'click']);
    expect(pickChoices(picked('radio')).map((c) => c.label)).toEqual(['Select it', 'Click it']);
    expect(pickChoices(picked('button'))).toEqual([{ verb: 'click', label: 'Click it' }]);
    expect(pickChoices(picked('link'))).toEqual([{ verb: 'click', label: 'Click it' }]);
  });
});

describe('pickedAction: the choice as an action on the element\'s ref', () => {
  it('writes the grammar the edit decision takes, values quoted and escaped', () => {
    expect(pickedAction(picked('button'), 'click', '')).toBe('click([7])');
    expect(pickedAction(picked('textbox'), 'fill', 'say "hi"')).toBe('fill([7], "say \\"hi\\"")');
    expect(pickedAction(picked('combobox'), 'select_option', 'Admin')).toBe('select_option([7], "Admin")');
    expect(pickedAction(picked('checkbox'), 'uncheck', 'ignored')).toBe('uncheck([7])');
  });
});

describe('editProblem: plain words where an action belongs', () => {
  it('a valid action has no problem', () => {
    expect(editProblem('click(<button "Sign in">)')).toBeNull();
    expect(editProblem('  click([12]) ')).toBeNull();
  });
  it('words without brackets are answered with pointing', () => {
    expect(editProblem('remove alan')).toBe(
      '“remove alan” reads as words, and this field takes an action such as click(<button "Sign in">). ' +
      'To say it without one: press Pick an element and click the element in the page, or press Show me and do the step yourself.',
    );
  });
  it('an empty field, and a broken action', () => {
    expect(editProblem('   ')).toBe('Type an action, or use Pick an element to point at it in the page.');
    expect(editProblem('clik(<button "Sign up">')).toMatch(/^The action does not parse: .+\. Pick an element lets you point at it in the page instead\.$/);
  });
});

describe('targetWords', () => {
  it('role, name, the containers and the ordinal', () => {
    expect(targetWords({ kind: 'semantic', role: 'button', name: 'Remove', context: [{ role: 'row', name: 'Alan Turing' }] })).toBe('button “Remove” — row “Alan Turing”');
    expect(targetWords({ kind: 'semantic', role: 'textbox', name: '' })).toBe('textbox');
    expect(targetWords({ kind: 'semantic', role: 'link', name: 'More', context: [{ role: 'row', name: 'A' }, { role: 'dialog', name: '' }], nth: 2 }))
      .toBe('link “More” — row “A”, dialog (number 2 of its kind)');
  });
});
