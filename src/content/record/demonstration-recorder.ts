/**
 * Records what a person does on the page, as semantic actions, while a
 * demonstration is being recorded. Listens in the capture phase (before the
 * page's own handlers change anything) and names every element through the
 * page agent's snapshot, so a recorded `click(<button "Sign up">)` is exactly
 * what the agent would write for the same button.
 *
 *   click on an interactive element   → click
 *   select changed                     → select_option with the option's label
 *   checkbox / radio changed           → check / uncheck
 *   text typed, settled on change/blur → one fill with the final text
 *   Enter in a single-line field       → press "Enter"
 *   form submitted with no click/Enter → click on its submitter
 *
 * A secret field's text (a password, one-time code or card field, by type and
 * autocomplete: core/secrets) is never recorded: its fill carries the mask;
 * a secret known by its name only is masked by the core (recordedStep).
 * What no action can express (a file upload, a right click, a drag and drop,
 * a click on a pointer-styled element the snapshot has no line for) is
 * reported through `onUnrecordable`, never guessed at.
 */
import type { Action, RefTarget } from '../../core/page/action.ts';
import type { PageObservation } from '../../core/page/observation.ts';
import { formatAction } from '../../core/page/action-grammar.ts';
import { toSemanticAction } from '../../core/page/semantic-action.ts';
import { secretKindOf } from '../../core/secrets/secret-fields.ts';
import { maskOf } from '../../core/secrets/secret-kinds.ts';

export interface RecordedStep {
  action: string;
  url: string;
  title: string;
}

export interface DemonstrationRecorderOptions {
  win: Window;
  /** The snapshot line standing for an element (the page agent's `locate`). */
  locate(el: Element): { observation: PageObservation; ref: string } | null;
  /** Sends one step to the background; rejects when the background refused it. */
  send(step: RecordedStep): Promise<void>;
  /** A send failed (for the console; the background may have ended the recording). */
  onSendError?(err: unknown): void;
  /**
   * The person did something no action can express (a file upload, a right
   * click, a drag and drop, a click on something the snapshot cannot name):
   * what, in a few words. A demonstration skips it; Show me ends with it.
   */
  onUnrecordable?(what: string): void;
}

export interface DemonstrationRecorder {
  readonly recording: boolean;
  /** Starts listening (idempotent). */
  start(): void;
  /** Sends what is still pending, waits for every send, then stops listening. */
  stop(): Promise<void>;
}

/** Input types whose value a person types: recorded as one fill. */
const TEXT_TYPES = new Set([
  'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'week', 'time',
]);
/** Input types that act like buttons: recorded as clicks. */
const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);

const isElement = (n: unknown): n is Element => typeof n === 'object' && n !== null && (n as Node).nodeType === 1;
const tagOf = (el: Element): string => el.localName;
const inputType = (el: Element): string => (el.getAttribute('type') ?? 'text').toLowerCase();

function isTextField(el: Element): boolean {
  const tag = tagOf(el);
  if (tag === 'textarea') return true;
  if (tag === 'input') return TEXT_TYPES.has(inputType(el));
  return (el as HTMLElement).isContentEditable === true;
}

/** The editing host of a contenteditable region (its outermost editable element). */
function textFieldOf(el: Element): Element | null {
  if (tagOf(el) === 'input' || tagOf(el) === 'textarea') return isTextField(el) ? el : null;
  if ((el as HTMLElement).isContentEditable !== true) return null;
  let host = el;
  while (host.parentElement && host.parentElement.isContentEditable) host = host.parentElement;
  return host;
}

const isToggle = (el: Element): boolean => tagOf(el) === 'input' && (inputType(el) === 'checkbox' || inputType(el) === 'radio');

/** Native controls whose clicks say nothing by themselves: their change or typed text is recorded instead. */
function recordedOtherwise(el: Element): boolean {
  for (let cur: Element | null = el; cur; cur = cur.parentElement) {
    const tag = tagOf(cur);
    if (tag === 'select' || tag === 'textarea' || tag === 'option') return true;
    if (tag === 'input') return !BUTTON_TYPES.has(inputType(cur));
  }
  return (el as HTMLElement).isContentEditable === true;
}

function textOf(el: Element): string {
  const tag = tagOf(el);
  if (tag === 'input' || tag === 'textarea') return (el as HTMLInputElement).value;
  return (el as HTMLElement).innerText;
}

const optionLabel = (o: HTMLOptionElement): string => (o.label || o.text).replace(/\s+/g, ' ').trim();

/** The element the event happened on, through open shadow roots. */
function eventTarget(e: Event): Element | null {
  const first = e.composedPath()[0];
  return isElement(first) ? first : isElement(e.target) ? e.target : null;
}

