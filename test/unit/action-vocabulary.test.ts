import { describe, expect, it } from 'vitest';
import type { Action, Target } from '../../src/core/page/action.ts';
import { formatAction, parseAction } from '../../src/core/page/action-grammar.ts';
import {
  ACTION_DOC_LINES, ACTION_KINDS, ACTION_VOCABULARY, actionSentence, isSettingAction, isTerminalAction, kindsWhere, mapSlots, valueOf,
} from '../../src/core/page/action-vocabulary.ts';
import { ACTION_GRAMMAR_DOC } from '../../src/core/policy/candidate-prompt.ts';

const button: Target = { kind: 'semantic', role: 'button', name: 'Remove', context: [{ role: 'row', name: 'Alan Turing' }] };

/** One action per form of each kind, built from the vocabulary itself. */
function samples(): Action[] {
  const out: Action[] = [];
  for (const kind of ACTION_KINDS) {
    for (const form of ACTION_VOCABULARY[kind].forms) {
      const fields: Record<string, unknown> = { type: kind };
      for (const [field, slot] of form) {
        fields[field as string] = slot === 'target' ? button : slot === 'number' ? 40 : slot === 'url' ? 'https://shop.test/a?b=1'
          : slot === 'change' ? { kind: 'insert', after: 'Intro' } : `${String(field)} text`;
      }
      out.push(fields as Action);
    }
  }
  return out;
}

describe('the action vocabulary', () => {
  it('has 16 kinds and 19 written forms (fill, press and scroll each have two)', () => {
    expect(ACTION_KINDS).toHaveLength(16);
    expect(samples()).toHaveLength(19);
  });

  it('every form the vocabulary describes is written and read back unchanged', () => {
    for (const action of samples()) {
      const text = formatAction(action);
      const parsed = parseAction(text);
      expect(parsed.ok ? parsed.action : parsed.error.message, text).toEqual(action);
    }
  });

  it('writes each kind in its own form', () => {
    expect(formatAction({ type: 'press', keys: 'Enter' })).toBe('press("Enter")');
    expect(formatAction({ type: 'press', target: button, keys: 'Enter' })).toBe('press(<button "Remove" in row "Alan Turing">, "Enter")');
    expect(formatAction({ type: 'scroll', dx: 0, dy: -300 })).toBe('scroll(0, -300)');
    expect(formatAction({ type: 'go_back' })).toBe('go_back()');
    expect(formatAction({ type: 'fill', target: button, text: 'x', change: { kind: 'append' } })).toBe('fill(<button "Remove" in row "Alan Turing">, "x", "append")');
    expect(formatAction({ type: 'fill', target: button, text: 'x', change: { kind: 'replace', old: 'y' } })).toBe('fill(<button "Remove" in row "Alan Turing">, "x", "replace", "y")');
  });

  it('tells the model every kind, in one line per kind or pair', () => {
    for (const kind of ACTION_KINDS) expect(ACTION_GRAMMAR_DOC).toContain(`${kind}(`);
    // check/uncheck and go_back/go_forward share a line.
    expect(ACTION_DOC_LINES).toHaveLength(14);
  });

  it('says which kinds end, set a value, change their element or may open a tab', () => {
    expect([...kindsWhere('ends')]).toEqual(['send_msg_to_user', 'report_infeasible']);
    expect([...kindsWhere('sets')]).toEqual(['fill', 'select_option', 'check', 'uncheck']);
    expect([...kindsWhere('changesElement')]).toEqual(['click', 'dblclick', 'fill', 'clear', 'select_option', 'check', 'uncheck']);
    expect([...kindsWhere('mayOpenTab')]).toEqual(['click', 'dblclick', 'select_option', 'check', 'uncheck', 'press']);
    expect(isTerminalAction({ type: 'report_infeasible', reason: 'x' })).toBe(true);
    expect(isSettingAction({ type: 'clear', target: button })).toBe(false);
  });

  it('rewrites slots by their kind and leaves the others', () => {
    const upper = (s: string) => s.toUpperCase();
    expect(mapSlots({ type: 'fill', target: button, text: 'red mug' }, { value: upper })).toEqual({ type: 'fill', target: button, text: 'RED MUG' });
    expect(mapSlots({ type: 'press', keys: 'Enter' }, { value: upper })).toEqual({ type: 'press', keys: 'Enter' });
    expect(mapSlots({ type: 'send_msg_to_user', text: 'ok' }, { answer: upper, value: () => 'no' })).toEqual({ type: 'send_msg_to_user', text: 'OK' });
    const renamed = mapSlots({ type: 'click', target: button }, { target: (t) => (t.kind === 'semantic' ? { ...t, name: 'Edit' } : t) });
    expect(renamed).toEqual({ type: 'click', target: { ...button, name: 'Edit' } });
  });

  it('reads the value an action leaves, and says the action in words', () => {
    expect(valueOf({ type: 'select_option', target: button, option: 'Viewer' })).toBe('Viewer');
    expect(valueOf({ type: 'goto', url: 'https://a.test/' })).toBeNull();
    const say = { target: (t: Target | undefined) => (t?.kind === 'semantic' ? `“${t.name}”` : 'it'), value: (s: string) => `“${s}”` };
    expect(actionSentence({ type: 'fill', target: button, text: 'Ada' }, say)).toBe('Type “Ada” into “Remove”');
    expect(actionSentence({ type: 'scroll', target: button, dx: 0, dy: 5 }, say)).toBe('Scroll down inside “Remove”');
  });
});
