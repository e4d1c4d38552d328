/**
 * Clickable elements without an interactive role, as snapshot nodes: whether
 * an element is one control a person can click (signals in clickable.ts),
 * and its node — a name from its text, or guessed from an icon's hints, and
 * a custom dropdown over a hidden native <select> reported as that combobox.
 */
import type { SnapshotNode } from '../../core/page/observation.ts';
import { isVisible } from '../dom/visibility.ts';
import { clickSignals, impliedRole, isOneControl } from './clickable.ts';
import { guessedIconName, visibleName } from './name-hints.ts';
import { describeIdentity, markShownText, nameOf } from './describe-node.ts';
import { statesOf } from './element-states.ts';
import type { FrameContext, SnapshotSession } from './snapshot-session.ts';
import { collapse } from './snapshot-text.ts';

/**
 * The role of a clickable element without an interactive role, or null when it is not one.
 * `owner` is the nearest emitted interactive ancestor.
 */
export function clickableRole(s: SnapshotSession, el: Element, tag: string, owner: Element | null): string | null {
  if (tag === 'label' || tag === 'option' || tag === 'slot') return null;
  const signals = clickSignals(el, s.clickableContext);
  if (signals.length === 0) return null;
  if (!isVisible(el) || !isOneControl(el, signals, s.clickableContext)) return null;
  if (owner !== null) {
    // Nested duplicates collapse: an inner clickable filling most of its control is that control.
    const o = s.rectOf(owner);
    const r = s.rectOf(el);
    if (r.width * r.height >= 0.5 * o.width * o.height) return null;
  }
  return impliedRole(el);
}

export function describeClickable(s: SnapshotSession, el: Element, tag: string, role: string, depth: number, frame: FrameContext): SnapshotNode {
  let name = nameOf(s, el);
  let guessed = false;
  if (name === '') name = visibleName(el);
  if (name === '') {
    name = guessedIconName(el);
    guessed = name !== '';
  }
  const n: SnapshotNode = {
    ref: s.registry.refFor(el, frame.prefix),
    kind: 'interactive',
    role,
    name,
    states: statesOf(el, tag, role, el === s.focusedEl),
    depth,
    inViewport: s.placement(el, frame, 0) === 0,
  };
  if (guessed) n.nameGuessed = true;
  else markShownText(s, n, el, true, frame);
  // A custom dropdown over a hidden native <select>: the trigger is the combobox.
  const select = hiddenSelectBeside(el);
  if (select !== null) {
    n.role = 'combobox';
    n.value = Array.from(select.selectedOptions, (o) => collapse(o.label)).join(', ');
    n.options = Array.from(select.options, (o) => collapse(o.label));
  }
  describeIdentity(s, n, el);
  if (frame.prefix !== undefined) n.frame = frame.prefix;
  return n;
}

/** A native <select> that is hidden next to (or inside) the element: the custom dropdown's model. */
function hiddenSelectBeside(el: Element): HTMLSelectElement | null {
  const scope = el.parentElement;
  if (scope === null) return null;
  for (const sel of Array.from(scope.querySelectorAll('select'))) {
    if (sel.parentElement !== scope && sel.parentElement !== el) continue;
    return isVisible(sel) ? null : sel;
  }
  return null;
}
