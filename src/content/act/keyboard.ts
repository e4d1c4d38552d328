/**
 * The keyboard: a chord pressed on the focused element (or a target), with
 * the default actions a browser would run after an uncancelled keydown —
 * synthetic events run none of them: Tab moves focus, Enter submits or
 * activates, Space activates, characters are typed, arrows scroll.
 */
import { deepActiveElement } from '../dom/focus.ts';
import { isVisible } from '../dom/visibility.ts';
import { IMPLICIT_SUBMIT_FIELDS } from '../dom/form-target.ts';
import { tag, type Run } from './act-context.ts';
import { keyEvent, keySpec, modState, parseChord, producesKeypress, type ModState, type Modifier } from './keys.ts';
import { mouse } from './pointer.ts';
import { deleteText, insertText, isFormField, isTextEditable } from './typing.ts';
import { closeListBeforeEnter } from './autocomplete.ts';
import { clickAsApproved, submitAsApproved } from './effect-check.ts';

export function pressKeys(el: Element, keys: string, run: Run): string | undefined {
  const { modifiers, key } = parseChord(keys);
  // An autocomplete list the typing opened would take the Enter (autocomplete.ts).
  const closed = key === 'Enter' && modifiers.length === 0 && tag(el) === 'input' && isTextEditable(el) ? closeListBeforeEnter(el, run) : null;
  if (closed?.pressEnter === false) return closed.note;
  const note = pressChord(el, modifiers, key, run);
  return closed === null ? note : note === undefined ? closed.note : `${closed.note}; ${note}`;
}

function pressChord(el: Element, modifiers: Modifier[], key: string, run: Run): string | undefined {
  const held: Modifier[] = [];
  for (const m of modifiers) {
    held.push(m);
    keyEvent(el, run, 'keydown', keySpec(m), modState(held));
  }
  const mods = modState(modifiers);
  const spec = keySpec(key);
  let note: string | undefined;
  let proceed = keyEvent(el, run, 'keydown', spec, mods);
  if (proceed && producesKeypress(key, mods)) proceed = keyEvent(el, run, 'keypress', spec, mods);
  if (proceed) note = defaultKeyAction(el, key, mods, run);
  else note = 'the page handled the key itself (default prevented)';
  // Focus may have moved (Tab): the key comes up where focus is now, as in a browser.
  const upTarget = key === 'Tab' ? (deepActiveElement(el.ownerDocument) ?? el) : el;
  keyEvent(upTarget, run, 'keyup', spec, mods);
  for (const m of [...modifiers].reverse()) {
    held.splice(held.indexOf(m), 1);
    keyEvent(upTarget, run, 'keyup', keySpec(m), modState(held));
  }
  return note;
}

/** What a browser would do after an uncancelled keydown. Synthetic events do none of it. */
function defaultKeyAction(el: Element, key: string, mods: ModState, run: Run): string | undefined {
  const editable = isTextEditable(el);
  const plain = !mods.ctrlKey && !mods.metaKey && !mods.altKey;
  if ((mods.ctrlKey || mods.metaKey) && key.toLowerCase() === 'a') {
    if (editable && isFormField(el)) (el as HTMLInputElement).select();
    else el.ownerDocument.getSelection()?.selectAllChildren(editable ? el : el.ownerDocument.body);
    return undefined;
  }
  if (key === 'Tab' && !mods.ctrlKey && !mods.metaKey && !mods.altKey) {
    moveFocus(el, mods.shiftKey ? -1 : 1);
    return undefined;
  }
  if (key === 'Enter' && plain) {
    if (tag(el) === 'textarea' || (editable && !isFormField(el))) {
      insertText(el, '\n', run, 'insertLineBreak');
      return undefined;
    }
    run.check?.('after the key went down');
    if (tag(el) === 'input') return implicitSubmit(el as HTMLInputElement, run);
    if (isActivatable(el)) {
      activate(el, run);
      return undefined;
    }
    return undefined;
  }
  if (key === ' ' && plain && !editable && isActivatable(el)) {
    run.check?.('after the key went down');
    activate(el, run);
    return undefined;
  }
  if (editable && plain && key.length === 1) {
    insertText(el, key, run, 'insertText');
    return undefined;
  }
  if (editable && plain && (key === 'Backspace' || key === 'Delete')) {
    deleteText(el, key === 'Backspace' ? -1 : 1, run);
    return undefined;
  }
  if (!editable && plain) {
    const view = el.ownerDocument.defaultView ?? run.win;
    const page = view.innerHeight * 0.875;
    const dy = { ArrowDown: 40, ArrowUp: -40, PageDown: page, PageUp: -page, ' ': mods.shiftKey ? -page : page }[key];
    if (dy !== undefined) view.scrollBy({ top: dy, behavior: 'instant' });
    if (key === 'Home') view.scrollTo({ top: 0, behavior: 'instant' });
    if (key === 'End') view.scrollTo({ top: el.ownerDocument.documentElement.scrollHeight, behavior: 'instant' });
  }
  return undefined;
}

const isActivatable = (el: Element) =>
  el.matches('a[href], button, input[type=button], input[type=submit], input[type=reset], input[type=checkbox], input[type=radio], summary, [role=button], [role=link], [role=checkbox], [role=menuitem], [role=tab], [role=option]');

/** HTML implicit submission: the default button is clicked, or a lone field submits its form. */
function implicitSubmit(input: HTMLInputElement, run: Run): string | undefined {
  const form = input.form;
  if (!form) return undefined;
  const submitter = Array.from(form.elements).find((e) =>
    e.matches('button:not([type]), button[type=submit], input[type=submit], input[type=image]'),
  );
  if (submitter) {
    if (submitter.matches(':disabled')) return 'the form\'s submit button is disabled';
    activate(submitter, run);
    return undefined;
  }
  const blocking = Array.from(form.elements).filter((e) => e.matches(IMPLICIT_SUBMIT_FIELDS));
  if (blocking.length > 1) return 'Enter did not submit: the form has several fields and no submit button';
  if (run.check) submitAsApproved(form, { ...run, check: run.check });
  else form.requestSubmit();
  return undefined;
}

/** The click a key stands for; an approved one is checked at the moment of its effect (effect-check.ts). */
function activate(el: Element, run: Run): void {
  if (run.check) clickAsApproved(el, { ...run, check: run.check }, { detail: 0 });
  else mouse(el, run, 'click', { detail: 0 });
}

/** Focusable-by-Tab elements of a document in tab order (positive tabindex first). */
function tabbables(doc: Document): HTMLElement[] {
  const all = Array.from(
    doc.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"]'),
  ).filter((e) => e.tabIndex >= 0 && !e.matches(':disabled, input[type=hidden], [inert] *') && isVisible(e));
  const positive = all.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  return [...positive, ...all.filter((e) => e.tabIndex === 0)];
}

function moveFocus(from: Element, step: 1 | -1): void {
  const list = tabbables(from.ownerDocument);
  if (list.length === 0) return;
  const at = list.indexOf(from as HTMLElement);
  const next = at < 0 ? (step === 1 ? list[0] : list[list.length - 1]) : list[(at + step + list.length) % list.length];
  next?.focus();
}

