/**
 * A target that went stale between the snapshot the person (or the gate) saw
 * and the moment of acting. Pages replace their controls (a script swaps the
 * server's form for its own), so the ref the action names is gone while an
 * element with the same role and name stands where it was. That element is
 * found again — only when exactly one element has exactly that role and
 * name; several or none is not guessed at ("first" or "nearest" could be a
 * different control) — and the action runs on it, saying so. A stale target
 * that cannot be found again is an `element_gone` result: the policy proposes
 * again on the page as it is; it never ends the attempt by itself.
 */
import type { Action, ActionResult } from '../page/action.ts';
import { parseAction } from '../page/action-grammar.ts';
import type { ObserveOptions, PageObservation } from '../page/observation.ts';
import { normalizeName, resolveSemanticAction } from '../page/semantic-action.ts';
import type { TargetFingerprint } from '../page/target-fingerprint.ts';
import type { PageDriver } from '../ports.ts';
import { describeError } from '../errors.ts';
import { originChange, targetChanged } from './decision-guard.ts';

export type Refound = { ok: true; action: Action; note: string } | { ok: false; reason: string };

const refOf = (action: Action): string | null => ('target' in action && action.target?.kind === 'ref' ? action.target.ref : null);

/**
 * How a page is re-read around acting: the element the action names is kept
 * by the snapshot budget (and anchors it), as are the lines the task names.
 * Read without it, a long list is cut from another anchor, and a row the
 * person just chose far down the list is "not on the page". An answer acts on
 * nothing, and where it was read is looked up in the page (`answerFrom`): its
 * page is read whole, or an answer far down a long page would have no place.
 */
export function observeOptionsFor(action: Action, maxChars: number, task: string): ObserveOptions {
  return { maxChars: action.type === 'send_msg_to_user' ? WHOLE_PAGE_CHARS : maxChars, lastActedRef: refOf(action), task };
}

/** A budget no page's snapshot reaches: the page whole (the DOM bounds it). */
export const WHOLE_PAGE_CHARS = 10_000_000;

/**
 * The action moved onto the one element of `now` with the shown target's exact
 * role and name (`semantic`: the form the person saw). One function, so the
 * rule can later take the target's context (its row, its form) as well.
 */
export function refindTarget(action: Action, semantic: string, now: PageObservation): Refound {
  const shown = parseAction(semantic);
  const named = shown.ok && 'target' in shown.action && shown.action.target?.kind === 'semantic' ? shown.action.target : null;
  if (named === null) return { ok: false, reason: 'the action as shown names no element to look for' };
  const what = `${named.role} ${JSON.stringify(named.name)}`;
  const same = now.nodes.filter((n) => n.ref !== null && n.role.toLowerCase() === named.role.toLowerCase() && normalizeName(n.name) === normalizeName(named.name));
  if (same.length === 0) return { ok: false, reason: `no ${what} is on the page now` };
  if (same.length > 1) return { ok: false, reason: `${same.length} elements are ${what} now; not guessing which` };
  const resolved = resolveSemanticAction({ ...action, target: named } as Action, now);
  const ref = resolved.ok ? refOf(resolved.action) : null;
  if (!resolved.ok || resolved.match !== 'exact' || ref !== same[0]!.ref) return { ok: false, reason: `${what} could not be resolved on the page now` };
  return { ok: true, action: resolved.action, note: `[${refOf(action)}] was replaced on the page; acted on [${ref}], the only ${what} there now` };
}

/** The action as it can run on `now`: unchanged when its ref is still there, found again when it is not, or the element_gone result. */
export function onPageNow(action: Action, semantic: string, now: PageObservation): { ok: true; action: Action; note: string | null } | { ok: false; result: ActionResult } {
  const ref = refOf(action);
  if (ref === null || now.nodes.some((n) => n.ref === ref)) return { ok: true, action, note: null };
  const found = refindTarget(action, semantic, now);
  if (found.ok) return found;
  return { ok: false, result: { ok: false, code: 'element_gone', message: `[${ref}] is not on the page any more and was not found again: ${found.reason}` } };
}

export function withNote(result: ActionResult, note: string | null): ActionResult {
  if (note === null) return result;
  if (!result.ok) return { ...result, message: `${result.message} (${note})` };
  return { ...result, note: result.note === undefined ? note : `${note}; ${result.note}` };
}

const actOnce = (page: PageDriver, action: Action, expected: TargetFingerprint | null): Promise<ActionResult> =>
  page.act(action, undefined, expected ?? undefined).catch((err: unknown) => ({ ok: false as const, code: 'no_page' as const, message: describeError(err) }));

/**
 * Acts; when the page layer finds the target gone (it went while the page
 * settled), reads the page again and acts once on the same element found
 * again, checked against the approval as the first was. An element_gone
 * action did nothing, so the second try cannot do anything twice.
 */
export async function actFindingAgain(
  page: PageDriver,
  action: Action,
  shown: { semantic: string; shownOn: string; expected: TargetFingerprint | null },
  observeOptions: ObserveOptions,
): Promise<ActionResult> {
  const first = await actOnce(page, action, shown.expected);
  if (first.ok || first.code !== 'element_gone') return first;
  let now: PageObservation;
  try {
    now = await page.observe(observeOptions);
  } catch {
    return first;
  }
  const here = onPageNow(action, shown.semantic, now);
  if (!here.ok) return here.result;
  if (here.note === null) return first; // the same ref is there again: the page layer's answer stands
  const changed = targetChanged(here.action, shown.semantic, now, shown.shownOn, shown.expected);
  if (changed !== null) return { ok: false, code: 'element_gone', message: `${first.message}; the element found again is not the one approved: ${changed}` };
  return withNote(await actOnce(page, here.action, shown.expected), here.note);
}

export type BeforeActing =
  | { kind: 'run'; action: Action; note: string | null; observation: PageObservation }
  | { kind: 'refused'; reason: string }
  | { kind: 'gone'; result: ActionResult };

/**
 * Re-reads the page before an approved action: the element must still be
 * what was approved (decision-guard.ts), found again when the page replaced
 * it. Not found again on the same origin: `gone`, and nothing runs.
 */
export async function checkBeforeActing(
  page: PageDriver,
  action: Action,
  shown: { semantic: string; shownOn: string; expected: TargetFingerprint | null },
  observeOptions: ObserveOptions,
): Promise<BeforeActing> {
  let now: PageObservation;
  try {
    now = await page.observe(observeOptions);
  } catch (err) {
    return { kind: 'refused', reason: describeError(err) };
  }
  const here = onPageNow(action, shown.semantic, now);
  if (!here.ok) {
    // Another origin is refused as before, whether or not the element is there.
    const elsewhere = originChange(shown.shownOn, now.url);
    return elsewhere !== null ? { kind: 'refused', reason: elsewhere } : { kind: 'gone', result: here.result };
  }
  const changed = targetChanged(here.action, shown.semantic, now, shown.shownOn, shown.expected);
  return changed !== null ? { kind: 'refused', reason: changed } : { kind: 'run', action: here.action, note: here.note, observation: now };
}
