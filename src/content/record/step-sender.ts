/**
 * Turns one thing the person did on an element into a recorded step and
 * sends it: the element named through the page agent's snapshot (so the
 * step is exactly what the agent would write for it), plus its fingerprint
 * (role, name, link, form, submit behaviour), so a taught step counts toward
 * earned autonomy like an approval of the same element.
 */
import type { Action, RefTarget } from '../../core/page/action.ts';
import type { PageObservation } from '../../core/page/observation.ts';
import { formatAction } from '../../core/page/action-grammar.ts';
import { toSemanticAction } from '../../core/page/semantic-action.ts';
import { fingerprintOf } from '../../core/page/target-fingerprint.ts';
import { pageMarks } from '../../core/page/page-marks.ts';
import type { RecordedAction as RecordedStep } from '../../core/agent/person-input.ts';
import type { BeforePage } from './before-page.ts';

/** A recorded step is the core's RecordedAction (declared once, with its schema). */
export type { RecordedAction as RecordedStep } from '../../core/agent/person-input.ts';

export interface StepSenderOptions {
  win: Window;
  locate(el: Element): { observation: PageObservation; ref: string } | null;
  send(step: RecordedStep): Promise<void>;
  /** The page read just before the person acted (before-page.ts); without it, the page when the step is sent. */
  before?: BeforePage;
  onSendError?(err: unknown): void;
  /** The background said this tab is not recorded any more. */
  onNotRecording(): void;
}

export interface StepSender {
  /** Records `build`'s action on `el`; false when the snapshot has no line for the element. */
  emit(el: Element, build: (target: RefTarget) => Action): boolean;
  /** Waits for every send still under way. */
  settle(): Promise<void>;
}

export function createStepSender(options: StepSenderOptions): StepSender {
  const inflight = new Set<Promise<void>>();
  return {
    emit(el, build) {
      const located = options.locate(el);
      if (!located) return false;
      const action = build({ kind: 'ref', ref: located.ref });
      const node = located.observation.nodes.find((n) => n.ref === located.ref);
      const before = options.before?.take(el, action.type === 'fill') ?? located.observation;
      const step: RecordedStep = {
        action: formatAction(toSemanticAction(action, located.observation)),
        url: options.win.location.href,
        title: options.win.document.title,
        ...(node ? { target: fingerprintOf(node) } : {}),
        marks: pageMarks(before),
        before,
      };
      // Sent at once, not chained behind earlier replies: a click that navigates must leave before the page does.
      const sending = options.send(step).catch((err: unknown) => {
        options.onSendError?.(err);
        if (typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'NotRecordingError') options.onNotRecording();
      });
      inflight.add(sending);
      void sending.finally(() => inflight.delete(sending));
      return true;
    },
    async settle() {
      await Promise.allSettled([...inflight]);
    },
  };
}
