/**
 * Show me as a decision. The step the person did in the page becomes the
 * pending step's executed action: a correction of kind 'show', stored like a
 * panel edit, so every learner sees it as it sees the panel's corrections.
 * The proposal it replaces gets its negative signal: it joins the step's
 * rejected actions, as a rejection in the panel does.
 */
import type { Action } from '../page/action.ts';
import { parseAction } from '../page/action-grammar.ts';
import { samePage } from '../page/same-page.ts';
import { describeError } from '../errors.ts';
import type { Episode, StepRecord } from '../episode/episode.ts';
import type { TargetFingerprint } from '../page/target-fingerprint.ts';
import { DecisionError } from './controller-types.ts';
import { recordedStep } from './demonstration-recorder.ts';
import type { RecordedAction } from './person-input.ts';

/** The episode with the shown step as the pending step's executed action, Show me over, and the action in both types. */
export function shownCorrection(episode: Episode, step: StepRecord, shown: RecordedAction): { episode: Episode; action: Action; semantic: string } {
  if (episode.teaching?.mode !== 'show') throw new DecisionError('Show me is not on for this episode');
  // A step on another page answers another question: the page changed without a recorded action.
  if (!samePage(step.url, shown.url)) throw new DecisionError(`the step was done on ${shown.url}, not on the page of the proposal (${step.url})`);
  let semantic: string;
  let target: TargetFingerprint | undefined;
  try {
    // The demonstrations' own validation: an http(s) page, a <role "name"> target, secrets masked.
    const recorded = recordedStep(shown, step.index, 0, 0).chosen!;
    semantic = recorded.semantic;
    target = recorded.target;
  } catch (err) {
    throw new DecisionError(describeError(err));
  }
  const parsed = parseAction(semantic);
  if (!parsed.ok) throw new DecisionError(`internal: a recorded step does not parse: ${parsed.error.message}`);
  const proposal = step.candidates.find((c) => !step.rejected.includes(c.semantic));
  const rejected = proposal && proposal.semantic !== semantic ? [...new Set([...step.rejected, proposal.semantic])] : step.rejected;
  const { teaching: _over, ...rest } = episode;
  const chosen = { action: semantic, semantic, decision: 'edited' as const, correction: 'show' as const, ...(target ? { target } : {}) };
  return {
    episode: { ...rest, status: 'running', steps: [...episode.steps.slice(0, -1), { ...step, rejected, chosen }] },
    action: parsed.action,
    semantic,
  };
}
