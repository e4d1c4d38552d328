/**
 * Runs one action in the page as the DOM events real sites listen for: pointer
 * and mouse sequences for clicks, per-character key and input events through
 * the native value setter for typing (what React, Vue and Angular controlled
 * inputs need), emulated default actions for keys (Enter submits, Tab moves
 * focus). Every outcome is a typed ActionResult; nothing throws.
 *
 * Semantic targets are resolved by the caller (core/page/semantic-action.ts)
 * against the latest observation before they reach the page.
 */
import type { Action, ActionErrorCode, ActionResult, Target } from '../../core/page/action.ts';
import type { RefRegistry } from '../observe/ref-registry.ts';

/** Time to let a page react (start a navigation, open a menu) after an action. */
const SETTLE_MS = 40;
/** How long goto/back/forward wait for the navigation to start before reporting. */
const NAVIGATION_WAIT_MS = 600;
/** Longer texts are typed per character up to here, then inserted as one chunk. */
const MAX_PER_CHAR = 256;

class ActionFailure extends Error {
  constructor(readonly code: ActionErrorCode, message: string) {
    super(message);
  }
}

/** Set by the navigation listeners while an action runs. */
interface Run {
  win: Window;
  navigated: boolean;
  startHref: string;
}

type Realm = typeof globalThis;
const realmOf = (el: Element, fallback: Window): Realm => (el.ownerDocument.defaultView ?? fallback) as unknown as Realm;

export async function performAction(action: Action, registry: RefRegistry, win: Window): Promise<ActionResult> {
  if (action.type === 'send_msg_to_user' || action.type === 'report_infeasible') return { ok: true, navigated: false };
  const run: Run = { win, navigated: false, startHref: safeHref(win) };
  let signal: () => void = () => {};
  const navigation = new Promise<void>((resolve) => (signal = resolve));
  const onNavigate = () => {
    run.navigated = true;
    signal();
  };
  const events = ['beforeunload', 'pagehide', 'hashchange', 'popstate'] as const;
  for (const e of events) win.addEventListener(e, onNavigate);
  const nav = navigationApi(win);
  nav?.addEventListener('navigate', onNavigate);
  try {
    const work = execute(action, registry, run);
    // If the navigation wins the race, a late failure of the rest must not surface as an unhandled rejection.
    work.catch(() => {});
    // A navigation that starts mid-action ends this document soon: answer at once.
    const note = await Promise.race([work, navigation.then(() => undefined)]);
    const navigated = run.navigated || safeHref(win) !== run.startHref;
    return note === undefined ? { ok: true, navigated } : { ok: true, navigated, note };
  } catch (err) {
    if (err instanceof ActionFailure) return { ok: false, code: err.code, message: err.message };
    const e = err instanceof Error ? err : new Error(String(err));
    return { ok: false, code: 'invalid_action', message: `${e.name}: ${e.message}` };
  } finally {
    for (const e of events) win.removeEventListener(e, onNavigate);
    nav?.removeEventListener('navigate', onNavigate);
  }
}

function safeHref(win: Window): string {
  try {
    return win.location.href;
  } catch {
    return '';
  }
}

/** The Navigation API (Chromium ≥ 102): its `navigate` event fires synchronously when a navigation starts. */
function navigationApi(win: Window): EventTarget | null {
  const n = (win as unknown as { navigation?: EventTarget }).navigation;
  return n && typeof n.addEventListener === 'function' ? n : null;
}

const sleep = (win: Window, ms: number) => new Promise<void>((r) => win.setTimeout(r, ms));

