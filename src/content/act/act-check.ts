/**
 * The act-time check: just before an approved action takes effect, the
 * element is compared with what was approved (a TargetFingerprint from the
 * core) — where its link goes, where its form goes and how, whether it
 * submits. It runs when the action starts and again between the pointer going
 * down and the click, and before a key's default action, so a page that swaps
 * an `href` on pointerdown or moves a field into another form on keydown is
 * caught after its handlers ran and before anything follows or submits.
 * A mismatch fails the action with `not_run` and says what changed.
 */
import type { TargetFingerprint } from '../../core/page/target-fingerprint.ts';
import { describeElement } from '../dom/describe-element.ts';
import { formTargetOf, linkHrefOf, submitsNow } from '../dom/form-target.ts';
import { ActionFailure } from './act-context.ts';

/** Elements with activation behaviour of their own: a hit on one inside the target is not a click on the target. */
const ACTIVATABLE = [
  'a[href]', 'area[href]', 'button', 'input', 'select', 'textarea', 'summary', 'label', '[contenteditable=""]', '[contenteditable="true"]',
  '[role=button]', '[role=link]', '[role=checkbox]', '[role=switch]', '[role=radio]', '[role=menuitem]', '[role=menuitemcheckbox]',
  '[role=menuitemradio]', '[role=tab]', '[role=option]', '[role=slider]', '[role=spinbutton]', '[role=textbox]', '[role=combobox]',
].join(', ');

export function isActivatable(el: Element): boolean {
  try {
    return el.matches(ACTIVATABLE);
  } catch {
    return false;
  }
}

/** What differs between the element now and the approved fingerprint; empty when nothing does. */
export function liveChanges(el: Element, expect: TargetFingerprint): string[] {
  const changes: string[] = [];
  const href = linkHrefOf(el);
  if ((href ?? '') !== (expect.href ?? '')) changes.push(`its link goes to ${href ?? 'nowhere'}, not ${expect.href ?? 'nowhere'}`);
  const form = formTargetOf(el);
  // Only where the approval knew the form: older pages' snapshots may not carry it.
  if (expect.formAction !== undefined && (form.formAction ?? '') !== expect.formAction) changes.push(`its form goes to ${form.formAction ?? 'no form'}, not ${expect.formAction}`);
  if (expect.formMethod !== undefined && (form.formMethod ?? '') !== expect.formMethod) changes.push(`its form method is ${form.formMethod ?? 'none'}, not ${expect.formMethod}`);
  const submits = submitsNow(el);
  if (submits !== null && submits !== expect.submits) changes.push(submits ? 'it submits a form now' : 'it no longer submits a form');
  return changes;
}

/** Throws `not_run` when the element is not what was approved. */
export function assertAsApproved(el: Element, expect: TargetFingerprint | undefined, when: string): void {
  if (!expect) return;
  const changes = liveChanges(el, expect);
  if (changes.length > 0) throw new ActionFailure('not_run', `<${describeElement(el)}> changed ${when}: ${changes.join('; ')}`);
}

/**
 * Whether a pointer hit on `hit` is a click on `target` and nothing else: the
 * target itself, or a descendant none of whose elements up to the target has
 * activation behaviour of its own. Returns the control in the way, or null.
 */
export function controlInTheWay(hit: Element, target: Element): Element | null {
  for (let cur: Element | null = hit; cur !== null && cur !== target; cur = cur.parentElement ?? ((cur.getRootNode() as Partial<ShadowRoot>).host ?? null)) {
    if (isActivatable(cur)) return cur;
  }
  return null;
}
