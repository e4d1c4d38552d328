/**
 * The benchmark's teacher protocol. Before each step of a taught attempt the
 * runner asks the suite's teacher what a person would do now, and enters the
 * answer through the agent's own decision path — the one the side panel uses
 * (`AgentController.decide`), never a side channel:
 *
 * - the proposal does it: approved (an *ask*: the person only said yes);
 * - another open candidate does it: picked (a *correction*);
 * - otherwise the teacher's action is entered as an edit (a *correction*);
 * - `null` (no opinion): the proposal is approved (an *ask*);
 * - `stop`: the attempt ends, and the reward decides; without a done oracle
 *   (`--no-oracle`) it is taught as "the task is done", which the agent runs;
 * - an element out of view that the agent's snapshot left out: the person
 *   scrolls to it first (a `scroll` edit), then does the step;
 * - an element with no ref in the agent's snapshot is *unteachable*: the
 *   attempt ends, and the step is reported with its selector.
 *
 * With `showMe` (the demo), a correction is Show me instead of a pick or an
 * edit: the teacher does the step in the page, and it is recorded as a
 * correction of kind 'show' (core/agent/shown-correction.ts).
 */
import type { Page } from 'playwright-core';
import type { AgentController } from '../src/core/agent/agent-controller.ts';
import { DecisionError } from '../src/core/agent/controller-types.ts';
import type { Episode, StepRecord } from '../src/core/episode/episode.ts';
import { formatAction, parseAction } from '../src/core/page/action-grammar.ts';
import { FINISH_ACTION, type Action } from '../src/core/page/action.ts';
import { TeacherStepSchema, type Teacher, type TeacherStep } from './suite.ts';

/** Where a teacher's element is in the agent's snapshot: its ref, or why it has none. */
export type LocateTeacherElement = (selector: string, nth: number) => Promise<{ ref: string } | { missing: string }>;

export interface UnteachableStep {
  /** 0-based index of the step. */
  step: number;
  selector: string;
  reason: string;
}

/** Does the teacher's step in the page as the person would, and says what it was (semantic form) and where. */
export type ShowInPage = (step: Exclude<TeacherStep, { do: 'answer' } | { do: 'stop' }>, action: Action) => Promise<{ action: string; url: string; title: string; navigated: boolean }>;

export interface TeachingCounts {
  asks: number;
  /** Corrections by kind: a picked candidate, an edited action, a step shown in the page. */
  picks: number;
  edits: number;
  shows: number;
  unteachable: UnteachableStep[];
  /** The teacher said stop. */
  stopped: boolean;
}

export const emptyTeaching = (): TeachingCounts => ({ asks: 0, picks: 0, edits: 0, shows: 0, unteachable: [], stopped: false });

/** What one teacher step means on this page: an action in ref form, stop, or unteachable. */
export async function resolveTeacherStep(
  step: TeacherStep,
  locate: LocateTeacherElement,
): Promise<{ kind: 'act'; action: Action } | { kind: 'stop' } | { kind: 'unteachable'; selector: string; reason: string }> {
  if (step.do === 'stop') return { kind: 'stop' };
  if (step.do === 'answer') return { kind: 'act', action: { type: 'send_msg_to_user', text: step.text } };
  if (step.do === 'press' && step.selector === undefined) return { kind: 'act', action: { type: 'press', keys: step.key } };
  const selector = step.selector!;
  const found = await locate(selector, step.nth ?? 0);
  if ('missing' in found) return { kind: 'unteachable', selector, reason: found.missing };
  const target = { kind: 'ref' as const, ref: found.ref };
  switch (step.do) {
    case 'click': case 'check': case 'uncheck': case 'hover':
      return { kind: 'act', action: { type: step.do, target } };
    case 'fill':
      return { kind: 'act', action: { type: 'fill', target, text: step.text } };
    case 'select':
      return { kind: 'act', action: { type: 'select_option', target, option: step.option } };
    case 'press':
      return { kind: 'act', action: { type: 'press', target, keys: step.key } };
  }
}

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();
/** A click on a checkbox does what check/uncheck asks (the teacher reads the box's state first). */
const TOGGLES = new Set(['click', 'check', 'uncheck']);

