/**
 * The autonomy gate: whether a proposed step runs without asking. It runs
 * unasked only when all of these hold (issue 24):
 * - the site's mode is "Ask only for what I haven't approved";
 * - the person approved or taught this action, on this very page (its whole
 *   URL but tracking keys: effect-url.ts) of this site, at least N times
 *   (default 2) — counted from their own decisions only (approval-history.ts),
 *   never from a word list, a model, or others' memory;
 * - they did not reject or correct it since, on any page of this type;
 * - it targets now the same element as when approved: role, name, link and
 *   form action (whole URLs but tracking keys), form method, submit behaviour
 *   (target-fingerprint.ts);
 * - it is not of an always-ask kind (always-ask.ts).
 * A never-approved action therefore always asks, whatever the page or the
 * model says. The word list of sensitive-actions.ts is only an extra guard:
 * an action whose name it flags needs its approvals from N different episodes.
 */
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { actionFingerprint, fingerprintChanges } from '../page/target-fingerprint.ts';
import { effectUrl } from '../page/effect-url.ts';
import { actionKey, type PersonDecision } from './approval-history.ts';
import { alwaysAskReason, type AlwaysAskMark } from './always-ask.ts';
import type { AskMode } from './ask-mode.ts';

export interface AutonomyInput {
  mode: AskMode;
  /** N: approvals needed (settings, default 2). */
  approvalsNeeded: number;
  /** The person's own decisions on this site (personDecisionsOf); nothing else may be passed here. */
  history: readonly PersonDecision[];
  marks: readonly AlwaysAskMark[];
  /** The page as it is now, and its page type. */
  observation: Pick<PageObservation, 'url' | 'nodes' | 'focusedRef'>;
  regUrl: string;
  /** The proposal in ref form (resolved on `observation`) and in semantic form. */
  action: Action;
  semantic: string;
  /** The previous step's URL: a step right after arriving from another origin asks. */
  previousUrl?: string | null;
  /** The extra guard's finding (a word of the sensitive-word list in the name), or null. */
  flaggedWord?: string | null;
}

export interface AutonomyVerdict {
  run: boolean;
  /** Why it ran unasked, or why it asks, in words for the panel. */
  reason: string;
}

const ask = (reason: string): AutonomyVerdict => ({ run: false, reason });

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const times = (n: number): string => `${n}×`;

export function earnedAutonomy(input: AutonomyInput): AutonomyVerdict {
  if (input.mode === 'off') return ask('Apprentice is off on this site');
  if (input.mode === 'every-step') return ask('this site is set to ask every step');
  const origin = originOf(input.observation.url);
  if (input.previousUrl && originOf(input.previousUrl) !== origin) return ask('the page came from another origin since the last step');
  const always = alwaysAskReason(input.action, input.semantic, input.observation, input.marks);
  if (always !== null) return ask(`always asks: ${always}`);

  const key = actionKey(input.semantic);
  // A rejection counts on every page of the type; an approval only on its own page.
  const ofType = input.history.filter((d) => d.origin === origin && d.regUrl === input.regUrl && d.action === key);
  let lastBad = -1;
  ofType.forEach((d, i) => {
    if (d.verdict === 'rejected' || d.verdict === 'corrected') lastBad = i;
  });
  const page = effectUrl(input.observation.url);
  const sinceOfType = ofType.slice(lastBad + 1).filter((d) => d.verdict === 'approved' || d.verdict === 'taught');
  const since = sinceOfType.filter((d) => effectUrl(d.url) === page);
  const needed = Math.max(1, input.approvalsNeeded);
  if (ofType.length === 0) return ask('you have not approved this here yet');
  if (lastBad >= 0 && sinceOfType.length === 0) return ask(`you ${ofType[lastBad]!.verdict} it here; it needs ${needed} approvals after that`);
  if (since.length === 0 && sinceOfType.length > 0) {
    return ask(`you approved it on ${sinceOfType.at(-1)!.url}, not on this page (a page of the same type is not the same page)`);
  }

  const now = actionFingerprint(input.action, input.observation);
  // A press without a target acts on the focused element: when something has focus, that element.
  const targeted = 'target' in input.action && input.action.target !== undefined;
  const onFocus = input.action.type === 'press' && !targeted && input.observation.focusedRef !== null;
  if ((targeted || onFocus) && now === null) return ask('its element is not on the page');
  const changes: string[] = [];
  const same = since.filter((d) => {
    // No element now: only approvals given with no element count (an Enter approved in one field is not one sent to nothing).
    if (now === null) return d.target === undefined;
    if (d.target === undefined) return false;
    const diff = fingerprintChanges(d.target, now, 'site');
    changes.push(...diff);
    return diff.length === 0;
  });
  const episodes = new Set(same.map((d) => d.episodeId)).size;
  const counted = input.flaggedWord ? episodes : same.length;
  if (counted >= needed) {
    const what = input.flaggedWord ? `in ${episodes} tasks` : times(same.length);
    return { run: true, reason: `you approved it ${what} on this page${now ? ', same target' : ''}` };
  }
  if (same.length === 0 && changes.length > 0) return ask(`the element changed since you approved it: ${[...new Set(changes)].join('; ')}`);
  if (input.flaggedWord) return ask(`its name says "${input.flaggedWord}": it needs approvals in ${needed} different tasks (${episodes} so far)`);
  return ask(`you approved it ${times(same.length)} here; ${needed} needed`);
}
