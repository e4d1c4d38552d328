/**
 * The auto-approve gate: which proposals must always wait for the person, and
 * whether auto-approve applies at all. This is code, not model judgement, so
 * a hijacked model or a hostile page cannot talk its way past it. It errs on
 * the side of asking.
 *
 * Always ask (see docs/security.md):
 * - ending the episode (send_msg_to_user, report_infeasible);
 * - typing into password, one-time-code or payment fields (secret-fields.ts);
 * - anything that submits a form: a submit button (a <button> without a type
 *   inside a form is one), Enter anywhere, Space on a form control, a check
 *   or select that submits, text with a line break (Enter inside it) except
 *   in a field of lines (a textarea), where it is typed as text;
 * - an element whose name, or the text a person sees on it, is on DESTRUCTIVE_WORDS;
 * - leaving the origin, a download, a goto with a query string to another path;
 * - memory-only candidates (no model proposed them on this page).
 */
import type { Action } from '../page/action.ts';
import { unhandledKind } from '../page/action-vocabulary.ts';
import type { PageObservation, SnapshotNode } from '../page/observation.ts';
import { nodeActedOn } from '../page/node-acted-on.ts';
import { secretKindOf } from '../secrets/secret-fields.ts';
import { mainKeyOf } from '../page/key-names.ts';
import { lineBreakMaySubmit } from '../page/line-break.ts';

/**
 * Names that make an action ask even when auto-approve is on: they submit,
 * spend, send, or destroy. Matched as whole words (or phrases) in the
 * element's accessible name, case-insensitively.
 */
