/**
 * An autocomplete list that a field opened while text was typed into it
 * takes the next Enter for itself: it picks its highlighted entry, or
 * swallows the key, and the form is never submitted. A person sees the list
 * and closes it first. So before an Enter in a text field, an open list of
 * that field with no entry highlighted is closed with Escape, and the result
 * says so; with an entry highlighted, the Enter is left to pick it.
 *
 * The field's list: one it names (`aria-controls`, `aria-owns`) while it says
 * it is expanded, or a listbox, menu, grid or tree that became visible since
 * text was last typed into it.
 */
import { isVisible } from '../dom/visibility.ts';
import type { Run } from './act-context.ts';
import { keyEvent, keySpec, modState } from './keys.ts';

const LIST_SELECTOR = '[role=listbox], [role=menu], [role=grid], [role=tree]';

/** Per field: the lists already visible before text was typed into it (they are not its autocomplete). */
const listsBeforeTyping = new WeakMap<Element, Set<Element>>();

const visibleLists = (doc: Document): Element[] => Array.from(doc.querySelectorAll(LIST_SELECTOR)).filter(isVisible);

/** Called before typing into `field`. */
export function noteListsBeforeTyping(field: Element): void {
  listsBeforeTyping.set(field, new Set(visibleLists(field.ownerDocument)));
}

function namedList(field: Element): Element | null {
  if (field.getAttribute('aria-expanded') !== 'true') return null;
  const root = field.getRootNode() as Document | ShadowRoot;
  const ids = `${field.getAttribute('aria-controls') ?? ''} ${field.getAttribute('aria-owns') ?? ''}`.split(/\s+/).filter(Boolean);
  for (const id of ids) {
    const list = root.getElementById?.(id) ?? field.ownerDocument.getElementById(id);
    if (list !== null && isVisible(list)) return list;
  }
  return null;
}

/** The field's open autocomplete list, or null. */
export function openListOf(field: Element): Element | null {
  const named = namedList(field);
  if (named !== null) return named;
  const before = listsBeforeTyping.get(field);
  if (before === undefined) return null;
  return visibleLists(field.ownerDocument).find((l) => !before.has(l)) ?? null;
}

/** Closes the field's open list with Escape before an Enter: what it did and whether the Enter should follow; null when no list was open. */
export function closeListBeforeEnter(field: Element, run: Run): { note: string; pressEnter: boolean } | null {
  const list = openListOf(field);
  if (list === null) return null;
  // An entry is highlighted: Enter picks it, which is what a person pressing Enter there means.
  if ((field.getAttribute('aria-activedescendant') ?? '') !== '' || list.querySelector('[aria-selected=true]') !== null) {
    return { note: 'Enter went to the highlighted entry of the field\'s autocomplete list', pressEnter: true };
  }
  const escape = keySpec('Escape');
  const none = modState([]);
  const value = (field as HTMLInputElement).value;
  keyEvent(field, run, 'keydown', escape, none);
  keyEvent(field, run, 'keyup', escape, none);
  // Some fields clear themselves on Escape: the text typed is what Enter was to submit.
  if ((field as HTMLInputElement).value !== value) return { note: 'closing its autocomplete list with Escape changed the field, so Enter was not pressed', pressEnter: false };
  const open = list.isConnected && isVisible(list) && field.getAttribute('aria-expanded') !== 'false';
  return { note: open ? 'its autocomplete list stayed open after Escape; it may have taken the Enter' : 'closed the field\'s autocomplete list (Escape) before pressing Enter', pressEnter: true };
}
