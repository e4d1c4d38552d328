/**
 * The kinds of action that ask every time, however often the person approved
 * them before: typing a secret or payment data, anything that sends the
 * browser or a form to another origin, downloads, file inputs, and whatever
 * the person marked "always ask". These are the actions whose harm a second
 * look can still prevent and whose approval should not wear out.
 */
import type { Action } from '../page/action.ts';
import type { PageObservation, SnapshotNode } from '../page/observation.ts';
import { nodeActedOn } from '../page/node-acted-on.ts';
import { secretKindOf } from '../secrets/secret-fields.ts';
import { mainKeyOf } from '../page/key-names.ts';
import { lineBreakMaySubmit } from '../page/line-break.ts';
import { actionKey } from './approval-history.ts';

/** One action the person marked "always ask" on one site (semantic form). */
export interface AlwaysAskMark {
  origin: string;
  action: string;
}

const DOWNLOAD_EXT = /\.(zip|exe|dmg|msi|pkg|deb|rpm|apk|pdf|csv|xlsx?|docx?|tar|gz|7z|iso|bat|sh|ps1|jar)$/i;

function originOf(url: string, base?: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

const isDownloadUrl = (url: string, base: string): boolean => {
  try {
    return DOWNLOAD_EXT.test(new URL(url, base).pathname);
  } catch {
    return false;
  }
};

/** Whether submitting the element's form would send it to another origin (a form without an action posts to the page). */
function formLeavesOrigin(node: SnapshotNode, pageOrigin: string | null): string | null {
  if (node.formAction === undefined) return null;
  const to = originOf(node.formAction);
  return to !== pageOrigin ? `its form sends to another origin (${to ?? node.formAction})` : null;
}

/** Whether the action may submit the element's form: a submitter, an auto-submitting control, Enter in a field. */
function maySubmit(action: Action, node: SnapshotNode): boolean {
  if (action.type === 'press') {
    const key = mainKeyOf(action.keys);
    return key === null || key === 'Enter' || (key === ' ' && node.submits === true);
  }
  if (action.type === 'fill') return node.submits === true || lineBreakMaySubmit(action.text, node);
  return node.submits === true || node.inputType === 'submit' || node.inputType === 'image';
}

/** Why this action always asks; null when it is not of an always-ask kind. */
export function alwaysAskReason(action: Action, semantic: string, observation: Pick<PageObservation, 'url' | 'nodes' | 'focusedRef'>, marks: readonly AlwaysAskMark[]): string | null {
  const pageOrigin = originOf(observation.url);
  // A mark is compared as the gate counts approvals (actionKey): "Return" is the marked "Enter", and a mark
  // typed with other spacing or quotes, or a site written with a trailing slash, still holds.
  const key = actionKey(semantic);
  if (marks.some((m) => originOf(m.origin) === pageOrigin && actionKey(m.action) === key)) return 'you marked it "always ask"';
  if (action.type === 'goto') {
    const to = originOf(action.url, observation.url);
    if (to === null || to !== pageOrigin) return `it opens another origin (${to ?? action.url})`;
    if (isDownloadUrl(action.url, observation.url)) return 'it downloads a file';
    return null;
  }
  const node = nodeActedOn(action, observation);
  if (!node) return null;
  const secret = secretKindOf(node);
  if (secret !== null && action.type !== 'hover' && action.type !== 'scroll') return `it acts on a ${secret === 'payment' ? 'payment' : secret} field`;
  if (node.inputType === 'file') return 'it is a file input';
  if (action.type === 'click' || action.type === 'dblclick' || (action.type === 'press' && node.href !== undefined)) {
    if (node.download) return 'it downloads a file';
    if (node.href !== undefined) {
      const to = originOf(node.href);
      if (to !== pageOrigin) return `it opens another origin (${to ?? node.href})`;
      if (isDownloadUrl(node.href, observation.url)) return 'it downloads a file';
    }
  }
  if (action.type !== 'hover' && action.type !== 'scroll' && action.type !== 'focus' && maySubmit(action, node)) {
    const away = formLeavesOrigin(node, pageOrigin);
    if (away) return away;
  }
  return null;
}
