/**
 * The values a person leaves in controls, recorded once each: text typed in
 * a field becomes one fill with the final text when the field settles
 * (change, blur, Enter, or before the next other action); a select, checkbox
 * or radio change becomes one select_option / check / uncheck, however many
 * 'input' and 'change' events the browser sent for it. A field that held
 * several lines before the person edited it records the edit as a change
 * (append, insert, replace: core/page/text-change.ts), never the whole text;
 * so does a line added to a field of lines (a textarea) that held one.
 */
import type { Action, RefTarget } from '../../core/page/action.ts';
import { secretKindOf } from '../../core/secrets/secret-fields.ts';
import { maskOf } from '../../core/secrets/secret-kinds.ts';
import { textChangeOf } from '../../core/page/text-change.ts';
import { isMultilineField } from '../dom/multiline-field.ts';
import { inputType, isToggle, optionLabel, tagOf, textOf } from './recorded-elements.ts';

type Emit = (el: Element, build: (target: RefTarget) => Action) => boolean;

export interface ValueRecorder {
  /** The person is about to edit this field (focus, beforeinput): its text now is what the edit changes. */
  begin(field: Element): void;
  /** The person typed in this field: its fill is pending until it settles. */
  touch(field: Element): void;
  /** Whether the field was typed in since its last recorded fill. */
  pending(field: Element): boolean;
  /** Records the field's fill now, if its text changed since the last one. */
  flushField(field: Element): void;
  /** Records every pending fill (before another action, so the order is the person's). */
  flushAll(): void;
  /** A select, checkbox or radio changed. */
  choice(el: Element): void;
  clear(): void;
}

export function createValueRecorder(emit: Emit): ValueRecorder {
  /** Text fields typed in since their last recorded fill. */
  const pending = new Set<Element>();
  /** The last text / state recorded per element, so repeated events record once. */
  const recorded = new WeakMap<Element, string>();
  /** The text each field held before the person's edit since its last recorded fill. */
  const before = new WeakMap<Element, string>();

  const flushField = (el: Element) => {
    if (!pending.delete(el)) return;
    const value = textOf(el);
    if (recorded.get(el) === value) return;
    // A secret field (by type and autocomplete: core/secrets) is recorded as its mask.
    const secret = tagOf(el) === 'input' ? secretKindOf({ role: 'textbox', name: '', inputType: inputType(el), autocomplete: el.getAttribute('autocomplete') ?? undefined }) : null;
    const text = secret !== null && value !== '' ? maskOf(secret) : value;
    const edit = secret === null ? textChangeOf(recorded.get(el) ?? before.get(el) ?? '', value, { multiline: isMultilineField(el) }) : null;
    const fill = (target: RefTarget): Action => (edit ? { type: 'fill', target, text: edit.text, change: edit.change } : { type: 'fill', target, text });
    if (emit(el, fill)) {
      recorded.set(el, value);
      before.delete(el);
    }
  };
  const flushAll = () => {
    for (const el of [...pending]) if (el.isConnected) flushField(el); else pending.delete(el);
  };

  const select = (el: HTMLSelectElement) => {
    const chosen = Array.from(el.selectedOptions, optionLabel);
    const state = chosen.join('\n');
    if (chosen.length === 0 || recorded.get(el) === state) return;
    flushAll();
    if (emit(el, (target) => ({ type: 'select_option', target, option: chosen[chosen.length - 1]! }))) recorded.set(el, state);
  };

  const toggle = (input: HTMLInputElement) => {
    const state = input.checked ? 'checked' : 'unchecked';
    if (recorded.get(input) === state) return;
    if (inputType(input) === 'radio' && !input.checked) return; // the group's newly checked radio is the action
    flushAll();
    if (!emit(input, (target) => ({ type: input.checked ? 'check' : 'uncheck', target }))) return;
    recorded.set(input, state);
    if (inputType(input) === 'radio' && input.name) {
      // The others in the group are unchecked now: choosing one of them again is a new action.
      const scope = input.form ?? input.getRootNode();
      for (const other of (scope as ParentNode).querySelectorAll('input[type="radio"]')) {
        if (other !== input && (other as HTMLInputElement).name === input.name) recorded.delete(other);
      }
    }
  };

  return {
    begin: (field) => {
      if (!pending.has(field) && !before.has(field)) before.set(field, textOf(field));
    },
    touch: (field) => void pending.add(field),
    pending: (field) => pending.has(field),
    flushField,
    flushAll,
    choice(el) {
      if (tagOf(el) === 'select') select(el as HTMLSelectElement);
      else if (isToggle(el)) toggle(el as HTMLInputElement);
    },
    clear: () => pending.clear(),
  };
}
