/**
 * A name for a field that has none (no label, no aria-label, no placeholder):
 * the text that describes it (`aria-describedby`), else the text a person
 * reads just before it in its box. Three unnamed fields in one form then read
 * `textbox "Street"`, `textbox "City"`, `textbox "Postcode"`, not three
 * `textbox ""`. The snapshot marks such a name as guessed.
 */
const MAX_GUESS = 60;
/** Roles that hold typed or chosen values: the ones whose missing name hurts. */
export const NAMELESS_FIELD_ROLES: ReadonlySet<string> = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'listbox', 'slider']);
const CONTROLS = 'input, select, textarea, button, [contenteditable], [role=textbox], [role=combobox]';

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

function describedBy(el: Element): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  const root = el.getRootNode() as Document | ShadowRoot;
  return collapse(ids.map((id) => root.getElementById?.(id)?.textContent ?? '').join(' '));
}

/** The last text before `el` inside `box`, outside any other control; '' when another control comes first. */
function textBefore(el: Element, box: Element): string {
  const walker = el.ownerDocument.createTreeWalker(box, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  let last = '';
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    if (n === el) return last;
    if (n.nodeType === 1) {
      // A control between the text and the field: that text belongs to the control.
      if ((n as Element).matches(CONTROLS) && !(n as Element).contains(el)) last = '';
      continue;
    }
    const host = n.parentElement;
    if (host !== null && host.closest('script, style, template, [aria-hidden=true]') !== null) continue;
    const text = collapse(n.textContent ?? '');
    if (text !== '') last = text;
  }
  return '';
}

/** A guessed name for an unnamed field, or '' when nothing near it reads as one. */
export function guessedFieldName(el: Element): string {
  let guess = describedBy(el);
  // Look in the field's own box, then one and two boxes out: a label cell beside an input cell.
  for (let box = el.parentElement, hops = 0; guess === '' && box !== null && hops < 3; box = box.parentElement, hops++) {
    guess = textBefore(el, box).replace(/[:*]\s*$/, '').trim();
  }
  return guess.length > MAX_GUESS ? `${guess.slice(0, MAX_GUESS - 1)}…` : guess;
}