export function createDemonstrationRecorder(options: DemonstrationRecorderOptions): DemonstrationRecorder {
  const { win } = options;
  let controller: AbortController | null = null;
  /** Text fields typed in since their last recorded fill. */
  const pending = new Set<Element>();
  /** The last text / state recorded per element, so repeated events record once. */
  const recorded = new WeakMap<Element, string>();
  const inflight = new Set<Promise<void>>();
  /** A click or Enter was recorded in this task: the submit it causes is not a second action. */
  let triggered = false;

  const emit = (el: Element, build: (target: RefTarget) => Action): boolean => {
    const located = options.locate(el);
    if (!located) return false;
    const action = build({ kind: 'ref', ref: located.ref });
    const step = { action: formatAction(toSemanticAction(action, located.observation)), url: win.location.href, title: win.document.title };
    // Sent at once, not chained behind earlier replies: a click that navigates must leave before the page does.
    const sending = options.send(step).catch((err: unknown) => {
      options.onSendError?.(err);
      if (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'NotRecordingError') detach();
    });
    inflight.add(sending);
    void sending.finally(() => inflight.delete(sending));
    return true;
  };

  const markTriggered = () => {
    triggered = true;
    win.setTimeout(() => { triggered = false; }, 0);
  };

  const flushField = (el: Element) => {
    if (!pending.delete(el)) return;
    const value = textOf(el);
    if (recorded.get(el) === value) return;
    const secret = tagOf(el) === 'input' ? secretKindOf({ role: 'textbox', name: '', inputType: inputType(el), autocomplete: el.getAttribute('autocomplete') ?? undefined }) : null;
    if (emit(el, (target) => ({ type: 'fill', target, text: secret !== null && value !== '' ? maskOf(secret) : value }))) recorded.set(el, value);
  };
  const flushAll = () => {
    for (const el of [...pending]) if (el.isConnected) flushField(el); else pending.delete(el);
  };

  // Only what the person did counts: events a page script dispatched (isTrusted false) are not recorded.
  const onInput = (e: Event) => {
    if (!e.isTrusted) return;
    const el = eventTarget(e);
    if (!el) return;
    const field = textFieldOf(el);
    if (field) {
      pending.add(field);
      return;
    }
    onChoice(el);
  };

  const onChange = (e: Event) => {
    if (!e.isTrusted) return;
    const el = eventTarget(e);
    if (!el) return;
    const field = textFieldOf(el);
    if (field) {
      pending.add(field);
      flushField(field);
      return;
    }
    onChoice(el);
  };

  /** A select, checkbox or radio changed ('input' and 'change' both come; the state is recorded once). */
  const onChoice = (el: Element) => {
    const tag = tagOf(el);
    if (tag === 'select') {
      const select = el as HTMLSelectElement;
      const chosen = Array.from(select.selectedOptions, optionLabel);
      const state = chosen.join('\n');
      if (chosen.length === 0 || recorded.get(el) === state) return;
      flushAll();
      if (emit(el, (target) => ({ type: 'select_option', target, option: chosen[chosen.length - 1]! }))) recorded.set(el, state);
      return;
    }
    if (!isToggle(el)) return;
    const input = el as HTMLInputElement;
    const state = input.checked ? 'checked' : 'unchecked';
    if (recorded.get(el) === state) return;
    if (inputType(el) === 'radio' && !input.checked) return; // the group's newly checked radio is the action
    flushAll();
    if (!emit(el, (target) => ({ type: input.checked ? 'check' : 'uncheck', target }))) return;
    recorded.set(el, state);
    if (inputType(el) === 'radio' && input.name) {
      // The others in the group are unchecked now: choosing one of them again is a new action.
      const scope = input.form ?? input.getRootNode();
      for (const other of (scope as ParentNode).querySelectorAll('input[type="radio"]')) {
        if (other !== el && (other as HTMLInputElement).name === input.name) recorded.delete(other);
      }
    }
  };

  const unrecordable = (what: string) => options.onUnrecordable?.(what);

  const onClick = (e: MouseEvent) => {
    if (!e.isTrusted) return; // a page script clicking is not the person
    const el = eventTarget(e);
    if (!el || recordedOtherwise(el)) {
      if (el && tagOf(el) === 'input' && inputType(el) === 'file') unrecordable('a file upload');
      return;
    }
    flushAll();
    if (emit(el, (target) => ({ type: 'click', target }))) markTriggered();
    // A pointer cursor says the page treats it as clickable, yet no snapshot line names it.
    else if (looksClickable(el)) unrecordable(`a click on a <${tagOf(el)}> that is not a control Apprentice can name`);
  };

  const looksClickable = (el: Element): boolean => {
    try {
      return win.getComputedStyle(el).cursor === 'pointer';
    } catch {
      return false;
    }
  };
  const onContextMenu = (e: MouseEvent) => {
    if (e.isTrusted) unrecordable('a right click');
  };
  const onDrop = (e: DragEvent) => {
    if (e.isTrusted) unrecordable('a drag and drop');
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (!e.isTrusted || e.key !== 'Enter' || e.isComposing || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) return;
    const el = eventTarget(e);
    if (!el || tagOf(el) !== 'input' || !isTextField(el)) return; // Enter in a textarea or an editor is a new line
    pending.add(el);
    flushAll();
    if (emit(el, (target) => ({ type: 'press', target, keys: 'Enter' }))) markTriggered();
  };

  const onFocusOut = (e: Event) => {
    const el = eventTarget(e);
    const field = el ? textFieldOf(el) : null;
    if (field) flushField(field);
  };

  const onSubmit = (e: SubmitEvent) => {
    if (!e.isTrusted) return;
    flushAll();
    if (triggered) return;
    const submitter = e.submitter;
    if (submitter && emit(submitter, (target) => ({ type: 'click', target }))) markTriggered();
  };

  function detach() {
    controller?.abort();
    controller = null;
    pending.clear();
  }

  return {
    get recording() {
      return controller !== null;
    },
    start() {
      if (controller) return;
      controller = new AbortController();
      const opts = { capture: true, signal: controller.signal };
      win.addEventListener('click', onClick, opts);
      win.addEventListener('input', onInput, opts);
      win.addEventListener('change', onChange, opts);
      win.addEventListener('keydown', onKeyDown, opts);
      win.addEventListener('focusout', onFocusOut, opts);
      win.addEventListener('submit', onSubmit as EventListener, opts);
      win.addEventListener('pagehide', flushAll, opts);
      win.addEventListener('contextmenu', onContextMenu, opts);
      win.addEventListener('drop', onDrop as EventListener, opts);
    },
    async stop() {
      if (controller) flushAll();
      detach();
      await Promise.allSettled([...inflight]);
    },
  };
}
