/**
 * Facts about one control read from the DOM: its states (checked, expanded,
 * disabled, …), its value (masked by the caller: describe-node), its heading level, and what the
 * sensitivity gate needs to know about its form.
 */
import { formTargetOf } from '../dom/form-target.ts';
import { formDataOf } from '../dom/form-data.ts';
import type { ElementStates, SnapshotNode } from '../../core/page/observation.ts';
import { cap, collapse } from './snapshot-text.ts';

const MAX_VALUE = 300;
const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

export function headingLevel(el: Element, tag: string): number {
  const m = /^h([1-6])$/.exec(tag);
  if (m !== null) return Number(m[1]);
  const aria = Number(el.getAttribute('aria-level'));
  return Number.isInteger(aria) && aria >= 1 && aria <= 6 ? aria : 2;
}

export function statesOf(el: Element, tag: string, role: string, focused: boolean): ElementStates {
  const s: ElementStates = {};
  const aria = (name: string): string | null => el.getAttribute(name);
  if (CHECKABLE.has(role)) {
    if (tag === 'input' && (el as HTMLInputElement).type !== 'button') {
      const input = el as HTMLInputElement;
      s.checked = input.indeterminate ? 'mixed' : input.checked;
    } else {
      const c = aria('aria-checked');
      s.checked = c === 'mixed' ? 'mixed' : c === 'true';
    }
  }
  if (tag === 'option' ? (el as HTMLOptionElement).selected : aria('aria-selected') === 'true') s.selected = true;
  const expanded = aria('aria-expanded');
  if (expanded === 'true' || expanded === 'false') s.expanded = expanded === 'true';
  else if (tag === 'summary' && el.parentElement?.localName === 'details') s.expanded = (el.parentElement as HTMLDetailsElement).open;
  if (el.matches(':disabled') || el.closest('[aria-disabled="true"]') !== null) s.disabled = true;
  if ((el as HTMLInputElement).required === true || aria('aria-required') === 'true') s.required = true;
  if (aria('aria-invalid') === 'true' || aria('aria-invalid') === 'grammar' || aria('aria-invalid') === 'spelling' || safeMatches(el, ':user-invalid')) s.invalid = true;
  if (((tag === 'input' || tag === 'textarea') && (el as HTMLInputElement).readOnly) || aria('aria-readonly') === 'true') s.readonly = true;
  if (focused) s.focused = true;
  return s;
}

/**
 * What the sensitivity gate needs to know about forms: the autocomplete token
 * (secret fields), whether the element is in a form, and whether activating
 * or changing it submits that form.
 */
type FormFacts = Pick<SnapshotNode, 'autocomplete' | 'inForm' | 'submits' | 'formAction' | 'formMethod' | 'formData'>;

export function formFacts(el: Element, tag: string, formHasSubmit: Map<HTMLFormElement, boolean>): FormFacts {
  const out: FormFacts = {};
  const auto = el.getAttribute('autocomplete');
  if (auto && auto !== 'on' && auto !== 'off') out.autocomplete = auto.slice(0, 100);
  const form = (el as HTMLInputElement).form ?? el.closest('form');
  if (!form) return out;
  out.inForm = true;
  // Where it goes and how, read as the act-time check reads it (dom/form-target.ts).
  Object.assign(out, formTargetOf(el));
  if (tag === 'button') out.submits = (el as HTMLButtonElement).type === 'submit';
  else if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'submit' || type === 'image') out.submits = true;
    else if (type === 'checkbox' || type === 'radio') out.submits = changeSubmits(el, form, formHasSubmit);
  } else if (tag === 'select') out.submits = changeSubmits(el, form, formHasSubmit);
  // What it submits is part of what an approval names (issue 30).
  if (out.submits === true) out.formData = formDataOf(form, tag === 'button' || tag === 'input' ? el : null);
  return out;
}

/** A change handler that names submit, or a form with no way to submit it but its controls. */
function changeSubmits(el: Element, form: HTMLFormElement, formHasSubmit: Map<HTMLFormElement, boolean>): boolean {
  if (/submit/i.test(el.getAttribute('onchange') ?? '') || /submit/i.test(el.getAttribute('onclick') ?? '')) return true;
  let has = formHasSubmit.get(form);
  if (has === undefined) {
    has = form.querySelector('button:not([type]), button[type=submit], input[type=submit], input[type=image]') !== null;
    formHasSubmit.set(form, has);
  }
  return !has;
}

function safeMatches(el: Element, selector: string): boolean {
  try {
    return el.matches(selector);
  } catch {
    return false;
  }
}

export function valueOf(el: Element, tag: string, role: string): string | undefined {
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (CHECKABLE.has(role) || input.type === 'submit' || input.type === 'button' || input.type === 'reset' || input.type === 'image') return undefined;
    return cap(input.value, MAX_VALUE);
  }
  if (tag === 'textarea') return cap((el as HTMLTextAreaElement).value, MAX_VALUE);
  if (tag === 'select') {
    const sel = el as HTMLSelectElement;
    return Array.from(sel.selectedOptions, (o) => collapse(o.label)).join(', ');
  }
  if ((el as HTMLElement).isContentEditable) return cap(collapse(el.textContent ?? ''), MAX_VALUE);
  const text = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
  if (text !== null) return cap(collapse(text), MAX_VALUE);
  return undefined;
}