/** Whether a candidate (ref form, same snapshot) does what the teacher's action does. */
export function sameAction(teacher: Action, candidate: Action): boolean {
  const tt = 'target' in teacher ? teacher.target : undefined;
  const ct = 'target' in candidate ? candidate.target : undefined;
  if ((tt === undefined) !== (ct === undefined)) return false;
  if (tt && ct && (tt.kind !== 'ref' || ct.kind !== 'ref' || tt.ref !== ct.ref)) return false;
  if (teacher.type !== candidate.type && !(TOGGLES.has(teacher.type) && TOGGLES.has(candidate.type))) return false;
  switch (teacher.type) {
    case 'fill': return candidate.type === 'fill' && norm(candidate.text) === norm(teacher.text);
    case 'select_option': return candidate.type === 'select_option' && norm(candidate.option) === norm(teacher.option);
    case 'press': return candidate.type === 'press' && norm(candidate.keys) === norm(teacher.keys);
    // An answer that says what the teacher would say (the teacher's words inside it).
    case 'send_msg_to_user': return candidate.type === 'send_msg_to_user' && norm(candidate.text).includes(norm(teacher.text));
    default: return true;
  }
}

/** Index (into step.candidates) of the first open candidate doing the teacher's action, or -1. */
export function matchingCandidate(step: StepRecord, action: Action): number {
  return step.candidates.findIndex((c) => {
    if (step.rejected.includes(c.semantic)) return false;
    const parsed = parseAction(c.action);
    return parsed.ok && sameAction(action, parsed.action);
  });
}

/** Whether some candidate of the step acts on the element the action targets (same snapshot ref). */
function offered(step: StepRecord, action: Action): boolean {
  const target = 'target' in action ? action.target : undefined;
  if (target?.kind !== 'ref') return true;
  return step.candidates.some((c) => {
    const parsed = parseAction(c.action);
    return parsed.ok && 'target' in parsed.action && parsed.action.target?.kind === 'ref' && parsed.action.target.ref === target.ref;
  });
}

/** The executed actions so far, in semantic form (what the teacher is told as `done`). */
export const executedSemantics = (episode: Episode): string[] => episode.steps.filter((s) => s.chosen && s.result !== null).map((s) => s.chosen!.semantic);

/**
 * One taught step on a pending proposal: asks the teacher, then approves,
 * picks or edits through the controller. Returns the episode after the
 * decision, or `end` when the attempt must end here (stop, unteachable).
 */
