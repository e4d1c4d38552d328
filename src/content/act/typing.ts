/**
 * Text entry the way frameworks' controlled inputs need it: per-character
 * keydown/keypress/beforeinput/input/keyup through the native value setter
 * (React's value tracker), then change. Contenteditable editors get
 * execCommand, which fires their own input events.
 */
import { deepActiveElement } from '../dom/focus.ts';
import { ActionFailure, realmOf, tag, type Run } from './act-context.ts';
import { keyEvent, keySpec, modState } from './keys.ts';
import { noteListsBeforeTyping } from './autocomplete.ts';
import { isMultilineField } from '../dom/multiline-field.ts';

/** Longer texts are typed per character up to here, then inserted as one chunk. */
const MAX_PER_CHAR = 256;

const TEXT_INPUT_TYPES = new Set([
  'text', 'search', 'email', 'password', 'tel', 'url', 'number', 'date', 'datetime-local', 'month', 'week', 'time', 'color', 'range',
]);
/** Types whose intermediate values the value sanitizer would reject: set in one chunk. */
const WHOLE_VALUE_TYPES = new Set(['number', 'date', 'datetime-local', 'month', 'week', 'time', 'color', 'range', 'email']);

export const isFormField = (el: Element): el is HTMLInputElement | HTMLTextAreaElement => tag(el) === 'input' || tag(el) === 'textarea';

export function isTextEditable(el: Element): boolean {
  if (tag(el) === 'textarea') return !(el as HTMLTextAreaElement).readOnly;
  if (tag(el) === 'input') return TEXT_INPUT_TYPES.has((el as HTMLInputElement).type) && !(el as HTMLInputElement).readOnly;
  return (el as HTMLElement).isContentEditable === true;
}

/** The element to type into: the target, or the control of a targeted label. */
export function editableTarget(el: Element): HTMLElement {
  const candidate = tag(el) === 'label' ? ((el as HTMLLabelElement).control ?? el) : el;
  if (isFormField(candidate) && candidate.readOnly) throw new ActionFailure('not_editable', `<${tag(candidate)}> is read-only`);
  if (candidate.matches(':disabled')) throw new ActionFailure('disabled', `<${tag(candidate)}> is disabled`);
  if (!isTextEditable(candidate)) {
    const kind = tag(candidate) === 'input' ? `<input type=${(candidate as HTMLInputElement).type}>` : `<${tag(candidate)}>`;
    const hint = tag(candidate) === 'select' ? '; use select_option' : '';
    throw new ActionFailure('not_editable', `${kind} does not take typed text${hint}`);
  }
  return candidate as HTMLElement;
}

export function currentText(el: Element): string {
  return isFormField(el) ? el.value : ((el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\n$/, '');
}

/** The native value setter of the element's class, bypassing any instance-level override (React's value tracker). */
export function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  let proto: object | null = Object.getPrototypeOf(el);
  while (proto) {
    const desc = Object.getOwnPropertyDescriptor(proto, 'value');
    if (desc?.set) {
      desc.set.call(el, value);
      return;
    }
    proto = Object.getPrototypeOf(proto);
  }
  el.value = value;
}

export function inputEvent(el: Element, run: Run, type: 'beforeinput' | 'input', inputType: string, data: string | null): boolean {
  const R = realmOf(el, run.win);
  return el.dispatchEvent(
    new R.InputEvent(type, { inputType, data, bubbles: true, cancelable: type === 'beforeinput', composed: true, isComposing: false }),
  );
}

export function plainEvent(el: Element, run: Run, type: string): void {
  const R = realmOf(el, run.win);
  el.dispatchEvent(new R.Event(type, { bubbles: true }));
}

function selection(el: HTMLInputElement | HTMLTextAreaElement): [number, number] {
  try {
    const s = el.selectionStart;
    const e = el.selectionEnd;
    if (s !== null && e !== null) return [s, e];
  } catch {
    // email/number inputs have no selection API
  }
  return [el.value.length, el.value.length];
}

function setCaret(el: HTMLInputElement | HTMLTextAreaElement, at: number): void {
  try {
    el.setSelectionRange(at, at);
  } catch {
    // not supported for this input type
  }
}

/** Inserts text at the caret the way typing does: beforeinput, value change, input. */
export function insertText(el: Element, text: string, run: Run, inputType: string): void {
  if (!inputEvent(el, run, 'beforeinput', inputType, text)) return;
  if (isFormField(el)) {
    const [s, e] = selection(el);
    setNativeValue(el, el.value.slice(0, s) + text + el.value.slice(e));
    setCaret(el, s + text.length);
    inputEvent(el, run, 'input', inputType, text);
  } else {
    // execCommand fires beforeinput/input itself; the one above lets editors cancel first.
    const doc = el.ownerDocument;
    if (!doc.execCommand(inputType === 'insertLineBreak' ? 'insertLineBreak' : 'insertText', false, text)) {
      el.append(doc.createTextNode(text));
      inputEvent(el, run, 'input', inputType, text);
    }
  }
}