export const DESTRUCTIVE_WORDS: readonly string[] = [
  'delete', 'remove', 'erase', 'destroy', 'discard', 'trash', 'empty trash', 'wipe', 'purge', 'reset', 'revoke',
  'pay', 'pay now', 'purchase', 'buy', 'place order', 'order now', 'checkout', 'check out', 'donate',
  'send', 'transfer', 'withdraw', 'share', 'invite', 'publish', 'post', 'reply',
  'submit', 'confirm', 'approve', 'accept', 'agree', 'authorize', 'authorise', 'grant', 'allow',
  'sign up', 'register', 'subscribe', 'unsubscribe', 'cancel subscription', 'cancel order', 'cancel plan',
  'close account', 'deactivate', 'disable account', 'block', 'report abuse', 'save', 'upload', 'install',
];

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const DESTRUCTIVE = new RegExp(`(?<![\\p{L}\\p{N}])(${DESTRUCTIVE_WORDS.map((w) => escape(w).replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`, 'iu');
const DOWNLOAD_EXT = /\.(zip|exe|dmg|msi|pkg|deb|rpm|apk|pdf|csv|xlsx?|docx?|tar|gz|7z|iso|bat|sh|ps1|jar)(\?|#|$)/i;
const FORM_CONTROL_ROLES = /^(textbox|searchbox|combobox|checkbox|radio|switch|listbox|spinbutton|slider|button|option|menuitemcheckbox|menuitemradio)$/;

export interface SensitivityVerdict {
  sensitive: boolean;
  reason: string | null;
}

const ok: SensitivityVerdict = { sensitive: false, reason: null };
const flag = (reason: string): SensitivityVerdict => ({ sensitive: true, reason });

function originOf(url: string, base?: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/** The first destructive word in a name, or null. */
export function destructiveWordIn(name: string): string | null {
  const m = DESTRUCTIVE.exec(name);
  return m ? m[1]!.toLowerCase().replace(/\s+/g, ' ') : null;
}

function secretField(node: SnapshotNode | undefined): SensitivityVerdict | null {
  const kind = node ? secretKindOf(node) : null;
  if (kind === 'password') return flag('types into a password field');
  if (kind === 'one-time-code') return flag('types into a one-time-code field');
  if (kind === 'payment') return flag('types into a payment field');
  return null;
}

function destructive(node: SnapshotNode | undefined): SensitivityVerdict | null {
  if (node === undefined) return null;
  // What the person sees counts as much as the name: an aria-label "Continue" on a button reading "Delete account".
  for (const text of [node.name, node.shownText ?? '']) {
    const word = destructiveWordIn(text);
    if (word) return flag(`"${text}" may ${word === 'save' ? 'save changes' : `be irreversible (${word})`}`);
  }
  return null;
}

export function classifySensitivity(action: Action, observation: PageObservation): SensitivityVerdict {
  const pageOrigin = originOf(observation.url);
  const node = nodeActedOn(action, observation);
  switch (action.type) {
    case 'send_msg_to_user':
    case 'report_infeasible':
      return flag('ends the episode');
    case 'goto': {
      const target = originOf(action.url, observation.url);
      if (target === null || target !== pageOrigin) return flag(`navigates to another origin (${target ?? action.url})`);
      if (DOWNLOAD_EXT.test(action.url)) return flag('downloads a file');
      const to = new URL(action.url, observation.url);
      const from = new URL(observation.url);
      // A query string on another path can carry data out, or act (…/delete?id=3).
      if (to.search !== '' && to.pathname !== from.pathname) return flag('opens another path with a query string');
      return ok;
    }
    case 'go_back':
    case 'go_forward':
    case 'scroll':
    case 'hover':
    case 'focus':
      return ok;
    case 'fill':
      return secretField(node)
        ?? (lineBreakMaySubmit(action.text, node) ? flag('the text contains a line break, which may submit a form') : null)
        ?? ok;
    case 'clear':
      return secretField(node) ?? ok;
    case 'press': {
      // Aliases ("Spacebar", "Return") are read as the key they name; a key we do not know asks.
      const key = mainKeyOf(action.keys);
      if (key === null) return flag(`"${action.keys}" is not a key Apprentice knows`);
      if (key === 'Enter') return flag('Enter may submit a form');
      if (key === ' ') {
        if (!node || node.inForm === true || FORM_CONTROL_ROLES.test(node.role)) return flag('Space on a form control may submit it');
      }
      return secretField(node) ?? ok;
    }
    case 'check':
    case 'uncheck':
    case 'select_option':
      if (node?.submits === true) return flag('changing it submits the form');
      return destructive(node) ?? ok;
    case 'click':
    case 'dblclick': {
      if (!node) return flag('the element is not on the current page');
      if (node.href) {
        const target = originOf(node.href);
        if (target !== null && target !== pageOrigin) return flag(`opens another origin (${target})`);
        if (DOWNLOAD_EXT.test(node.href)) return flag('downloads a file');
      }
      if (node.submits === true || node.inputType === 'submit' || node.inputType === 'image') return flag(`submits a form ("${node.name}")`);
      // A <button> without a type inside a form is a submit button; the page layer reports it as
      // submits=true. A button in a form that the page layer did not classify is asked about too.
      if (node.inForm === true && node.submits === undefined && node.role === 'button') return flag(`may submit a form ("${node.name}")`);
      return destructive(node) ?? ok;
    }
    default:
      return unhandledKind(action);
  }
}

export interface AutoApproveInput {
  /** Origins where the person switched auto-approve on. */
  grantedOrigins: readonly string[];
  /** The page the proposal was made on (its current URL, not the episode's start). */
  observation: PageObservation;
  action: Action;
  /** 'memory' when only memory proposed it (not the model on this page). */
  candidateOrigin: 'model' | 'memory';
  /** The URL of the previous step, if any: auto-approve pauses after a cross-origin navigation. */
  previousUrl?: string | null;
}

/** Whether the top proposal may run without the person; the reason when not. */
export function autoApproveVerdict(input: AutoApproveInput): SensitivityVerdict {
  const origin = originOf(input.observation.url);
  if (origin === null || !input.grantedOrigins.includes(origin)) return flag(`auto-approve is not on for ${origin ?? 'this page'}`);
  if (input.previousUrl && originOf(input.previousUrl) !== origin) return flag('the page came from another origin since the last step');
  if (input.candidateOrigin === 'memory') return flag('only memory proposed it, not the model on this page');
  return classifySensitivity(input.action, input.observation);
}
