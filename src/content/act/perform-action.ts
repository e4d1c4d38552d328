/**
 * Runs one action in the page as the DOM events real sites listen for. The
 * seams live in their own modules: targets and checks (targets.ts), pointer
 * (pointer.ts: hit-tested, mouse-true clicks), keyboard (keys.ts,
 * keyboard.ts), typing (typing.ts), select and check (select.ts), scroll
 * (scroll.ts), navigation (navigation.ts). Every outcome is a typed
 * ActionResult; nothing throws.
 *
 * Semantic targets are resolved by the caller (core/page/semantic-action.ts)
 * against the latest observation before they reach the page.
 */
import type { Action, ActionResult } from '../../core/page/action.ts';
import { unhandledKind } from '../../core/page/action-vocabulary.ts';
import type { TargetFingerprint } from '../../core/page/target-fingerprint.ts';
import { assertAsApproved } from './act-check.ts';
import type { RefRegistry } from '../observe/ref-registry.ts';
import { deepActiveElement } from '../dom/focus.ts';
import { ActionFailure, SETTLE_MS, sleep, tag, type Run } from './act-context.ts';
import { pressKeys } from './keyboard.ts';
import { navigate, safeHref, watchNavigation } from './navigation.ts';
import { clickSequence, hoverOver, mouse } from './pointer.ts';
import { scrollBy } from './scroll.ts';
import { selectOption, setChecked } from './select.ts';
import { scrollIntoViewIfNeeded, usable } from './targets.ts';
import { currentText, editableTarget, typeEdit, typeInto } from './typing.ts';
import { applyTextChange, textChangeOf } from '../../core/page/text-change.ts';
import { isMultilineField } from '../dom/multiline-field.ts';

export { parseChord } from './keys.ts';

export async function performAction(action: Action, registry: RefRegistry, win: Window, expect?: TargetFingerprint): Promise<ActionResult> {
  if (action.type === 'send_msg_to_user' || action.type === 'report_infeasible') return { ok: true, navigated: false };
  const run: Run = { win, navigated: false, startHref: safeHref(win) };
  const watcher = watchNavigation(run);
  try {
    // An approved action (act-check.ts): the element must still be what was approved, now and at the moment it acts.
    // A press without a target goes to the focused element: that is the element approved.
    const approved = !expect ? null
      : action.type === 'press' && !action.target ? deepActiveElement(win.document)
      : 'target' in action && action.target?.kind === 'ref' ? registry.elementFor(action.target.ref) : null;
    if (expect && approved) {
      assertAsApproved(approved, expect, 'since it was approved');
      run.check = (when) => assertAsApproved(approved, expect, when);
      run.strictHits = true;
    }
    const work = execute(action, registry, run);
    // If the navigation wins the race, a late failure of the rest must not surface as an unhandled rejection.
    work.catch(() => {});
    // A navigation that starts mid-action ends this document soon: answer at once.
    const note = await Promise.race([work, watcher.started.then(() => undefined)]);
    // A handler that submits a form (a select's change, a checkbox's) or schedules the submit starts the
    // navigation a task later: wait a moment for it, or the next observation reads the page it leaves.
    if (!run.navigated) await Promise.race([sleep(win, SETTLE_MS), watcher.started]);
    const navigated = run.navigated || safeHref(win) !== run.startHref;
    return { ok: true, navigated, ...(note !== undefined ? { note } : {}), ...(run.edit ? { edit: run.edit } : {}) };
  } catch (err) {
    if (err instanceof ActionFailure) return { ok: false, code: err.code, message: err.message };
    const e = err instanceof Error ? err : new Error(String(err));
    return { ok: false, code: 'invalid_action', message: `${e.name}: ${e.message}` };
  } finally {
    watcher.stop();
  }
}

/** Resolves to an optional note for the ok result; throws ActionFailure. */
async function execute(action: Action, registry: RefRegistry, run: Run): Promise<string | undefined> {
  const { win } = run;
  switch (action.type) {
    case 'click': {
      clickSequence(usable(action.target, registry, { enabled: true }), run, 1);
      await sleep(win, SETTLE_MS);
      return undefined;
    }
    case 'dblclick': {
      const el = usable(action.target, registry, { enabled: true });
      const landing = clickSequence(el, run, 1);
      if (run.navigated) throw new ActionFailure('navigated', 'the page navigated away after the first click of the double click');
      clickSequence(el, run, 2, landing);
      mouse(landing.el.isConnected ? landing.el : el, run, 'dblclick', { detail: 2 }, landing.at);
      await sleep(win, SETTLE_MS);
      return undefined;
    }
    case 'hover': {
      hoverOver(usable(action.target, registry, {}), run);
      await sleep(win, SETTLE_MS);
      return undefined;
    }
    case 'focus': {
      const el = usable(action.target, registry, { enabled: true });
      scrollIntoViewIfNeeded(el);
      (el as HTMLElement).focus?.();
      if (deepActiveElement(el.ownerDocument) !== el) throw new ActionFailure('invalid_action', `<${tag(el)}> cannot take focus`);
      return undefined;
    }
    case 'fill':
    case 'clear': {
      const el = editableTarget(usable(action.target, registry, { enabled: true }));
      scrollIntoViewIfNeeded(el);
      if (action.type === 'fill' && action.change) {
        // An edit of the text the field holds now, not of the text it held when the change was learned.
        const edit = applyTextChange(currentText(el), action.text, action.change);
        if (!edit.ok) throw new ActionFailure('invalid_action', `${edit.message}; nothing typed`);
        typeEdit(el, edit, run);
        const now = currentText(el);
        return now === edit.value ? undefined : `the field shows ${JSON.stringify(now)} after the page handled the input`;
      }
      const text = action.type === 'fill' ? action.text : '';
      const before = currentText(el);
      typeInto(el, text, run);
      // A whole text typed over a longer one is learned as what it changed there.
      const edit = action.type === 'fill' && currentText(el) === text ? textChangeOf(before, text, { multiline: isMultilineField(el) }) : null;
      if (edit) run.edit = edit;
      const now = currentText(el);
      return now === text ? undefined : `the field shows ${JSON.stringify(now)} after the page handled the input`;
    }
    case 'select_option':
      return selectOption(usable(action.target, registry, { enabled: true }), action.option, run);
    case 'check':
    case 'uncheck':
      return setChecked(usable(action.target, registry, { enabled: true }), action.type === 'check', run);
    case 'press': {
      let el: Element;
      if (action.target) {
        el = usable(action.target, registry, { enabled: true });
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
      return scrollBy(action.target ? usable(action.target, registry, {}) : null, action.dx, action.dy, run);
    case 'goto':
    case 'go_back':
    case 'go_forward':
      return navigate(action, run);
    case 'send_msg_to_user':
    case 'report_infeasible':
      return undefined;
    default:
      return unhandledKind(action);
  }
}