/** Resolves to an optional note for the ok result; throws ActionFailure. */
async function execute(action: Action, registry: RefRegistry, run: Run): Promise<string | undefined> {
  const { win } = run;
  switch (action.type) {
    case 'click': {
      const el = usable(action.target, registry, run, { enabled: true });
      clickSequence(el, run, 1);
      await sleep(win, SETTLE_MS);
      return undefined;
    }
    case 'dblclick': {
      const el = usable(action.target, registry, run, { enabled: true });
      clickSequence(el, run, 1);
      if (run.navigated) throw new ActionFailure('navigated', 'the page navigated away after the first click of the double click');
      clickSequence(el, run, 2);
      mouse(el, run, 'dblclick', { detail: 2 });
      await sleep(win, SETTLE_MS);
      return undefined;
    }
    case 'hover': {
      const el = usable(action.target, registry, run, {});
      scrollIntoViewIfNeeded(el);
      hoverSequence(el, run);
      await sleep(win, SETTLE_MS);
      return undefined;
    }
    case 'focus': {
      const el = usable(action.target, registry, run, { enabled: true });
      scrollIntoViewIfNeeded(el);
      (el as HTMLElement).focus?.();
      if (deepActiveElement(el.ownerDocument) !== el) throw new ActionFailure('invalid_action', `<${tag(el)}> cannot take focus`);
      return undefined;
    }
    case 'fill':
    case 'clear': {
      const el = editableTarget(usable(action.target, registry, run, { enabled: true }));
      scrollIntoViewIfNeeded(el);
      const text = action.type === 'fill' ? action.text : '';
      typeInto(el, text, run);
      const now = currentText(el);
      return now === text ? undefined : `the field shows ${JSON.stringify(now)} after the page handled the input`;
    }
    case 'select_option':
      return selectOption(usable(action.target, registry, run, { enabled: true }), action.option, run);
    case 'check':
    case 'uncheck':
      return setChecked(usable(action.target, registry, run, { enabled: true }), action.type === 'check', run);
    case 'press': {
      let el: Element;
      if (action.target) {
        el = usable(action.target, registry, run, { enabled: true });
        scrollIntoViewIfNeeded(el);
        if (deepActiveElement(el.ownerDocument) !== el) (el as HTMLElement).focus?.();
      } else {
        el = deepActiveElement(win.document) ?? win.document.body ?? win.document.documentElement;
      }
      const note = pressKeys(el, action.keys, run);
      await sleep(win, SETTLE_MS);
      return note;
    }
    case 'scroll':
      return scrollBy(action.target ? usable(action.target, registry, run, {}) : null, action.dx, action.dy, run);
    case 'goto': {
      let url: URL;
      try {
        url = new URL(action.url, safeHref(win) || undefined);
      } catch {
        throw new ActionFailure('invalid_action', `not a URL: ${JSON.stringify(action.url)}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new ActionFailure('invalid_action', `only http(s) URLs can be opened, not ${url.protocol}`);
      }
      win.location.assign(url.href);
      await sleep(win, NAVIGATION_WAIT_MS);
      return run.navigated ? undefined : 'no navigation started';
    }
    case 'go_back':
    case 'go_forward': {
      if (action.type === 'go_back') win.history.back();
      else win.history.forward();
      await sleep(win, NAVIGATION_WAIT_MS);
      return run.navigated ? undefined : `history did not move (no ${action.type === 'go_back' ? 'earlier' : 'later'} page?)`;
    }
    case 'send_msg_to_user':
    case 'report_infeasible':
      return undefined;
  }
}

// ---------------------------------------------------------------------------
// Targets and checks

function usable(target: Target, registry: RefRegistry, run: Run, need: { enabled?: boolean }): Element {
  if (target.kind === 'semantic') {
    throw new ActionFailure('unresolved', `semantic target <${target.role} ${JSON.stringify(target.name)}> must be resolved to a ref before acting`);
  }
  const el = registry.elementFor(target.ref);
  if (!el || !el.isConnected) throw new ActionFailure('element_gone', `[${target.ref}] is no longer on the page; observe again`);
  if (!isVisible(el, run.win)) throw new ActionFailure('not_visible', `[${target.ref}] <${tag(el)}> is not visible`);
  if (need.enabled && isDisabled(el)) throw new ActionFailure('disabled', `[${target.ref}] <${tag(el)}> is disabled`);
  return el;
}

const tag = (el: Element) => el.tagName.toLowerCase();

function isVisible(el: Element, win: Window): boolean {
  const rects = el.getClientRects();
  if (rects.length === 0) return false;
  let area = 0;
  for (const r of rects) area += r.width * r.height;
  if (area === 0) return false;
  const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
  if (typeof check === 'function') {
    return check.call(el, { visibilityProperty: true, checkVisibilityCSS: true });
  }
  const style = (el.ownerDocument.defaultView ?? win).getComputedStyle(el);
  return style.visibility !== 'hidden' && style.visibility !== 'collapse';
}

function isDisabled(el: Element): boolean {
  if (el.matches(':disabled')) return true;
  return el.closest('[aria-disabled="true"]') !== null;
}

function scrollIntoViewIfNeeded(el: Element): void {
  const view = el.ownerDocument.defaultView;
  if (!view) return;
  const r = el.getBoundingClientRect();
  const inside = r.bottom > 0 && r.right > 0 && r.top < view.innerHeight && r.left < view.innerWidth;
  if (!inside) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

/** The focused element, descending into open shadow roots and same-origin frames. */
function deepActiveElement(doc: Document): Element | null {
  let active: Element | null = doc.activeElement;
  for (;;) {
    if (!active) return null;
    const inner = active.shadowRoot?.activeElement;
    if (inner) {
      active = inner;
      continue;
    }
    if (active instanceof (realmOf(active, doc.defaultView!).HTMLIFrameElement)) {
      let child: Document | null = null;
      try {
        child = (active as HTMLIFrameElement).contentDocument;
      } catch {
        child = null;
      }
      if (child?.activeElement && child.activeElement !== child.body) {
        active = child.activeElement;
        continue;
      }
    }
    return active;
  }
}

// ---------------------------------------------------------------------------
// Pointer and mouse

function centre(el: Element): { clientX: number; clientY: number } {
  const r = el.getBoundingClientRect();
  return { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 };
}

function mouse(el: Element, run: Run, type: string, extra: MouseEventInit = {}): boolean {
  const R = realmOf(el, run.win);
  const bubbles = type !== 'mouseenter' && type !== 'mouseleave';
  const init: MouseEventInit = {
    bubbles, cancelable: bubbles, composed: true, view: el.ownerDocument.defaultView, button: 0, ...centre(el), ...extra,
  };
  return el.dispatchEvent(new R.MouseEvent(type, init));
}

function pointer(el: Element, run: Run, type: string, extra: PointerEventInit = {}): boolean {
  const R = realmOf(el, run.win);
  const bubbles = type !== 'pointerenter' && type !== 'pointerleave';
  const init: PointerEventInit = {
    bubbles, cancelable: bubbles, composed: true, view: el.ownerDocument.defaultView,
    pointerId: 1, pointerType: 'mouse', isPrimary: true, width: 1, height: 1, button: 0, ...centre(el), ...extra,
  };
  // Older engines without PointerEvent still get the mouse events.
  return typeof R.PointerEvent === 'function' ? el.dispatchEvent(new R.PointerEvent(type, init)) : true;
}

function hoverSequence(el: Element, run: Run): void {
  pointer(el, run, 'pointerover', { button: -1, buttons: 0 });
  pointer(el, run, 'pointerenter', { button: -1, buttons: 0 });
  mouse(el, run, 'mouseover', { buttons: 0 });
  mouse(el, run, 'mouseenter', { buttons: 0 });
  pointer(el, run, 'pointermove', { button: -1, buttons: 0 });
  mouse(el, run, 'mousemove', { buttons: 0 });
}

/**
 * One click as a mouse produces it. A synthetic mousedown has no default
 * action, so focus is moved here unless the page cancelled the mousedown.
 */
function clickSequence(el: Element, run: Run, detail: number): void {
  scrollIntoViewIfNeeded(el);
  if (detail === 1) hoverSequence(el, run);
  const downOk = pointer(el, run, 'pointerdown', { buttons: 1 }) && mouse(el, run, 'mousedown', { buttons: 1, detail });
  if (downOk) focusForClick(el);
  pointer(el, run, 'pointerup', { buttons: 0 });
  mouse(el, run, 'mouseup', { buttons: 0, detail });
  // Untrusted click events still run activation behaviour: links follow,
  // checkboxes toggle, submit buttons submit.
  mouse(el, run, 'click', { buttons: 0, detail });
}

function focusForClick(el: Element): void {
  const h = el as HTMLElement;
  // The nearest focusable ancestor receives focus, as with a real click.
  const focusable = h.closest?.('a[href], button, input, select, textarea, [tabindex], [contenteditable=""], [contenteditable="true"]') as HTMLElement | null;
  const t = focusable ?? null;
  if (t && deepActiveElement(el.ownerDocument) !== t) t.focus({ preventScroll: true });
}

// ---------------------------------------------------------------------------
// Keyboard

const MODIFIERS = ['Control', 'Shift', 'Alt', 'Meta'] as const;
type Modifier = (typeof MODIFIERS)[number];

const KEY_ALIASES: Record<string, string> = {
  ctrl: 'Control', control: 'Control', controlormeta: 'Control', shift: 'Shift', alt: 'Alt', option: 'Alt',
  meta: 'Meta', cmd: 'Meta', command: 'Meta', super: 'Meta', win: 'Meta',
  enter: 'Enter', return: 'Enter', tab: 'Tab', esc: 'Escape', escape: 'Escape', space: ' ', spacebar: ' ',
  backspace: 'Backspace', delete: 'Delete', del: 'Delete', insert: 'Insert', home: 'Home', end: 'End',
  pageup: 'PageUp', pagedown: 'PageDown', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight',
  arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', plus: '+',
};
for (let i = 1; i <= 12; i++) KEY_ALIASES[`f${i}`] = `F${i}`;

const KEY_CODES: Record<string, number> = {
  Backspace: 8, Tab: 9, Enter: 13, Shift: 16, Control: 17, Alt: 18, Escape: 27, ' ': 32, PageUp: 33, PageDown: 34,
  End: 35, Home: 36, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Insert: 45, Delete: 46, Meta: 91,
  ';': 186, '=': 187, ',': 188, '-': 189, '.': 190, '/': 191, '`': 192, '[': 219, '\\': 220, ']': 221, "'": 222,
};
for (let i = 1; i <= 12; i++) KEY_CODES[`F${i}`] = 111 + i;

const PUNCT_CODES: Record<string, string> = {
  ' ': 'Space', '-': 'Minus', '=': 'Equal', ',': 'Comma', '.': 'Period', '/': 'Slash', ';': 'Semicolon', "'": 'Quote',
  '[': 'BracketLeft', ']': 'BracketRight', '\\': 'Backslash', '`': 'Backquote',
};

interface KeySpec {
  key: string;
  code: string;
  keyCode: number;
}

function keySpec(key: string): KeySpec {
  if (key.length === 1) {
    const upper = key.toUpperCase();
    if (/[a-z]/i.test(key)) return { key, code: `Key${upper}`, keyCode: upper.charCodeAt(0) };
    if (/[0-9]/.test(key)) return { key, code: `Digit${key}`, keyCode: key.charCodeAt(0) };
    return { key, code: PUNCT_CODES[key] ?? '', keyCode: KEY_CODES[key] ?? 0 };
  }
  const isModifier = (MODIFIERS as readonly string[]).includes(key);
  return { key, code: isModifier ? `${key}Left` : key, keyCode: KEY_CODES[key] ?? 0 };
}

/** "Control+Shift+k" → modifiers and the main key; "+" and "Control++" work. */
export function parseChord(keys: string): { modifiers: Modifier[]; key: string } {
  const trimmed = keys.trim();
  const parts = trimmed === '+' ? ['+'] : trimmed.endsWith('++') ? [...trimmed.slice(0, -2).split('+'), '+'] : trimmed.split('+');
  const names = parts.map((p) => {
    if (p.length === 1) return p;
    const alias = KEY_ALIASES[p.toLowerCase()];
    if (alias) return alias;
    throw new ActionFailure('invalid_action', `unknown key ${JSON.stringify(p)} in ${JSON.stringify(keys)}`);
  });
  const key = names.pop();
  if (key === undefined || key === '') throw new ActionFailure('invalid_action', `no key in ${JSON.stringify(keys)}`);
  const modifiers: Modifier[] = [];
  for (const m of names) {
    if (!(MODIFIERS as readonly string[]).includes(m)) throw new ActionFailure('invalid_action', `${JSON.stringify(m)} is not a modifier in ${JSON.stringify(keys)}`);
    modifiers.push(m as Modifier);
  }
  // Shift+a types "A", as a keyboard does.
  const shifted = modifiers.includes('Shift') && /^[a-z]$/.test(key) ? key.toUpperCase() : key;
  return { modifiers, key: shifted };
}

interface ModState { ctrlKey: boolean; shiftKey: boolean; altKey: boolean; metaKey: boolean }
const modState = (mods: readonly Modifier[]): ModState => ({
  ctrlKey: mods.includes('Control'), shiftKey: mods.includes('Shift'), altKey: mods.includes('Alt'), metaKey: mods.includes('Meta'),
});

function keyEvent(el: Element, run: Run, type: 'keydown' | 'keypress' | 'keyup', spec: KeySpec, mods: ModState): boolean {
  const R = realmOf(el, run.win);
  const charCode = type === 'keypress' ? (spec.key === 'Enter' ? 13 : spec.key.charCodeAt(0)) : 0;
  const init = {
    key: spec.key, code: spec.code, location: 0, repeat: false, isComposing: false, bubbles: true, cancelable: true, composed: true,
    view: el.ownerDocument.defaultView, ...mods,
    // Legacy fields many sites still read (Chromium honours them in the init dictionary).
    keyCode: type === 'keypress' ? charCode : spec.keyCode, charCode, which: type === 'keypress' ? charCode : spec.keyCode,
  } as KeyboardEventInit;
  return el.dispatchEvent(new R.KeyboardEvent(type, init));
}

/** A character key produces a keypress only without Control/Meta. */
const producesKeypress = (key: string, mods: ModState) => (key.length === 1 || key === 'Enter') && !mods.ctrlKey && !mods.metaKey;

function pressKeys(el: Element, keys: string, run: Run): string | undefined {
  const { modifiers, key } = parseChord(keys);
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
    moveFocus(el, mods.shiftKey ? -1 : 1, run);
    return undefined;
  }
  if (key === 'Enter' && plain) {
    if (tag(el) === 'textarea' || (editable && !isFormField(el))) {
      insertText(el, '\n', run, 'insertLineBreak');
      return undefined;
    }
    if (tag(el) === 'input') return implicitSubmit(el as HTMLInputElement, run);
    if (isActivatable(el)) {
      mouse(el, run, 'click', { detail: 0 });
      return undefined;
    }
    return undefined;
  }
  if (key === ' ' && plain && !editable && isActivatable(el)) {
    mouse(el, run, 'click', { detail: 0 });
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
    mouse(submitter, run, 'click', { detail: 0 });
    return undefined;
  }
  const blocking = Array.from(form.elements).filter((e) =>
    e.matches('input:not([type]), input[type=text], input[type=search], input[type=email], input[type=password], input[type=tel], input[type=url], input[type=number], input[type=date], input[type=time]'),
  );
  if (blocking.length > 1) return 'Enter did not submit: the form has several fields and no submit button';
  form.requestSubmit();
  return undefined;
}

/** Focusable-by-Tab elements of a document in tab order (positive tabindex first). */
function tabbables(doc: Document, run: Run): HTMLElement[] {
  const all = Array.from(
    doc.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, iframe, [tabindex], [contenteditable=""], [contenteditable="true"]'),
  ).filter((e) => e.tabIndex >= 0 && !e.matches(':disabled, input[type=hidden], [inert] *') && isVisible(e, run.win));
  const positive = all.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  return [...positive, ...all.filter((e) => e.tabIndex === 0)];
}

function moveFocus(from: Element, step: 1 | -1, run: Run): void {
  const list = tabbables(from.ownerDocument, run);
  if (list.length === 0) return;
  const at = list.indexOf(from as HTMLElement);
  const next = at < 0 ? (step === 1 ? list[0] : list[list.length - 1]) : list[(at + step + list.length) % list.length];
  next?.focus();
}

// ---------------------------------------------------------------------------
// Text entry

const TEXT_INPUT_TYPES = new Set([
  'text', 'search', 'email', 'password', 'tel', 'url', 'number', 'date', 'datetime-local', 'month', 'week', 'time', 'color', 'range',
]);
/** Types whose intermediate values the value sanitizer would reject: set in one chunk. */
const WHOLE_VALUE_TYPES = new Set(['number', 'date', 'datetime-local', 'month', 'week', 'time', 'color', 'range', 'email']);

const isFormField = (el: Element): el is HTMLInputElement | HTMLTextAreaElement => tag(el) === 'input' || tag(el) === 'textarea';

function isTextEditable(el: Element): boolean {
  if (tag(el) === 'textarea') return !(el as HTMLTextAreaElement).readOnly;
  if (tag(el) === 'input') return TEXT_INPUT_TYPES.has((el as HTMLInputElement).type) && !(el as HTMLInputElement).readOnly;
  return (el as HTMLElement).isContentEditable === true;
}

/** The element to type into: the target, or the control of a targeted label. */
function editableTarget(el: Element): HTMLElement {
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

function currentText(el: Element): string {
  return isFormField(el) ? el.value : ((el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\n$/, '');
}

/** The native value setter of the element's class, bypassing any instance-level override (React's value tracker). */
function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
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

function inputEvent(el: Element, run: Run, type: 'beforeinput' | 'input', inputType: string, data: string | null): boolean {
  const R = realmOf(el, run.win);
  return el.dispatchEvent(
    new R.InputEvent(type, { inputType, data, bubbles: true, cancelable: type === 'beforeinput', composed: true, isComposing: false }),
  );
}

function plainEvent(el: Element, run: Run, type: string): void {
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
function insertText(el: Element, text: string, run: Run, inputType: string): void {
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

function deleteText(el: Element, direction: -1 | 1, run: Run): void {
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
function typeInto(el: HTMLElement, text: string, run: Run): void {
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
  const whole = tag(el) === 'input' && WHOLE_VALUE_TYPES.has((el as HTMLInputElement).type);
  const chars = Array.from(text);
  const perChar = whole ? [] : chars.slice(0, MAX_PER_CHAR);
  for (const ch of perChar) {
    const key = ch === '\n' ? 'Enter' : ch;
    const spec = keySpec(key);
    const mods = modState(/^[A-Z]$/.test(ch) ? ['Shift'] : []);
    let proceed = keyEvent(el, run, 'keydown', spec, mods);
    if (proceed) proceed = keyEvent(el, run, 'keypress', spec, mods);
    if (proceed) insertText(el, ch, run, ch === '\n' ? 'insertLineBreak' : 'insertText');
    keyEvent(el, run, 'keyup', spec, mods);
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
  if (isFormField(el) && el.value !== before) plainEvent(el, run, 'change');
}

// ---------------------------------------------------------------------------
// Select, check

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function optionLabel(o: HTMLOptionElement): string {
  return (o.label || o.text).replace(/\s+/g, ' ').trim();
}

async function selectOption(el: Element, option: string, run: Run): Promise<string | undefined> {
  if (tag(el) === 'select') {
    const select = el as HTMLSelectElement;
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
  const role = el.getAttribute('role');
  if (role === 'listbox' || role === 'combobox') {
    let pick = findAriaOption(el, option);
    if ((!pick || !isVisible(pick, run.win)) && role === 'combobox') {
      // The options of a closed combobox show (or are created) once it is opened.
      clickSequence(el, run, 1);
      await sleep(run.win, SETTLE_MS);
      pick = findAriaOption(el, option);
    }
    if (!pick) throw new ActionFailure('not_selectable', `no option ${JSON.stringify(option)} in this ${role}`);
    if (!isVisible(pick, run.win)) throw new ActionFailure('not_visible', `option ${JSON.stringify(option)} is not visible`);
    if (pick.getAttribute('aria-disabled') === 'true') throw new ActionFailure('disabled', `option ${JSON.stringify(option)} is disabled`);
    clickSequence(pick, run, 1);
    await sleep(run.win, SETTLE_MS);
    return undefined;
  }
  throw new ActionFailure('invalid_action', `<${tag(el)}> is not a select, listbox or combobox`);
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

const CHECKABLE_ROLES = new Set(['checkbox', 'switch', 'radio', 'menuitemcheckbox', 'menuitemradio']);

function checkedState(el: Element): boolean | null {
  if (tag(el) === 'input' && ['checkbox', 'radio'].includes((el as HTMLInputElement).type)) return (el as HTMLInputElement).checked;
  const role = el.getAttribute('role');
  if (role && CHECKABLE_ROLES.has(role)) return el.getAttribute('aria-checked') === 'true';
  return null;
}

async function setChecked(target: Element, want: boolean, run: Run): Promise<string | undefined> {
  const el = tag(target) === 'label' ? ((target as HTMLLabelElement).control ?? target) : target;
  const state = checkedState(el);
  if (state === null) throw new ActionFailure('invalid_action', `<${tag(el)}> is not a checkbox, radio or switch`);
  if (el.matches(':disabled')) throw new ActionFailure('disabled', `<${tag(el)}> is disabled`);
  if (state === want) return `already ${want ? 'checked' : 'unchecked'}`;
  const isRadio = (el as HTMLInputElement).type === 'radio' || el.getAttribute('role') === 'radio' || el.getAttribute('role') === 'menuitemradio';
  if (!want && isRadio) throw new ActionFailure('invalid_action', 'a radio button cannot be unchecked; choose another option instead');
  clickSequence(el, run, 1);
  await sleep(run.win, SETTLE_MS);
  if (run.navigated) return undefined;
  if (checkedState(el) !== want) throw new ActionFailure('invalid_action', `clicking did not ${want ? 'check' : 'uncheck'} the element`);
  return undefined;
}

// ---------------------------------------------------------------------------
// Scroll

function isScrollable(el: Element): boolean {
  const view = el.ownerDocument.defaultView;
  if (!view) return false;
  const style = view.getComputedStyle(el);
  const canY = /(auto|scroll|overlay)/.test(style.overflowY) && el.scrollHeight > el.clientHeight;
  const canX = /(auto|scroll|overlay)/.test(style.overflowX) && el.scrollWidth > el.clientWidth;
  return canY || canX;
}

function scrollBy(target: Element | null, dx: number, dy: number, run: Run): string | undefined {
  let box: Element | null = target;
  while (box && !isScrollable(box)) box = box.parentElement;
  if (box && box !== box.ownerDocument.documentElement && box !== box.ownerDocument.body) {
    const before = [box.scrollLeft, box.scrollTop];
    box.scrollBy({ left: dx, top: dy, behavior: 'instant' });
    if (box.scrollLeft === before[0] && box.scrollTop === before[1]) return 'the element is already scrolled to its end';
    return undefined;
  }
  const view = target?.ownerDocument.defaultView ?? run.win;
  const before = [view.scrollX, view.scrollY];
  view.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  if (view.scrollX === before[0] && view.scrollY === before[1]) return 'the page did not move (already at its end?)';
  return target && !isScrollable(target) ? 'the element does not scroll; the page scrolled instead' : undefined;
}