export function deleteText(el: Element, direction: -1 | 1, run: Run): void {
  const inputType = direction < 0 ? 'deleteContentBackward' : 'deleteContentForward';
  if (!inputEvent(el, run, 'beforeinput', inputType, null)) return;
  if (isFormField(el)) {
    let [s, e] = selection(el);
    if (s === e) {
      if (direction < 0) s = Math.max(0, s - 1);
      else e = Math.min(el.value.length, e + 1);
    }
    setNativeValue(el, el.value.slice(0, s) + el.value.slice(e));
    setCaret(el, s);
    inputEvent(el, run, 'input', inputType, null);
  } else {
    el.ownerDocument.execCommand(direction < 0 ? 'delete' : 'forwardDelete');
  }
}

/**
 * fill/clear: focus, select everything and delete it, then type `text` with
 * keydown/keypress/beforeinput/input/keyup per character, then change.
 */
export function typeInto(el: HTMLElement, text: string, run: Run): void {
  noteListsBeforeTyping(el);
  if (deepActiveElement(el.ownerDocument) !== el) el.focus();
  const before = currentText(el);
  if (before !== '') {
    if (isFormField(el)) {
      try {
        el.select();
      } catch {
        // no selection API for this type
      }
      if (inputEvent(el, run, 'beforeinput', 'deleteContentBackward', null)) {
        setNativeValue(el, '');
        inputEvent(el, run, 'input', 'deleteContentBackward', null);
      }
    } else {
      el.ownerDocument.getSelection()?.selectAllChildren(el);
      if (!el.ownerDocument.execCommand('delete')) {
        el.textContent = '';
        inputEvent(el, run, 'input', 'deleteContentBackward', null);
      }
    }
  }
  typeChars(el, text, run);
  if (isFormField(el) && el.value !== before) plainEvent(el, run, 'change');
}

/**
 * A change to the text a field holds (text-change.ts): the caret goes where
 * the edit sits, the replaced span is deleted, and only the new text is typed,
 * as a person editing the field would. Editors other than form fields have
 * their whole new value typed.
 */
export function typeEdit(el: HTMLElement, edit: { value: string; at: number; removed: number; inserted: string }, run: Run): void {
  if (!isFormField(el)) return typeInto(el, edit.value, run);
  noteListsBeforeTyping(el);
  if (deepActiveElement(el.ownerDocument) !== el) el.focus();
  const before = el.value;
  try {
    el.setSelectionRange(edit.at, edit.at + edit.removed);
  } catch {
    // an input type without a selection API cannot be edited in place
    return typeInto(el, edit.value, run);
  }
  if (edit.removed > 0) deleteText(el, -1, run);
  typeChars(el, edit.inserted, run);
  if (el.value !== before) plainEvent(el, run, 'change');
}

/** One character as a key: keydown, keypress, the text (unless the page cancelled), keyup. */
function typeKey(el: HTMLElement, ch: string, run: Run): void {
  const key = ch === '\n' ? 'Enter' : ch;
  const spec = keySpec(key);
  const mods = modState(/^[A-Z]$/.test(ch) ? ['Shift'] : []);
  let proceed = keyEvent(el, run, 'keydown', spec, mods);
  if (proceed) proceed = keyEvent(el, run, 'keypress', spec, mods);
  if (proceed) insertText(el, ch, run, ch === '\n' ? 'insertLineBreak' : 'insertText');
  keyEvent(el, run, 'keyup', spec, mods);
}

/** Types `text` at the caret: per character up to MAX_PER_CHAR, the rest as one chunk. */
function typeChars(el: HTMLElement, text: string, run: Run): void {
  const whole = tag(el) === 'input' && WHOLE_VALUE_TYPES.has((el as HTMLInputElement).type);
  const chars = Array.from(text);
  const perChar = whole ? [] : chars.slice(0, MAX_PER_CHAR);
  const lines = isMultilineField(el);
  for (const ch of perChar) {
    // A line break in a field of lines is text, not an Enter a page's handler could read as "send".
    if (ch === '\n' && lines) insertText(el, ch, run, 'insertLineBreak');
    else typeKey(el, ch, run);
    if (run.navigated) throw new ActionFailure('navigated', 'the page navigated away while the text was being typed');
  }
  const rest = chars.slice(perChar.length).join('');
  if (rest) {
    if (whole && isFormField(el)) {
      if (inputEvent(el, run, 'beforeinput', 'insertReplacementText', rest)) {
        setNativeValue(el, rest);
        inputEvent(el, run, 'input', 'insertReplacementText', rest);
      }
    } else insertText(el, rest, run, 'insertFromPaste');
  }
}

