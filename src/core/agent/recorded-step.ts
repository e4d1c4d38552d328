/**
 * One action the person did in the page (a demonstration, a take-over, Show
 * me), as a step record. When the page layer sent the page as it was just
 * before the person acted, the step gets what a proposed step gets from its
 * observation at that moment: the page digest, the page key, the open marks,
 * and the effective state read against the page (a fill the page contradicts
 * is dropped; a fill the page emptied and took in after a later click keeps
 * that click). So memory files a shown step under the state an approved one
 * would have had, and a taught order on one URL is kept.
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import { fingerprintNames, type TargetFingerprint } from '../page/target-fingerprint.ts';
import { maskedFormData } from '../secrets/form-data.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import { pageKeyOf } from '../page/page-key.ts';
import { pageMarks } from '../page/page-marks.ts';
import { pageDigest } from '../secrets/page-digest.ts';
import { maskedAction } from '../secrets/mask-secrets.ts';
import { recordedStepRecord, type Episode, type StepRecord } from '../episode/episode.ts';
import { samePage } from '../page/same-page.ts';
import { computeEffectiveState, stateStepsOf } from './effective-state.ts';
import type { RecordedAction } from './person-input.ts';

/** A request the recorder cannot carry out: bad action text, unknown or finished episode. */
export class DemonstrationError extends Error {
  override name = 'DemonstrationError';
}

/**
 * Validates one recorded action and turns it into a step. The content script
 * already replaces a password field's text; a field whose name says it is
 * secret is masked here as well, so a real secret never reaches the store.
 */
export function recordedStep(step: RecordedAction, index: number, startedAt: number, latencyMs: number): StepRecord {
  let url: URL;
  try {
    url = new URL(step.url);
  } catch {
    throw new DemonstrationError(`"${step.url}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DemonstrationError(`"${step.url}" is not an http(s) page`);
  const parsed = parseAction(step.action.trim());
  if (!parsed.ok) throw new DemonstrationError(`"${step.action}" is not an action: ${parsed.error.message}`);
  // Typed into a field whose name says it is secret: masked (the page masked by type and autocomplete).
  const action = maskedAction(parsed.action)?.action ?? parsed.action;
  if ('target' in action && action.target?.kind === 'ref') {
    throw new DemonstrationError(`"${step.action}" targets a ref; a demonstration records <role "name"> targets`);
  }
  const semantic = formatAction(action);
  const title = step.title.replace(/\s+/g, ' ').trim();
  const before = step.before;
  return recordedStepRecord({
    index,
    url: step.url,
    regUrl: regularizeUrl(step.url).regUrl,
    ...(title ? { pageTitle: title } : {}),
    semantic,
    ...targetOf(action, step.target),
    // The page before the action is the record's page, as for a proposed step; else what the page layer reported.
    ...(before ? { pageMarks: pageMarks(before), pageDigest: pageDigest(before), pageKey: pageKeyOf(before) } : step.marks !== undefined ? { pageMarks: step.marks } : {}),
    decision: 'demonstrated',
    result: { ok: true, navigated: false },
    latencyMs,
    startedAt,
  });
}

/** The fingerprint, when it describes the element the action names (role and name); otherwise none, and the step does not count for autonomy. */
function targetOf(action: Action, target: TargetFingerprint | undefined): { target?: TargetFingerprint } {
  if (target === undefined || !('target' in action) || action.target?.kind !== 'semantic') return {};
  // The page layer's secret digests are unkeyed: only their masks are stored (secrets/form-data.ts).
  return fingerprintNames(target, action.target.role, action.target.name) ? { target: maskedFormData(target) } : {};
}

/**
 * The episode's steps with one more. The previous step is marked as having
 * navigated when the new one happened on another URL, and the new step's
 * effective state is computed as the agent loop does for its own steps: with
 * the page as it was before the action, when the page layer sent it.
 */
export function appendStep(episode: Episode, recorded: RecordedAction, now: number): StepRecord[] {
  const previous = episode.steps.at(-1);
  const step = recordedStep(recorded, episode.steps.length, now, now - (previous?.startedAt ?? episode.startedAt));
  const steps = [...episode.steps];
  if (previous?.result?.ok && !samePage(previous.url, recorded.url)) {
    steps[steps.length - 1] = { ...previous, result: { ...previous.result, navigated: true } };
  }
  const effectiveState = computeEffectiveState(stateStepsOf(steps), step.regUrl, recorded.before, step.pageMarks);
  return [...steps, { ...step, effectiveState }];
}
