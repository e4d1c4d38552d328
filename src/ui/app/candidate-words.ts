/**
 * What a candidate card says in plain words before any number (issue 31):
 * the action as a person would say it (action-words.ts), one line on why it is offered, and
 * what it means when the proposal was drawn rather than the likeliest. Pure,
 * read from what the step already stores (the candidate's bars, each
 * learner's evidence through its CANDIDATE_WHY line, the task).
 */
import type { CandidateRecord, StepRecord } from '../../core/episode/episode.ts';
import { rankForProposal } from '../../core/agent/proposal-choice.ts';
import { parseAction } from '../../core/page/action-grammar.ts';
import { valueOf } from '../../core/page/action-vocabulary.ts';
import { CANDIDATE_WHY } from './learner-evidence.tsx';

const quoted = (s: string): string => `“${s}”`;

const words = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}@.]+/u).filter((w) => w.length >= 3);

/** The words of the element's name (or the typed value) that the task also says, in the name's order. */
export function taskMatch(semantic: string, task: string): { kind: 'name' | 'value'; text: string } | null {
  const parsed = parseAction(semantic);
  if (!parsed.ok) return null;
  const a = parsed.action;
  const inTask = new Set(words(task));
  const value = valueOf(a);
  if (value !== null && value.trim() !== '' && task.toLowerCase().includes(value.trim().toLowerCase())) return { kind: 'value', text: value.trim() };
  const target = 'target' in a ? a.target : undefined;
  if (!target || target.kind !== 'semantic') return null;
  const hits = target.name.split(/\s+/).filter((w) => words(w).some((x) => inTask.has(x)));
  return hits.length > 0 ? { kind: 'name', text: hits.join(' ').toLowerCase() } : null;
}

const BARRED_WHY = {
  rejected: 'You rejected this on this page.',
  failed: 'It was blamed for a failure on this page.',
  loop: 'It leads back round a loop on this page.',
} as const;

/** One plain line on why this candidate is offered, from the strongest evidence the step holds. */
export function whyLine(step: StepRecord, c: CandidateRecord, task: string): string {
  if (c.barred) return BARRED_WHY[c.barred];
  if (step.rejected.includes(c.semantic)) return BARRED_WHY.rejected;
  if (c.settled === true) return 'You did this here last time.';
  for (const [learnerId, evidence] of Object.entries(c.evidence ?? {})) {
    const said = CANDIDATE_WHY[learnerId]?.(evidence) ?? null;
    if (said !== null) return said;
  }
  const match = taskMatch(c.semantic, task);
  if (match) return match.kind === 'value' ? `Types ${quoted(match.text)} from your task.` : `Matches ${quoted(match.text)} in your task.`;
  if (c.origin === 'memory') return 'Remembered from an earlier task on this site.';
  return 'Suggested by the model.';
}

/**
 * When the proposal was drawn (sampling) and is not the likeliest open
 * candidate: says so, and names the likeliest by its card number.
 */
export function explorationNote(step: StepRecord): string | null {
  if (step.selection?.how !== 'sampled') return null;
  const top = rankForProposal(step.candidates)[0];
  if (top === undefined || top === 0) return null;
  return `Trying a less likely option to learn; the likeliest is #${top + 1}.`;
}
