/**
 * The check at the moment of effect (issue 30). The act-time check ran after
 * the page's pointer handlers; a page can still rewrite a link's href or a
 * button's `form` in its own `click` listener (capture phase on window runs
 * before anything else), or the form's action in a `submit` listener, after
 * that check and before the browser follows or submits. So the approved click
 * is dispatched with a listener of ours registered last on window, for
 * `click` and `submit`: nothing of the page runs between it and the default
 * action. There the element is checked once more, and a change cancels the
 * default. A page that stops the event before it reaches window is caught
 * where the navigation or submission starts: the Navigation API's `navigate`
 * event, fired synchronously inside the click's activation before any request
 * leaves, is checked the same way and cancelled on a change. Where that event
 * does not fire or cannot be cancelled, a last check right after the dispatch
 * stops the navigation the browser started (best effort: `window.stop()`).
 */
import { realmOf, type Run } from './act-context.ts';

type CheckedRun = Run & { check: (when: string) => void };

/**
 * Runs `effect` (a dispatch whose default action follows or submits) with the
 * listeners described above; `ours` tells our click from others the page
 * dispatches meanwhile. Returns what `effect` returned.
 */
function atEffect(win: Window, run: CheckedRun, ours: Event | null, effect: () => boolean): boolean {
  let failure: unknown = null;
  let dispatching = true;
  /** A refused navigation the page's browser would not let us cancel. */
  let uncancelled = false;
  const listener = (when: string) => (e: Event) => {
    // The page cancelled the default itself (a script-driven link): nothing of ours would follow or submit.
    if (!dispatching || failure !== null || e.defaultPrevented) return;
    if (e.type === 'click' && e !== ours) return;
    try {
      run.check(when);
    } catch (err) {
      e.preventDefault();
      failure = err;
    }
  };
  const onClick = listener('when the click took effect');
  const onSubmit = listener('when its form was submitted');
  // The navigation the click or submission starts, before its request is sent (a click stopped before window reaches it).
  const onNavigate = (e: Event) => {
    if (!dispatching || failure !== null) return;
    try {
      run.check('when it took effect');
    } catch (err) {
      if (e.cancelable) e.preventDefault();
      else uncancelled = true;
      failure = err;
    }
  };
  const navigation = (win as Window & { navigation?: EventTarget }).navigation;
  win.addEventListener('click', onClick);
  win.addEventListener('submit', onSubmit);
  navigation?.addEventListener('navigate', onNavigate);
  let proceeded: boolean;
  try {
    proceeded = effect();
  } finally {
    dispatching = false;
    win.removeEventListener('click', onClick);
    win.removeEventListener('submit', onSubmit);
    navigation?.removeEventListener('navigate', onNavigate);
  }
  if (failure !== null) {
    if (uncancelled) win.stop();
    throw failure;
  }
  if (proceeded) {
    try {
      run.check('when it took effect');
    } catch (err) {
      win.stop();
      throw err;
    }
  }
  return proceeded;
}

/** An approved click: dispatched, and checked at the moment of its effect. */
export function clickAsApproved(target: Element, run: CheckedRun, init: MouseEventInit): boolean {
  const R = realmOf(target, run.win);
  const win = target.ownerDocument.defaultView ?? run.win;
  const event = new R.MouseEvent('click', { bubbles: true, cancelable: true, composed: true, view: win, button: 0, ...init });
  return atEffect(win, run, event, () => target.dispatchEvent(event));
}

/** An approved form submission without a submit button (Enter in its lone field), checked at its submit event. */
export function submitAsApproved(form: HTMLFormElement, run: CheckedRun): void {
  atEffect(form.ownerDocument.defaultView ?? run.win, run, null, () => {
    form.requestSubmit();
    return true;
  });
}
