/**
 * "Pick an element" in words (issue 31): which actions fit the element the
 * person pointed at, the action a choice makes (on the element's ref, so it
 * is exactly that element), and the plain-words help the edit field gives
 * when what was typed is not an action. Pure: the panel renders it, the unit
 * tests read it.
 */
import type { PickResult } from '../../protocol/messages.ts';
import { formatAction, parseAction } from '../../core/page/action-grammar.ts';
import type { Action } from '../../core/page/action.ts';

export type Picked = Extract<PickResult, { picked: true }>;
export type PickVerb = 'click' | 'fill' | 'select_option' | 'check' | 'uncheck';

export interface PickChoice {
  verb: PickVerb;
  label: string;
  /** What the value field is labelled with, for a verb that takes one. */
  valueLabel?: string;
}

const CLICK: PickChoice = { verb: 'click', label: 'Click it' };
const TYPED_ROLES = new Set(['textbox', 'searchbox', 'spinbutton']);
const TOGGLE_ROLES = new Set(['checkbox', 'switch', 'menuitemcheckbox']);
const CHOICE_ROLES = new Set(['combobox', 'listbox']);

/** The actions that fit the picked element, the likeliest first. */
export function pickChoices(picked: Picked): PickChoice[] {
  const role = picked.target.role.toLowerCase();
  if (CHOICE_ROLES.has(role) && picked.options && picked.options.length > 0) {
    return [{ verb: 'select_option', label: 'Choose an option', valueLabel: 'Option' }, CLICK];
  }
  if (TYPED_ROLES.has(role) || role === 'combobox') return [{ verb: 'fill', label: 'Type into it', valueLabel: 'Text to type' }, CLICK];
  if (TOGGLE_ROLES.has(role)) return [{ verb: 'check', label: 'Tick it' }, { verb: 'uncheck', label: 'Untick it' }, CLICK];
  if (role === 'radio' || role === 'menuitemradio') return [{ verb: 'check', label: 'Select it' }, CLICK];
  return [CLICK];
}

/** The action a choice makes on the picked element, in the grammar the edit decision takes (ref form). */
export function pickedAction(picked: Picked, verb: PickVerb, value: string): string {
  const target = { kind: 'ref' as const, ref: picked.ref };
  const action: Action =
    verb === 'fill' ? { type: 'fill', target, text: value }
      : verb === 'select_option' ? { type: 'select_option', target, option: value }
        : { type: verb, target };
  return formatAction(action);
}

/**
 * What is wrong with a typed action, in plain words, or null when it parses.
 * Words where an action belongs (no brackets at all) are answered by pointing
 * at the controls that need no grammar.
 */
export function editProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'Type an action, or use Pick an element to point at it in the page.';
  const parsed = parseAction(trimmed);
  if (parsed.ok) return null;
  if (!trimmed.includes('(')) {
    return `“${trimmed}” reads as words, and this field takes an action such as click(<button "Sign in">). ` +
      'To say it without one: press Pick an element and click the element in the page, or press Show me and do the step yourself.';
  }
  return `The action does not parse: ${parsed.error.message}. Pick an element lets you point at it in the page instead.`;
}
