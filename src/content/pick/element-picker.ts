/**
 * "Pick an element" (issue 31): the person corrects a step by pointing. While
 * a pick is on, the element under the pointer that Apprentice can act on is
 * outlined with its name; a click picks it (the page never sees that click,
 * nor the presses around it), Escape cancels. The picked element comes back
 * by its snapshot ref and its semantic target, so the correction is the same
 * action the agent would write for it: no grammar to type. Same-origin
 * frames are picked in like the page; a cross-origin frame says it cannot be
 * (pick-frames.ts).
 */
import type { PageObservation } from '../../core/page/observation.ts';
import { semanticTargetOf } from '../../core/page/semantic-action.ts';
import type { PickResult } from '../../protocol/messages.ts';
import { eventTarget } from '../record/recorded-elements.ts';
import { clearPickOverlay, drawPickOverlay } from './pick-overlay.ts';
import { pickFrames } from './pick-frames.ts';

/** Said while the pointer is over a frame from another site: its content cannot be read, so nothing in it can be picked. */
export const CROSS_ORIGIN_NOTE = 'Apprentice cannot read this frame (another site): pick outside it · Esc cancels';

export interface ElementPickerOptions {
  win: Window;
  /** The snapshot line standing for an element (the page agent's `locate`). */
  locate(el: Element): { observation: PageObservation; ref: string; element: Element } | null;
  /** Clears the proposal's highlight while the person points. */
  clearHighlight(): void;
}

export interface ElementPicker {
  readonly picking: boolean;
  /** Waits for a click on an element (or Escape). A pick already under way ends as 'replaced'. */
  pick(): Promise<PickResult>;
  /** Ends a pick under way as cancelled. */
  cancel(): void;
}

/** Presses the page must not see while the person points: the pick's click would otherwise act. */
const SWALLOWED = ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'dblclick', 'auxclick', 'contextmenu'] as const;

/** The picked element as the protocol carries it. */
export function pickedFrom(located: { observation: PageObservation; ref: string }): PickResult | null {
  const node = located.observation.nodes.find((n) => n.ref === located.ref);
  if (!node) return null;
  return {
    picked: true,
    ref: located.ref,
    target: semanticTargetOf(node),
    ...(node.options ? { options: node.options } : {}),
    ...(node.inputType !== undefined ? { inputType: node.inputType } : {}),
    ...(node.value !== undefined ? { value: node.value } : {}),
  };
}

export function createElementPicker({ win, locate, clearHighlight }: ElementPickerOptions): ElementPicker {
  let finish: ((result: PickResult) => void) | null = null;

  function start(): Promise<PickResult> {
    const doc = win.document;
    let hovered: Element | null = null;
    const swallow = (e: Event) => {
      if (!e.isTrusted) return;
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    const onMove = (e: MouseEvent) => {
      if (frames.crossOriginAt(e)) {
        hovered = null;
        drawPickOverlay(doc, null, null, CROSS_ORIGIN_NOTE);
        return;
      }
      const el = eventTarget(e);
      if (!el || el === hovered) return;
      hovered = el;
      // A frame added or reloaded since the start: listen in it from now on.
      if (el.localName === 'iframe' || el.localName === 'frame') frames.adopt(el.ownerDocument);
      const located = locate(el);
      const picked = located ? pickedFrom(located) : null;
      if (located && picked?.picked) drawPickOverlay(doc, located.element, picked.target);
      else drawPickOverlay(doc, null, null);
    };
    const onClick = (e: MouseEvent) => {
      if (!e.isTrusted) return;
      swallow(e);
      if (frames.crossOriginAt(e)) {
        drawPickOverlay(doc, null, null, CROSS_ORIGIN_NOTE);
        return;
      }
      const el = eventTarget(e);
      const located = el ? locate(el) : null;
      const picked = located ? pickedFrom(located) : null;
      // Something Apprentice cannot act on: say so and keep pointing.
      if (!picked) drawPickOverlay(doc, null, null, 'Apprentice cannot act on that: pick a control, link or field');
      else done(picked);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      swallow(e);
      done({ picked: false, reason: 'cancelled' });
    };
    const listeners: [string, EventListener][] = [
      ['mouseover', onMove as EventListener],
      // Over a blocked cross-origin frame the element underneath stays the same: moves tell where the pointer is.
      ['mousemove', onMove as EventListener],
      ['click', onClick as EventListener],
      ['keydown', onKey as EventListener],
      ...SWALLOWED.map((type): [string, EventListener] => [type, swallow]),
    ];
    const listen = (w: Window) => {
      for (const [type, fn] of listeners) w.addEventListener(type, fn, { capture: true });
      return () => { for (const [type, fn] of listeners) w.removeEventListener(type, fn, { capture: true }); };
    };
    const stopTop = listen(win);
    // Same-origin frames get the same listeners; cross-origin ones are blocked (pick-frames.ts).
    const frames = pickFrames(listen);
    frames.adopt(doc);
    clearHighlight();
    drawPickOverlay(doc, null, null);

    let resolve!: (result: PickResult) => void;
    const result = new Promise<PickResult>((r) => { resolve = r; });
    function done(r: PickResult) {
      stopTop();
      frames.release();
      clearPickOverlay(doc);
      finish = null;
      resolve(r);
    }
    finish = done;
    return result;
  }

  return {
    get picking() { return finish !== null; },
    pick() {
      finish?.({ picked: false, reason: 'replaced' });
      return start();
    },
    cancel() {
      finish?.({ picked: false, reason: 'cancelled' });
    },
  };
}
