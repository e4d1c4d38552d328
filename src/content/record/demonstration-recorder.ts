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
 * Each step carries the element's fingerprint (step-sender.ts).
 * What no action can express (a file upload, a right click, a drag and drop,
 * a click on a pointer-styled element the snapshot has no line for) is
 * reported through `onUnrecordable`, never guessed at.
 */
import type { PageObservation } from '../../core/page/observation.ts';
import { eventTarget, inputType, isTextField, recordedOtherwise, tagOf, textFieldOf } from './recorded-elements.ts';
import { createStepSender, type RecordedStep } from './step-sender.ts';
import { createValueRecorder } from './value-recorder.ts';
import { createBeforePage } from './before-page.ts';

export type { RecordedStep } from './step-sender.ts';

export interface DemonstrationRecorderOptions {
  win: Window;
  /** The snapshot line standing for an element (the page agent's `locate`). */
  locate(el: Element): { observation: PageObservation; ref: string } | null;
  /** The page as a proposal would observe it: read just before each action, so a step keeps the page it was done on. */
  observe?(): PageObservation;
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

/** The capture-phase listeners: each turns one kind of trusted event into steps. */
function listenersFor(win: Window, options: DemonstrationRecorderOptions, detach: () => void) {
  const before = options.observe ? createBeforePage(options.observe) : undefined;
  const sender = createStepSender({
    win, locate: options.locate, send: options.send, onNotRecording: detach,
    ...(before ? { before } : {}), ...(options.onSendError ? { onSendError: options.onSendError } : {}),
  });
  const { emit } = sender;
  const values = createValueRecorder(emit);
  const unrecordable = (what: string) => options.onUnrecordable?.(what);
  /** A click or Enter was recorded in this task: the submit it causes is not a second action. */
  let triggered = false;
  const markTriggered = () => {
    triggered = true;
    win.setTimeout(() => { triggered = false; }, 0);
  };
  const looksClickable = (el: Element): boolean => {
    try {
      return win.getComputedStyle(el).cursor === 'pointer';
    } catch {
      return false;
    }
  };

  // Only what the person did counts: events a page script dispatched (isTrusted false) are not recorded.
  const onValue = (settle: boolean) => (e: Event) => {
    const el = e.isTrusted ? eventTarget(e) : null;
    if (!el) return;
    const field = textFieldOf(el);
    if (!field) return values.choice(el);
    values.touch(field);
    if (settle) values.flushField(field);
  };
  const onClick = (e: MouseEvent) => {
    if (!e.isTrusted) return; // a page script clicking is not the person
    const el = eventTarget(e);
    if (!el || recordedOtherwise(el)) {
      if (el && tagOf(el) === 'input' && inputType(el) === 'file') unrecordable('a file upload');
      return;
    }
    values.flushAll();
    if (emit(el, (target) => ({ type: 'click', target }))) markTriggered();
    // A pointer cursor says the page treats it as clickable, yet no snapshot line names it.
    else if (looksClickable(el)) unrecordable(`a click on a <${tagOf(el)}> that is not a control Apprentice can name`);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!e.isTrusted || e.key !== 'Enter' || e.isComposing || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) return;
    const el = eventTarget(e);
    if (!el || tagOf(el) !== 'input' || !isTextField(el)) return; // Enter in a textarea or an editor is a new line
    values.touch(el);
    values.flushAll();
    if (emit(el, (target) => ({ type: 'press', target, keys: 'Enter' }))) markTriggered();
  };
  // The text a field holds when the person starts editing it: what a recorded edit changes.
  const onBeginEdit = (e: Event) => {
    if (!e.isTrusted) return;
    const el = eventTarget(e);
    const field = el ? textFieldOf(el) : null;
    if (!field) return;
    // The first change since the field's last fill: the page still shows the text before it.
    if (e.type === 'beforeinput' && !values.pending(field)) before?.edit(field);
    values.begin(field);
  };
  // Before a click, a toggle or a keyboard choice changes anything (capture phase, first listeners).
  const onInteraction = (e: Event) => {
    const el = e.isTrusted ? eventTarget(e) : null;
    if (el && !(e instanceof KeyboardEvent && e.repeat)) before?.interaction(el, e instanceof KeyboardEvent ? e.key : undefined);
  };
  const onFocusOut = (e: Event) => {
    const el = eventTarget(e);
    const field = el ? textFieldOf(el) : null;
    if (field) values.flushField(field);
  };
  const onSubmit = (e: SubmitEvent) => {
    if (!e.isTrusted) return;
    values.flushAll();
    if (triggered) return;
    const submitter = e.submitter;
    if (submitter && emit(submitter, (target) => ({ type: 'click', target }))) markTriggered();
  };
  const listeners: [string, EventListener][] = [
    ['pointerdown', onInteraction],
    ['keydown', onInteraction],
    ['click', onClick as EventListener],
    ['focusin', onBeginEdit],
    ['beforeinput', onBeginEdit],
    ['input', onValue(false)],
    ['change', onValue(true)],
    ['keydown', onKeyDown as EventListener],
    ['focusout', onFocusOut],
    ['submit', onSubmit as EventListener],
    ['pagehide', () => values.flushAll()],
    ['contextmenu', (e) => { if (e.isTrusted) unrecordable('a right click'); }],
    ['drop', (e) => { if (e.isTrusted) unrecordable('a drag and drop'); }],
  ];
  return { listeners, values, sender, before };
}

export function createDemonstrationRecorder(options: DemonstrationRecorderOptions): DemonstrationRecorder {
  let controller: AbortController | null = null;
  function detach() {
    controller?.abort();
    controller = null;
    wiring.values.clear();
    wiring.before?.clear();
  }
  const wiring = listenersFor(options.win, options, detach);
  return {
    get recording() {
      return controller !== null;
    },
    start() {
      if (controller) return;
      controller = new AbortController();
      const opts = { capture: true, signal: controller.signal };
      for (const [type, listener] of wiring.listeners) options.win.addEventListener(type, listener, opts);
    },
    async stop() {
      if (controller) wiring.values.flushAll();
      detach();
      await wiring.sender.settle();
    },
  };
}
