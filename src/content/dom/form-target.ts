/**
 * Where an element leads, read the same way by the observer (what the person
 * is shown and approves) and by the act-time check (what will happen now):
 * a link's href, and the form's action and method — the submitter's
 * formaction/formmethod winning, as the browser does (for a field Enter
 * submits, the submitter is the form's default button). Attributes are read,
 * never `form.action`, which an input named "action" can shadow.
 */

const SUBMITTER = 'button:not([type]), button[type=submit], input[type=submit], input[type=image]';

/** Fields in which Enter submits the form (HTML implicit submission; act/keyboard.ts). */
export const IMPLICIT_SUBMIT_FIELDS = 'input:not([type]), input[type=text], input[type=search], input[type=email], input[type=password], input[type=tel], input[type=url], input[type=number], input[type=date], input[type=time]';

/**
 * The element whose formaction/formmethod decide where the form goes when
 * activated from `el`: el itself when it is a submit button; for a field Enter
 * submits, the form's default button (its first submit button), through which
 * Enter submits — a formaction there is where Enter sends the form.
 */
function submitterFor(el: Element, form: HTMLFormElement): Element | null {
  if (el.matches(SUBMITTER)) return el;
  if (!el.matches(IMPLICIT_SUBMIT_FIELDS)) return null;
  return Array.from(form.elements).find((e) => e.matches(SUBMITTER)) ?? null;
}


export interface FormTarget {
  formAction?: string;
  formMethod?: string;
}

const METHODS = new Set(['get', 'post', 'dialog']);

function absolute(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

/** The form the element belongs to: its `form` owner (the form attribute), else the nearest ancestor form. */
export function formOf(el: Element): HTMLFormElement | null {
  const owner = (el as HTMLInputElement).form;
  if (owner && typeof owner === 'object' && 'elements' in owner) return owner;
  return el.closest('form');
}

/**
 * Whether activating the element submits, as the snapshot reports it
 * (SnapshotNode.submits, fingerprintOf): a button of a form whose type is
 * submit (a button without a type is one), an input of type submit or image.
 * null for other elements (their change behaviour is read at snapshot time).
 */
export function submitsNow(el: Element): boolean | null {
  if (el.localName === 'input') {
    const type = (el as HTMLInputElement).type;
    return type === 'submit' || type === 'image' ? true : type === 'button' || type === 'reset' ? false : null;
  }
  if (el.localName === 'button') return formOf(el) !== null && (el as HTMLButtonElement).type === 'submit';
  return null;
}

export function formTargetOf(el: Element): FormTarget {
  const form = formOf(el);
  if (!form) return {};
  const base = el.ownerDocument.baseURI;
  const submitter = submitterFor(el, form);
  const actionAttr = (submitter?.hasAttribute('formaction') ? submitter.getAttribute('formaction') : null) ?? form.getAttribute('action') ?? '';
  const methodAttr = ((submitter?.hasAttribute('formmethod') ? submitter.getAttribute('formmethod') : null) ?? form.getAttribute('method') ?? 'get').toLowerCase();
  // An empty action submits to the document's own URL.
  return { formAction: absolute(actionAttr.trim() === '' ? el.ownerDocument.URL : actionAttr.trim(), base), formMethod: METHODS.has(methodAttr) ? methodAttr : 'get' };
}

/** The link's absolute href when the element is a link; undefined otherwise. */
export function linkHrefOf(el: Element): string | undefined {
  if (!el.matches('a[href], area[href]')) return undefined;
  return absolute(el.getAttribute('href') ?? '', el.ownerDocument.baseURI);
}
