/**
 * A widget wrapping a native control is one control: a `role=tab`,
 * `menuitem`, `option` or `treeitem` whose content is a single link or
 * button of the same name (`<li role="tab"><a href="…">Notifications</a></li>`)
 * is what a person clicks once. The snapshot gives it one line, with the
 * widget's role and state and the native control's ref and link, so the
 * click lands on the link and the act-time check finds no "other control
 * inside".
 */
const WRAPPER_ROLES: ReadonlySet<string> = new Set(['tab', 'menuitem', 'menuitemradio', 'menuitemcheckbox', 'option', 'treeitem']);
const NATIVE = 'a[href], button, input[type=button], input[type=submit]';

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The single native link or button that stands for the widget, or null when there is none or more than one. */
export function wrappedNativeControl(el: Element, role: string, name: string): HTMLElement | null {
  if (!WRAPPER_ROLES.has(role) || el.matches(NATIVE)) return null;
  const inner = el.querySelectorAll(NATIVE);
  if (inner.length !== 1) return null;
  const only = inner[0] as HTMLElement;
  const text = collapse(only.innerText ?? only.textContent ?? '');
  const label = only.getAttribute('aria-label');
  return text === collapse(name) || (label !== null && collapse(label) === collapse(name)) ? only : null;
}
