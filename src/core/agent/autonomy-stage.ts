/**
 * The controller's side of the autonomy gate: gathers what earnedAutonomy
 * needs for the proposal at the top of the pending step — the site's mode,
 * the person's own decisions there, the "always ask" marks, the extra guard
 * of the word list, actions whose last outcome is unknown — and asks it.
 */
import type { Episode } from '../episode/episode.ts';
import type { EpisodeStore } from '../episode/episode-store.ts';
import type { PageObservation } from '../page/observation.ts';
import { parseAction } from '../page/action-grammar.ts';
import { nodeActedOn } from '../page/node-acted-on.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import type { Settings } from '../settings.ts';
import { earnedAutonomy, type AutonomyVerdict } from '../autonomy/earned-autonomy.ts';
import { actionKey, personDecisionsOf } from '../autonomy/approval-history.ts';
import { askModeFor } from '../autonomy/ask-mode.ts';
import { destructiveWordIn } from './sensitive-actions.ts';
import { alwaysAskReason } from '../autonomy/always-ask.ts';
import { planStepAsks } from './replay-stage.ts';
import { unsettledUnknownOutcome } from '../autonomy/unknown-outcomes.ts';

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Whether the pending step's proposal may run without the person, and why (or why not). */
export async function autonomyVerdict(episodes: EpisodeStore, episode: Episode, observation: PageObservation, settings: Settings): Promise<AutonomyVerdict> {
  const step = episode.steps.at(-1);
  const top = step?.candidates[0];
  if (!step || !top) return { run: false, reason: 'nothing to run' };
  const origin = originOf(observation.url);
  if (origin === null) return { run: false, reason: 'the page has no origin' };
  const mode = askModeFor(settings.agent.askModes, origin);
  if (mode !== 'unapproved-only') return earnedAutonomy({ mode, approvalsNeeded: 1, history: [], marks: [], observation, regUrl: step.regUrl, action: { type: 'go_back' }, semantic: '' });
  const parsed = parseAction(top.action);
  if (!parsed.ok) return { run: false, reason: 'the proposal does not parse' };
  // A step whose outcome is unknown (a timeout, a restart mid-action) is never run again unasked.
  const unknown = episode.steps.some((s) => s.result?.ok === false && (s.result.code === 'outcome_unknown' || s.result.code === 'timeout') && s.chosen && actionKey(s.chosen.semantic) === actionKey(top.semantic));
  if (unknown) return { run: false, reason: 'its last run in this task has an unknown outcome' };
  // The state it was approved in is the page before it ran: once it ran here in this task, a repeat
  // (a second "Add to cart") is a new state, and asks.
  const repeat = episode.steps.some((s) => s.index < step.index && s.regUrl === step.regUrl && s.chosen && s.result?.ok === true && actionKey(s.chosen.semantic) === actionKey(top.semantic));
  if (repeat) return { run: false, reason: 'it already ran on this page in this task; a repeat asks' };
  const node = nodeActedOn(parsed.action, observation);
  const flaggedWord = node ? destructiveWordIn(node.name) ?? destructiveWordIn(node.shownText ?? '') : null;
  // Every site's episodes, not only those that started here: a task that started elsewhere (this one,
  // too) may hold a rejection on this site. personDecisionsOf reads each step's own origin, and the
  // gate keeps those of this one.
  const all = await episodes.list({ limit: 10_000 });
  const history = personDecisionsOf(all);
  if (unsettledUnknownOutcome(all, history, origin, actionKey(top.semantic))) {
    return { run: false, reason: 'its last run (in another task) has an unknown outcome; it asks until you approve or reject it again' };
  }
  return earnedAutonomy({
    mode,
    approvalsNeeded: settings.agent.approvalsNeeded,
    history,
    marks: settings.agent.alwaysAsk,
    observation,
    regUrl: regularizeUrl(observation.url).regUrl,
    action: parsed.action,
    semantic: top.semantic,
    previousUrl: episode.steps.at(-2)?.url ?? null,
    flaggedWord,
  });
}

/**
 * A step of a plan the person approved runs unasked only as approved
 * (replay-stage.ts), never an always-ask kind, and not where Apprentice is off.
 */
export function planStepVerdict(episode: Episode, observation: PageObservation, settings: Settings): AutonomyVerdict {
  const pending = episode.steps.at(-1)!;
  const top = pending.candidates[0];
  const parsed = top ? parseAction(top.action) : null;
  if (!top || !parsed?.ok) return { run: false, reason: 'the plan step does not parse' };
  const origin = originOf(observation.url);
  if (origin === null || askModeFor(settings.agent.askModes, origin) === 'off') return { run: false, reason: 'Apprentice is off on this site' };
  const always = alwaysAskReason(parsed.action, top.semantic, observation, settings.agent.alwaysAsk);
  if (always !== null) return { run: false, reason: `always asks: ${always}` };
  const asks = planStepAsks(episode, pending, parsed.action, observation);
  return asks === null ? { run: true, reason: 'a step of the plan you approved, as approved' } : { run: false, reason: asks };
}
