/**
 * Which proposals must always wait for the person, even in auto-approve mode:
 * typing into password or payment fields, submitting forms, leaving the
 * origin, downloads, and ending the episode. Errs on the side of asking.
 */
import type { Action } from '../page/action.ts';
import type { PageObservation, SnapshotNode } from '../page/observation.ts';

const PAYMENT_WORDS = /\b(card|credit|debit|cvc|cvv|csc|security code|expir|iban|bic|swift|routing|account number|sort code|billing|pin)\b/i;
const SUBMIT_WORDS = /\b(submit|send|pay|purchase|buy|order|checkout|check out|confirm|place|sign up|register|delete|remove|save|publish|post|transfer|subscribe|unsubscribe)\b/i;
const DOWNLOAD_EXT = /\.(zip|exe|dmg|msi|pkg|deb|rpm|apk|pdf|csv|xlsx?|docx?|tar|gz|7z|iso)(\?|#|$)/i;

export interface SensitivityVerdict {
  sensitive: boolean;
  reason: string | null;
}

const ok: SensitivityVerdict = { sensitive: false, reason: null };
const flag = (reason: string): SensitivityVerdict => ({ sensitive: true, reason });

function nodeFor(action: Action, observation: PageObservation): SnapshotNode | undefined {
  if (!('target' in action) || !action.target || action.target.kind !== 'ref') return undefined;
  const ref = action.target.ref;
  return observation.nodes.find((n) => n.ref === ref);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function classifySensitivity(action: Action, observation: PageObservation): SensitivityVerdict {
  const pageOrigin = originOf(observation.url);
  const node = nodeFor(action, observation);
  switch (action.type) {
    case 'send_msg_to_user':
    case 'report_infeasible':
      return flag('ends the episode');
    case 'goto': {
      const target = originOf(new URL(action.url, observation.url).href);
      if (target !== pageOrigin) return flag(`navigates to another origin (${target ?? action.url})`);
      if (DOWNLOAD_EXT.test(action.url)) return flag('downloads a file');
      return ok;
    }
    case 'fill':
    case 'clear':
    case 'press': {
      if (!node) return action.type === 'press' && /enter/i.test(action.keys) ? flag('Enter may submit a form') : ok;
      if (node.inputType === 'password') return flag('types into a password field');
      if (PAYMENT_WORDS.test(node.name) || /^cc-/.test(node.inputType ?? '')) return flag('types into a payment field');
      if (action.type === 'press' && /enter/i.test(action.keys)) return flag('Enter may submit a form');
      return ok;
    }
    case 'click':
    case 'dblclick': {
      if (!node) return ok;
      if (node.role === 'link' && node.href) {
        const target = originOf(node.href);
        if (target !== null && target !== pageOrigin) return flag(`opens another origin (${target})`);
        if (DOWNLOAD_EXT.test(node.href)) return flag('downloads a file');
      }
      if (node.role === 'button' && (SUBMIT_WORDS.test(node.name) || node.inputType === 'submit')) return flag(`may submit a form ("${node.name}")`);
      return ok;
    }
    default:
      return ok;
  }
}
