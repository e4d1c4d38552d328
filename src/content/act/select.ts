/**
 * Choosing: native <select>, ARIA listbox/combobox, and custom dropdowns —
 * a trigger that opens a list (often over a hidden native select) — operated
 * the way a person does: open it, then click the visible option with that
 * text. Checking: checkboxes, radios and switches, or a label that toggles a
 * hidden one, clicked and then verified.
 */
import { isVisible } from '../dom/visibility.ts';
import { ActionFailure, SETTLE_MS, sleep, tag, type Run } from './act-context.ts';
import { clickSequence } from './pointer.ts';
import { inputEvent, plainEvent, setNativeValue } from './typing.ts';

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function optionLabel(o: HTMLOptionElement): string {
  return (o.label || o.text).replace(/\s+/g, ' ').trim();
}

export async function selectOption(el: Element, option: string, run: Run): Promise<string | undefined> {
  if (tag(el) === 'select') return selectNative(el as HTMLSelectElement, option, run);
  const role = el.getAttribute('role');
  if (role === 'listbox' || role === 'combobox') {
    let pick = findAriaOption(el, option);
    if ((!pick || !isVisible(pick)) && role === 'combobox') {
      // The options of a closed combobox show (or are created) once it is opened.
      clickSequence(el, run, 1);
      await sleep(run.win, SETTLE_MS);
      pick = findAriaOption(el, option) ?? findVisibleOption(el, option);
    }
    if (!pick) throw new ActionFailure('not_selectable', `no option ${JSON.stringify(option)} in this ${role}`);
    if (!isVisible(pick)) throw new ActionFailure('not_visible', `option ${JSON.stringify(option)} is not visible`);
    if (pick.getAttribute('aria-disabled') === 'true') throw new ActionFailure('disabled', `option ${JSON.stringify(option)} is disabled`);
    clickSequence(pick, run, 1);
    await sleep(run.win, SETTLE_MS);
    return undefined;
  }
  if (!isDropdownTrigger(el)) throw new ActionFailure('invalid_action', `<${tag(el)}> is not a select, listbox or combobox`);
  // A custom dropdown: open it like a person, then pick the option by its text.
  clickSequence(el, run, 1);
  await sleep(run.win, SETTLE_MS);
  if (run.navigated) throw new ActionFailure('navigated', 'the page navigated when the dropdown was opened');
  const pick = findVisibleOption(el, option);
  if (!pick) throw new ActionFailure('not_selectable', `<${tag(el)}> opened no visible option ${JSON.stringify(option)}`);
  clickSequence(pick, run, 1);
  await sleep(run.win, SETTLE_MS);
  return undefined;
}

/** A custom dropdown's trigger: it says it opens a popup, or it stands over a hidden native <select>. */
function isDropdownTrigger(el: Element): boolean {
  if (el.hasAttribute('aria-haspopup') || el.hasAttribute('aria-expanded')) return true;
  const scope = el.parentElement;
  if (scope === null) return false;
  return Array.from(scope.querySelectorAll('select')).some((sel) => (sel.parentElement === scope || sel.parentElement === el) && !isVisible(sel));
}

function selectNative(select: HTMLSelectElement, option: string, run: Run): string | undefined {
  const options = Array.from(select.options);
  const found =
    options.find((o) => optionLabel(o) === option.trim()) ??
    options.find((o) => o.value === option) ??
    options.find((o) => norm(optionLabel(o)) === norm(option));
  if (!found) {
    const labels = options.slice(0, 12).map((o) => JSON.stringify(optionLabel(o))).join(', ');
    throw new ActionFailure('not_selectable', `no option ${JSON.stringify(option)}; options are ${labels}${options.length > 12 ? ', …' : ''}`);
  }
  if (found.disabled || found.matches(':disabled')) throw new ActionFailure('disabled', `option ${JSON.stringify(optionLabel(found))} is disabled`);
  if (select.multiple) found.selected = true;
  else if (options.filter((o) => o.value === found.value).length === 1) setNativeValue(select, found.value);
  else found.selected = true;
  inputEvent(select, run, 'input', 'insertReplacementText', null);
  plainEvent(select, run, 'change');
  return undefined;
}

