/**
 * Which incoming documents wait for the person instead of being merged: an
 * item that carries an action of an always-ask kind. Such actions ask every
 * time they run anyway; holding them also keeps a teammate (or a server that
 * was broken into) from planting them in memory unseen, where a later
 * suggestion would be built around them.
 *
 * The kinds, judged from the action's semantic form alone (a shared item has
 * no live page): typing into a password, one-time-code or payment field;
 * navigating to another origin; opening a download; a file input. Every
 * action in the item counts, wherever it is (a transition's action and
 * effective state, a skill's example actions, a guide's text).
 */
import { parseAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import { stringsIn } from '../secrets/mask-record.ts';
import { secretKindOf } from '../secrets/secret-fields.ts';

/** An action call inside a longer text; quoted strings may hold parentheses. */
const EMBEDDED_CALL = /\b[a-z_]+\((?:[^()"]|"(?:[^"\\]|\\.)*")*\)/g;
const DOWNLOAD_EXT = /\.(zip|exe|dmg|msi|pkg|deb|rpm|apk|pdf|csv|xlsx?|docx?|tar|gz|7z|iso|bat|sh|ps1|jar)$/i;

function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/** Why this action is of an always-ask kind on `origin`; null when it is not. */
export function alwaysAskKindOf(action: Action, origin: string): string | null {
  if (action.type === 'goto') {
    const to = originOf(action.url, origin);
    if (to !== origin) return `it opens another origin (${to ?? action.url})`;
    const path = new URL(action.url, origin).pathname;
    return DOWNLOAD_EXT.test(path) ? 'it opens a download' : null;
  }
  if (!('target' in action) || action.target?.kind !== 'semantic') return null;
  const { role, name } = action.target;
  if (action.type === 'fill' || action.type === 'press' || action.type === 'clear') {
    const kind = secretKindOf({ role, name }, true);
    if (kind !== null) return `it types into a ${kind === 'one-time-code' ? 'one-time-code' : kind} field ("${name}")`;
  }
  if (/\b(upload|choose file|attach)\b/i.test(name) && (action.type === 'click' || action.type === 'fill')) return `it uses a file input ("${name}")`;
  return null;
}

/** Every action written in semantic form in a JSON value: whole strings and calls inside texts. */
export function actionsIn(value: unknown): { text: string; action: Action }[] {
  const out: { text: string; action: Action }[] = [];
  for (const s of stringsIn(value)) {
    const whole = parseAction(s);
    if (whole.ok) {
      out.push({ text: s, action: whole.action });
      continue;
    }
    if (!s.includes('(')) continue;
    for (const m of s.matchAll(EMBEDDED_CALL)) {
      const parsed = parseAction(m[0]);
      if (parsed.ok) out.push({ text: m[0], action: parsed.action });
    }
  }
  return out;
}

/** Why an item must wait for review, or null when it may be merged. */
export function holdReason(item: unknown, origin: string): string | null {
  for (const { text, action } of actionsIn(item)) {
    const why = alwaysAskKindOf(action, origin);
    if (why) return `it holds ${text}, an action that always asks: ${why}`;
  }
  return null;
}
