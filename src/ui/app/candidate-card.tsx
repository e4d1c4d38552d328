/**
 * One candidate, words first (issue 31): the action as a person says it, one
 * line on why it is offered, where it leads, the model's reason; the numbers
 * (chosen-from, base and adjusted probabilities and logits, the action's
 * grammar form) and each learner's evidence sit under a collapsed Details.
 */
import type { ComponentChildren } from 'preact';
import type { StepRecord } from '../../core/episode/episode.ts';
import type { TargetFingerprint } from '../../core/page/target-fingerprint.ts';
import { choiceDistribution } from '../../core/agent/proposal-choice.ts';
import { actionWords } from './action-words.ts';
import { explorationNote, whyLine } from './candidate-words.ts';
import { fmtNum, fmtPct, type RankedCandidate } from './format.ts';
import { CandidateEvidence } from './learner-evidence.tsx';

/** What the proposal was drawn from, per candidate index, and what to say about it; null before a proposal was chosen. */
export function chosenFrom(step: StepRecord): { p: number[]; rule: string | null } | null {
  if (!step.selection) return null;
  const p = choiceDistribution(step.candidates, step.selection);
  return { p, rule: step.selection.how === 'sampled' ? null : SELECTION_TEXT[step.selection.how] };
}

/** One candidate's share of the distribution the proposal came from, said plainly when a rule or a bar decided. */
function chosenFromText(step: StepRecord, index: number): string | null {
  const from = chosenFrom(step);
  if (!from) return null;
  const c = step.candidates[index]!;
  if (from.rule !== null) return index === 0 ? `100% (rule: ${from.rule})` : `0% (rule: ${from.rule} chose another)`;
  if (c.barred && (from.p[index] ?? 0) === 0) return '0% (barred)';
  return fmtPct(from.p[index] ?? 0);
}

const SELECTION_TEXT = { sampled: 'sampled', argmax: 'argmax', exploited: 'repeats what worked' } as const;
/** The proposal's badge, in words: how it came first. */
const SELECTION_WORDS = { sampled: 'exploring', argmax: 'likeliest', exploited: 'repeats what worked' } as const;
const SELECTION_TITLE = {
  sampled: 'Drawn at random by likelihood, to learn (sampling setting)',
  argmax: 'The likeliest open candidate',
  exploited: 'It worked from this very page before: repeated, not drawn',
} as const;
const BARRED_TEXT = { rejected: 'barred: you rejected it here', failed: 'barred: blamed for a failure here', loop: 'barred: leads round a loop' } as const;

export interface CandidateCardProps {
  step: StepRecord;
  ranked: RankedCandidate;
  /** The episode's task: the why line says what of it a candidate matches. */
  task: string;
  /** Buttons for this candidate (live proposals only). */
  actions?: ComponentChildren;
  /** Live: this is the candidate Approve runs (after a Reject, the next open one, not #1). */
  current?: boolean;
  onFocusCandidate?: (index: number | null) => void;
}

