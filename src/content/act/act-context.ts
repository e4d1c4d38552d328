/**
 * What every action module shares: the typed failure, the per-action run
 * state (set by the navigation watcher), the element's own realm, the settle
 * time a page gets to react.
 */
import type { ActionErrorCode } from '../../core/page/action.ts';

/** Time to let a page react (start a navigation, open a menu) after an action. */
export const SETTLE_MS = 40;

export class ActionFailure extends Error {
  constructor(readonly code: ActionErrorCode, message: string) {
    super(message);
  }
}

/** Set by the navigation listeners while an action runs. */
import type { RecordedChange } from '../../core/page/text-change.ts';

export interface Run {
  win: Window;
  navigated: boolean;
  startHref: string;
  /**
   * For an approved action (act-check.ts): throws `not_run` when the target is
   * no longer what was approved; called again after the page's pointerdown
   * and keydown handlers ran, before anything follows or submits.
   */
  check?: (when: string) => void;
  /** A pointer hit on a different control inside the target does not count as a click on the target. */
  strictHits?: boolean;
  /** A fill that replaced a multi-line text: what it changed there (core/page/text-change.ts), for the result. */
  edit?: RecordedChange;
}

type Realm = typeof globalThis;
/** Events are built with the element's own window classes (same-origin frames have their own). */
export const realmOf = (el: Element, fallback: Window): Realm => (el.ownerDocument.defaultView ?? fallback) as unknown as Realm;

export const sleep = (win: Window, ms: number) => new Promise<void>((r) => win.setTimeout(r, ms));

export const tag = (el: Element): string => el.tagName.toLowerCase();
