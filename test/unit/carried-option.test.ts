/**
 * A choice carried to another instance of a task picks that instance's option
 * (issue 35 item 3; the Fossil carry miss `fossil.ticket-new` of issue 33).
 * A tracker's Type list writes "Code_Defect" where the task says "code
 * defect": the same text to a person. Taught "Open a feature request
 * ticket …", the next instance "… code defect …" must choose "Code_Defect",
 * never keep "Feature_Request". Equal whole text only: no part of an option,
 * no option the list lacks.
 *
 * Mutants: `optionText` without the `[_-]` (spaces only) leaves the taught
 * option in place (the carryRows and CER cases fail); `optionNamed` by
 * `startsWith` rebinds "code" to "Code_Defect" (the "no part" case fails);
 * dropping the `named === null` check in carryRows' `rebindOption` writes an
 * option the list lacks (the "security hole" case fails).
 */
import { describe, expect, it } from 'vitest';
import { abstractActions, bindVariables, instantiateAction } from '../../src/core/learning/shared/skill-variables.ts';
import { formatAction, parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { rebindOption } from '../../src/core/page/option-rebinding.ts';
import { optionNamed, optionText, sameOptionText } from '../../src/core/page/option-text.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';
import { carryRows } from '../../src/learners/jitrl/core/carried-rows.ts';
import { transition } from '../../src/learners/jitrl/test/jitrl-helpers.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});
const TYPES = ['Code_Defect', 'Build_Problem', 'Documentation', 'Feature_Request', 'Incident'];
const form = (types: string[] = TYPES): PageObservation => ({
  url: 'https://tracker.test/tktnew', title: 'New Ticket', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [node('1', 'textbox', 'Title'), node('2', 'combobox', 'Type', { options: types, value: types[0]! }), node('3', 'combobox', 'Status', { options: ['Open', 'Closed'] }), node('4', 'button', 'Submit')],
});
const TAUGHT = 'Open a feature request ticket called "Import notes from Markdown files".';
const NEXT = 'Open a code defect ticket called "App freezes when pasting images".';
// memory/task-instances.ts aligns the two tasks to these values (lower-case source → target).
const VALUES = new Map([['feature request', 'code defect'], ['import notes from markdown files', 'App freezes when pasting images']]);
const act = (s: string): Action => {
  const parsed = parseAction(s);
  if (!parsed.ok) throw parsed.error;
  return parsed.action;
};

describe('which option a value names', () => {
  it('reads underscores, hyphens, case and runs of spaces as a person does', () => {
    expect(optionText('  Code_Defect ')).toBe('code defect');
    expect(optionText('Not-A__Bug')).toBe('not a bug');
    expect(sameOptionText('Not_A_Bug', 'not a bug')).toBe(true);
    expect(sameOptionText('', ' ')).toBe(false);
  });

  it('names an option only by its whole text, and only one', () => {
    expect(optionNamed(TYPES, 'code defect')).toBe('Code_Defect');
    expect(optionNamed(TYPES, 'code')).toBeNull();
    expect(optionNamed(TYPES, 'defect')).toBeNull();
    expect(optionNamed(['Code_Defect', 'code-defect'], 'code defect')).toBeNull();
  });
});

describe('a choice carried from another instance of the task', () => {
  it('becomes the option whose whole text is this instance\'s value', () => {
    expect(rebindOption('select_option(<combobox "Type">, "Feature_Request")', form(), VALUES)).toEqual({
      kind: 'moved', semantic: 'select_option(<combobox "Type">, "Code_Defect")',
    });
  });

  it('counts for nothing when the list lacks this instance\'s option, and leaves a choice that is no instance\'s value', () => {
    const security = new Map([['feature request', 'security hole']]);
    expect(rebindOption('select_option(<combobox "Type">, "Feature_Request")', form(), security)).toEqual({
      kind: 'other-instance', reason: '<combobox "Type"> has no option "security hole"',
    });
    expect(rebindOption('select_option(<combobox "Status">, "Open")', form(), VALUES)).toEqual({ kind: 'same' });
    // Already this instance's option (the plain word rewrite got it): as it is.
    expect(rebindOption('select_option(<combobox "Type">, "Code_Defect")', form(), VALUES)).toEqual({ kind: 'same' });
  });

  it('JitRL: the taught choice is carried as "Code_Defect", and as no evidence where the list has no such option', () => {
    const remembered = { transition: transition({ id: 'e1:3', task: TAUGHT, action: 'select_option(<combobox "Type">, "Feature_Request")', regUrl: '/tktnew' }), similarity: 0.9, ret: 1 };
    const out = carryRows([remembered], NEXT, form());
    expect(out.neighbours.map((n) => n.transition.action)).toEqual(['select_option(<combobox "Type">, "Code_Defect")']);
    expect(out.otherInstance.size).toBe(0);
    expect(out.notes).toEqual(['remembered select_option(<combobox "Type">, "Feature_Request") set to this task\'s option: select_option(<combobox "Type">, "Code_Defect")']);
    const without = carryRows([remembered], NEXT, form(['Build_Problem', 'Feature_Request']));
    expect([...without.otherInstance]).toEqual(['e1:3']);
  });

  it('CER: the option becomes the task\'s {type}, bound to "code defect" and resolved to "Code_Defect"', () => {
    const taught = abstractActions(TAUGHT, [act('fill(<textbox "Title">, "Import notes from Markdown files")'), act('select_option(<combobox "Type">, "Feature_Request")')]);
    expect(taught.name).toBe('Open a {type} ticket called {title}');
    const values = bindVariables(taught.name, taught.variables, NEXT);
    expect(values).toEqual({ type: 'code defect', title: 'App freezes when pasting images' });
    const suggested = instantiateAction(formatAction(taught.actions[1]!), values)!;
    expect(suggested).toBe('select_option(<combobox "Type">, "code defect")');
    expect(resolveSemanticAction(act(suggested), form(), { remembered: true })).toEqual({
      ok: true, match: 'exact', action: { type: 'select_option', target: { kind: 'ref', ref: '2' }, option: 'Code_Defect' },
    });
    // A remembered "code" is no option: never the one that starts with it.
    expect(resolveSemanticAction(act('select_option(<combobox "Type">, "code")'), form(), { remembered: true })).toMatchObject({ ok: false, code: 'unresolved' });
  });
});