function findAriaOption(el: Element, option: string): Element | null {
  const doc = el.ownerDocument;
  const scopes: ParentNode[] = [el];
  for (const attr of ['aria-controls', 'aria-owns']) {
    for (const id of (el.getAttribute(attr) ?? '').split(/\s+/).filter(Boolean)) {
      const owned = doc.getElementById(id);
      if (owned) scopes.push(owned);
    }
  }
  const want = norm(option);
  for (const scope of scopes) {
    for (const o of Array.from(scope.querySelectorAll('[role=option]'))) {
      const label = o.getAttribute('aria-label') ?? o.textContent ?? '';
      if (norm(label) === want || o.getAttribute('data-value') === option) return o;
    }
  }
  return null;
}

/** List-item-like elements a custom dropdown renders its options as. */
const OPTION_LIKE = '[role=option], [role=menuitem], [role=menuitemradio], li, [data-value], button, a, div, span';

/**
 * The visible element showing exactly `option`, nearest to the trigger in the
 * document (a custom list opens next to its trigger or in a portal at the end
 * of the body). The innermost match wins, so a wrapper with the same text is
 * not chosen over the option itself.
 */
function findVisibleOption(trigger: Element, option: string): Element | null {
  const want = norm(option);
  const doc = trigger.ownerDocument;
  let scope: Element | null = trigger.parentElement;
  for (let i = 0; scope !== null && i < 6; i++, scope = scope.parentElement) {
    const hit = matchIn(scope, trigger, want);
    if (hit) return hit;
  }
  return doc.body ? matchIn(doc.body, trigger, want) : null;
}

function matchIn(scope: Element, trigger: Element, want: string): Element | null {
  let best: Element | null = null;
  for (const o of Array.from(scope.querySelectorAll(OPTION_LIKE))) {
    if (o === trigger || trigger.contains(o) || o.closest('select')) continue;
    const text = norm(o.getAttribute('aria-label') ?? o.textContent ?? '');
    if (text !== want && o.getAttribute('data-value') !== want) continue;
    if (!isVisible(o)) continue;
    if (best === null || best.contains(o)) best = o;
  }
  return best;
}

const CHECKABLE_ROLES = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio']);

function checkedState(el: Element): boolean | null {
  if (tag(el) === 'input' && ['checkbox', 'radio'].includes((el as HTMLInputElement).type)) return (el as HTMLInputElement).checked;
  const role = el.getAttribute('role');
  if (role && CHECKABLE_ROLES.has(role)) return el.getAttribute('aria-checked') === 'true';
  return null;
}

export async function setChecked(target: Element, want: boolean, run: Run): Promise<string | undefined> {
  const isLabel = tag(target) === 'label';
  const el = isLabel ? ((target as HTMLLabelElement).control ?? target) : target;
  const state = checkedState(el);
  if (state === null) throw new ActionFailure('invalid_action', `<${tag(el)}> is not a checkbox, radio or switch`);
  if (el.matches(':disabled')) throw new ActionFailure('disabled', `<${tag(el)}> is disabled`);
  if (state === want) return `already ${want ? 'checked' : 'unchecked'}`;
  const isRadio = (el as HTMLInputElement).type === 'radio' || el.getAttribute('role') === 'radio' || el.getAttribute('role') === 'menuitemradio';
  if (!want && isRadio) throw new ActionFailure('invalid_action', 'a radio button cannot be unchecked; choose another option instead');
  // A person clicks what they see: the label when the box itself is hidden.
  clickSequence(isLabel && !isVisible(el) ? target : el, run, 1);
  await sleep(run.win, SETTLE_MS);
  if (run.navigated) return undefined;
  if (checkedState(el) !== want) throw new ActionFailure('invalid_action', `clicking did not ${want ? 'check' : 'uncheck'} the element`);
  return undefined;
}