export async function teachOneStep(input: {
  controller: AgentController;
  episode: Episode;
  teacher: Teacher;
  page: Page;
  locate: LocateTeacherElement;
  ctx: { instruction: string; seed: number; attempt: number };
  counts: TeachingCounts;
  showMe?: ShowInPage;
  /** No done oracle: the teacher's stop is taught as "the task is done" (the finish action), which the agent then runs. */
  finishOnStop?: boolean;
}): Promise<{ episode: Episode; end: boolean }> {
  const { controller, episode, counts } = input;
  const pending = episode.steps.at(-1)!;
  const done = executedSemantics(episode);
  const raw = await input.teacher(input.page, { ...input.ctx, step: done.length, done });
  if (raw === null) {
    counts.asks++;
    return { episode: await controller.decide(episode.id, { kind: 'approve' }), end: false };
  }
  const parsed = TeacherStepSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`the teacher answered ${JSON.stringify(raw)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const stopAsFinish = input.finishOnStop === true && parsed.data.do === 'stop';
  const resolved = stopAsFinish ? { kind: 'act' as const, action: FINISH_ACTION } : await resolveTeacherStep(parsed.data as TeacherStep, input.locate);
  if (resolved.kind === 'stop') {
    counts.stopped = true;
    return { episode, end: true };
  }
  if (resolved.kind === 'unteachable') {
    counts.unteachable.push({ step: done.length, selector: resolved.selector, reason: resolved.reason });
    return { episode, end: true };
  }
  const index = matchingCandidate(pending, resolved.action);
  const open = pending.candidates.filter((c) => !pending.rejected.includes(c.semantic));
  if (index >= 0 && pending.candidates[index] === open[0]) {
    counts.asks++;
    return { episode: await controller.decide(episode.id, { kind: 'approve', step: pending.index, candidate: open[0]!.semantic }), end: false };
  }
  const step = parsed.data as TeacherStep;
  if (input.showMe && step.do !== 'answer' && step.do !== 'stop' && !stopAsFinish) {
    // Show me: the person does it in the page; the recorded step is the correction.
    await controller.amend(episode.id, (e) => ({ ...e, teaching: { mode: 'show', since: Date.now() } }));
    const shown = await input.showMe(step, resolved.action);
    counts.shows++;
    return { episode: await controller.decide(episode.id, { kind: 'show', ...shown }), end: false };
  }
  if (index >= 0) {
    counts.picks++;
    return { episode: await controller.decide(episode.id, { kind: 'pick', index, step: pending.index, candidate: pending.candidates[index]!.semantic }), end: false };
  }
  // Not in what the agent was shown (no candidate acts on it: the snapshot's budget cut it) and off
  // screen: a person scrolls to it first, so that the attempt alone, reading the page from where it
  // is, finds it too. (The edit itself would resolve: the re-read before acting anchors on its target.)
  if (!offered(pending, resolved.action) && done.at(-1)?.startsWith('scroll(') !== true && 'selector' in parsed.data && parsed.data.selector) {
    const dy = await scrollToReach(input.page, parsed.data.selector, parsed.data.nth ?? 0);
    if (dy !== null) {
      counts.edits++;
      return { episode: await controller.decide(episode.id, { kind: 'edit', action: `scroll(0, ${dy})`, step: pending.index }), end: false };
    }
  }
  try {
    const next = await controller.decide(episode.id, { kind: 'edit', action: formatAction(resolved.action), step: pending.index });
    counts.edits++;
    return { episode: next, end: false };
  } catch (err) {
    // The element is on the page but not in the agent's snapshot (cut, or not a control it sees).
    if (!(err instanceof DecisionError)) throw err;
    const selector = 'selector' in parsed.data && parsed.data.selector ? parsed.data.selector : '(focused element)';
    // Far below the fold, the snapshot's budget leaves it out: a person scrolls to it first (once per step).
    const scrolled = done.at(-1)?.startsWith('scroll(') === true;
    const dy = scrolled || !('selector' in parsed.data) || !parsed.data.selector ? null : await scrollToReach(input.page, parsed.data.selector, parsed.data.nth ?? 0);
    if (dy !== null) {
      const next = await controller.decide(episode.id, { kind: 'edit', action: `scroll(0, ${dy})`, step: pending.index });
      counts.edits++;
      return { episode: next, end: false };
    }
    counts.unteachable.push({ step: done.length, selector, reason: err.message });
    return { episode, end: true };
  }
}

/**
 * How far a person scrolls to bring an element to the upper third of the
 * window: null when it is already in view, or not there. A page scroll,
 * which the agent can learn and replay as it is.
 */
async function scrollToReach(page: Page, selector: string, nth: number): Promise<number | null> {
  const box = await page.locator(selector).nth(nth).boundingBox({ timeout: 2_000 }).catch(() => null);
  const height = page.viewportSize()?.height ?? 800;
  if (box === null || (box.y >= 0 && box.y + box.height <= height)) return null;
  return Math.round(box.y - height / 3);
}
