/**
 * The person's own decisions, as the autonomy gate counts them. Only what
 * this person did in this browser counts: steps they approved, picked, typed
 * or showed, and what they rejected or corrected. Imported episodes,
 * another person's (team) memory, benchmark memory carried from elsewhere and
 * steps the gate ran by itself never count: a run unasked is not an approval,
 * or autonomy would feed on itself.
 *
 * The gate's input is `PersonDecision[]`, and `personDecisionsOf` is the one
 * place that makes them, from episodes this browser recorded.
 */
import type { Episode, StepRecord } from '../episode/episode.ts';
import { parseAction, formatAction } from '../page/action-grammar.ts';
import { canonicalChord } from '../page/key-names.ts';
import type { TargetFingerprint } from '../page/target-fingerprint.ts';

export type PersonVerdict = 'approved' | 'taught' | 'rejected' | 'corrected';

export interface PersonDecision {
  /** The origin of the page the step was on. */
  origin: string;
  /** The page's whole URL: an approval holds on this page only, not on others of its type (issue 30). */
  url: string;
  /** The page type (regularized URL) the step was on: the state the decision was made in. */
  regUrl: string;
  /** The action, in semantic form with key names made canonical (`actionKey`). */
  action: string;
  verdict: PersonVerdict;
  /** The element as approved (approved and taught only; absent on records older than the gate). */
  target?: TargetFingerprint;
  episodeId: string;
  /** Order: the step's start time, then its index. */
  at: number;
}

/** Episodes whose decisions are the person's own: recorded live here, shown by them, or the benchmark's teacher standing in for them. */
const OWN_KINDS: ReadonlySet<Episode['kind']> = new Set(['live', 'demonstration', 'bench']);

/** One text per action: semantic form, keys by their one name ("Spacebar" and "Space" are one press). */
export function actionKey(semantic: string): string {
  const parsed = parseAction(semantic);
  if (!parsed.ok) return semantic;
  const action = parsed.action;
  if (action.type === 'press') {
    const keys = canonicalChord(action.keys);
    if (keys) return formatAction({ ...action, keys: keys.map((k) => (k === ' ' ? 'Space' : k)).join('+') });
  }
  return formatAction(action);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function stepDecisions(episode: Episode, step: StepRecord): PersonDecision[] {
  const origin = originOf(step.url);
  if (origin === null) return [];
  const base = { origin, url: step.url, regUrl: step.regUrl, episodeId: episode.id, at: step.startedAt + step.index / 1000 };
  const out: PersonDecision[] = [];
  for (const semantic of step.rejected) out.push({ ...base, action: actionKey(semantic), verdict: 'rejected' });
  const chosen = step.chosen;
  if (chosen === null) return out;
  const proposal = step.candidates[0]?.semantic;
  const target = chosen.target !== undefined ? { target: chosen.target } : {};
  switch (chosen.decision) {
    case 'approved':
      out.push({ ...base, action: actionKey(chosen.semantic), verdict: 'approved', ...target });
      break;
    case 'picked':
    case 'edited':
    case 'demonstrated':
      out.push({ ...base, action: actionKey(chosen.semantic), verdict: chosen.decision === 'picked' ? 'approved' : 'taught', ...target });
      // Choosing something else over the proposal corrects the proposal.
      if (proposal !== undefined && actionKey(proposal) !== actionKey(chosen.semantic)) out.push({ ...base, action: actionKey(proposal), verdict: 'corrected', at: base.at - 1e-6 });
      break;
    case 'rejected':
      out.push({ ...base, action: actionKey(chosen.semantic), verdict: 'rejected' });
      break;
    case 'auto':
      break;
  }
  return out;
}

/** The person's own decisions in these episodes, oldest first. Episodes of other kinds (imported) are skipped. */
export function personDecisionsOf(episodes: readonly Episode[]): PersonDecision[] {
  const out: PersonDecision[] = [];
  for (const episode of episodes) {
    if (!OWN_KINDS.has(episode.kind)) continue;
    for (const step of episode.steps) out.push(...stepDecisions(episode, step));
  }
  return out.sort((a, b) => a.at - b.at);
}