export function CandidateCard({ step, ranked, task, actions, current, onFocusCandidate }: CandidateCardProps) {
  const c = ranked.candidate;
  const rejected = step.rejected.includes(c.semantic);
  const labelId = `cand-${step.index}-${ranked.index}`;
  const exploring = ranked.rank === 1 ? explorationNote(step) : null;
  return (
    <li
      class={`candidate${(current ?? ranked.rank === 1) ? ' top' : ''}${rejected ? ' rejected' : ''}`}
      aria-current={current ? 'true' : undefined}
      aria-labelledby={labelId}
      data-index={ranked.index}
      data-semantic={c.semantic}
      onMouseEnter={() => onFocusCandidate?.(ranked.index)}
      onMouseLeave={() => onFocusCandidate?.(null)}
      onFocusCapture={() => onFocusCandidate?.(ranked.index)}
    >
      <div class="cand-head">
        <span class="rank" aria-hidden="true">#{ranked.rank}</span>
        <span id={labelId} class="semantic">
          <span class="visually-hidden">Rank {ranked.rank}: </span>
          {actionWords(c.semantic)}
        </span>
        {c.origin === 'memory' ? <span class="badge origin-memory" title="Added from what Apprentice remembers of this site">from memory</span> : null}
        {rejected ? <span class="badge rejected-badge">rejected</span> : null}
        {current ? <span class="badge current-badge">Approve runs this</span> : null}
        {ranked.rank === 1 && step.selection ? <span class="badge sampled" title={SELECTION_TITLE[step.selection.how]}>{SELECTION_WORDS[step.selection.how]}</span> : null}
        {c.barred ? <span class="badge barred" title="Not proposed here while another candidate is open">{BARRED_TEXT[c.barred]}</span> : null}
      </div>
      <p class="why" data-testid="why">{whyLine(step, c, task)}</p>
      {exploring ? <p class="note exploring" data-testid="exploring">{exploring}</p> : null}
      {c.remembered ? <p class="note">Remembered as {actionWords(c.remembered)}; on this page it acts on the element shown.</p> : null}
      {c.target ? <TargetDetails target={c.target} /> : null}
      {c.rationale ? (
        <p class="rationale">
          <span class="badge model-text" title="Written by the model; page text may have shaped it. Judge the action, not the reason.">model's words</span> {c.rationale}
        </p>
      ) : null}
      <details class="details">
        <summary>Details</summary>
        <CandidateNumbers step={step} ranked={ranked} />
        <CandidateEvidence step={step} candidate={c} />
      </details>
      {actions ? <div class="cand-actions">{actions}</div> : null}
    </li>
  );
}

/** The numbers behind a card: how the proposal was chosen, base and adjusted probabilities and logits, the grammar form. */
function CandidateNumbers({ step, ranked }: { step: StepRecord; ranked: RankedCandidate }) {
  const c = ranked.candidate;
  const from = chosenFromText(step, ranked.index);
  const selection = ranked.rank === 1 ? step.selection : undefined;
  return (
    <>
      {selection ? (
        <p class="meta" data-testid="selection">
          {selection.how === 'sampled' ? `sampled (p = ${fmtPct(selection.probability)}, T = ${fmtNum(selection.temperature, 1)})` : SELECTION_TEXT[selection.how]}
        </p>
      ) : null}
      <p class="meta">Action: <code class="ref-action">{c.semantic}</code> (on this page <code>{c.action}</code>)</p>
      <dl class="numbers">
        {from !== null ? <div><dt title="The distribution the proposal was actually drawn from">Chosen from p</dt><dd data-field="chosenFrom">{from}</dd></div> : null}
        <div><dt>Adjusted p</dt><dd data-field="adjustedProb">{fmtPct(c.adjustedProb)}</dd></div>
        <div><dt>Base p</dt><dd data-field="baseProb">{fmtPct(c.baseProb)}</dd></div>
        <div><dt>Base logit</dt><dd data-field="baseLogit">{fmtNum(c.baseLogit)}</dd></div>
        <div><dt>Adjusted logit</dt><dd data-field="adjustedLogit">{fmtNum(c.adjustedLogit)}</dd></div>
      </dl>
    </>
  );
}

/** Where the element leads: its link and origin, or where its form goes and how (what an approval is about). */
function TargetDetails({ target }: { target: TargetFingerprint }) {
  const origin = (url: string): string => {
    try {
      return new URL(url).origin;
    } catch {
      return url;
    }
  };
  return (
    <p class="target-details" data-testid="target-details">
      {target.href !== undefined ? <>Goes to <code>{target.href}</code> (origin <strong>{origin(target.href)}</strong>){target.download ? ', downloads' : ''}. </> : null}
      {target.formAction !== undefined ? <>Its form goes to <code>{target.formAction}</code> (origin <strong>{origin(target.formAction)}</strong>, {target.formMethod ?? 'get'}){target.submits ? '; this submits it' : ''}. </> : target.submits ? <>This submits a form. </> : null}
    </p>
  );
}
