/**
 * What kind of control an event happened on, as the demonstration recorder
 * sees it: a field a person types into (recorded as one fill), a choice
 * (select, checkbox, radio), a button-like control (a click), or a native
 * control whose clicks say nothing by themselves.
 */

/** Input types whose value a person types: recorded as one fill. */
const TEXT_TYPES = new Set([
  'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'week', 'time',
]);
/** Input types that act like buttons: recorded as clicks. */
const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);

export const isElement = (n: unknown): n is Element => typeof n === 'object' && n !== null && (n as Node).nodeType === 1;
export const tagOf = (el: Element): string => el.localName;
export const inputType = (el: Element): string => (el.getAttribute('type') ?? 'text').toLowerCase();

export function isTextField(el: Element): boolean {
  const tag = tagOf(el);
  if (tag === 'textarea') return true;
  if (tag === 'input') return TEXT_TYPES.has(inputType(el));
  return (el as HTMLElement).isContentEditable === true;
}

/** The editing host of a contenteditable region (its outermost editable element). */
export function textFieldOf(el: Element): Element | null {
  if (tagOf(el) === 'input' || tagOf(el) === 'textarea') return isTextField(el) ? el : null;
  if ((el as HTMLElement).isContentEditable !== true) return null;
  let host = el;
  while (host.parentElement && host.parentElement.isContentEditable) host = host.parentElement;
  return host;
}

export const isToggle = (el: Element): boolean => tagOf(el) === 'input' && (inputType(el) === 'checkbox' || inputType(el) === 'radio');

/** Native controls whose clicks say nothing by themselves: their change or typed text is recorded instead. */
export function recordedOtherwise(el: Element): boolean {
  for (let cur: Element | null = el; cur; cur = cur.parentElement) {
    const tag = tagOf(cur);
    if (tag === 'select' || tag === 'textarea' || tag === 'option') return true;
    if (tag === 'input') return !BUTTON_TYPES.has(inputType(cur));
  }
  return (el as HTMLElement).isContentEditable === true;
}

export function textOf(el: Element): string {
  const tag = tagOf(el);
  if (tag === 'input' || tag === 'textarea') return (el as HTMLInputElement).value;
  return (el as HTMLElement).innerText;
}

export const optionLabel = (o: HTMLOptionElement): string => (o.label || o.text).replace(/\s+/g, ' ').trim();

/** The element the event happened on, through open shadow roots. */
export function eventTarget(e: Event): Element | null {
  const first = e.composedPath()[0];
  return isElement(first) ? first : isElement(e.target) ? e.target : null;
}
