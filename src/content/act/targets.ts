/**
 * Targets and checks: a ref becomes a live element that can take the action
 * (still on the page, visible, enabled), scrolled into view when needed.
 */
import type { Target } from '../../core/page/action.ts';
import type { RefRegistry } from '../observe/ref-registry.ts';
import { isVisible } from '../dom/visibility.ts';
import { ActionFailure, tag } from './act-context.ts';

export function usable(target: Target, registry: RefRegistry, need: { enabled?: boolean }): Element {
  if (target.kind === 'semantic') {
    throw new ActionFailure('unresolved', `semantic target <${target.role} ${JSON.stringify(target.name)}> must be resolved to a ref before acting`);
  }
  const el = registry.elementFor(target.ref);
  if (!el || !el.isConnected) throw new ActionFailure('element_gone', `[${target.ref}] is no longer on the page; observe again`);
  if (!isVisible(el)) throw new ActionFailure('not_visible', `[${target.ref}] <${tag(el)}> is not visible`);
  if (need.enabled && isDisabled(el)) throw new ActionFailure('disabled', `[${target.ref}] <${tag(el)}> is disabled`);
  return el;
}

export function isDisabled(el: Element): boolean {
  if (el.matches(':disabled')) return true;
  return el.closest('[aria-disabled="true"]') !== null;
}

export function scrollIntoViewIfNeeded(el: Element): void {
  const view = el.ownerDocument.defaultView;
  if (!view) return;
  const r = el.getBoundingClientRect();
  const inside = r.bottom > 0 && r.right > 0 && r.top < view.innerHeight && r.left < view.innerWidth;
  if (!inside) el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}
