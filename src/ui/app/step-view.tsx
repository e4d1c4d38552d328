/**
 * How one step reads: its candidates ranked by adjusted probability, each with
 * base and adjusted logits and each learner's evidence about it (its view in
 * learner-evidence.tsx), plus what CER replayed, the learners' step evidence
 * and what they noted. Used live (with decision buttons) and in the history.
 */
import type { ComponentChildren } from 'preact';
import type { TargetFingerprint } from '../../core/page/target-fingerprint.ts';
import type { StepRecord } from '../../core/episode/episode.ts';
import { ProbabilityChart } from './charts.tsx';
import { fmtNum, fmtPct, rankCandidates, type RankedCandidate } from './format.ts';
import { CandidateEvidence, LearnerEvidence } from './learner-evidence.tsx';
import { choiceDistribution } from '../../core/learning/proposal-choice.ts';

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
const SELECTION_TITLE = {
  sampled: 'Drawn from Softmax(z′/T) over the open candidates (Algorithm 1)',
  argmax: 'The highest adjusted logit (argmax setting)',
  exploited: 'Memory holds a return of at least half a success for this action here: repeated, not sampled',
} as const;
const BARRED_TEXT = { rejected: 'barred: you rejected it here', failed: 'barred: blamed for a failure here', loop: 'barred: leads round a loop' } as const;

export interface CandidateCardProps {
  step: StepRecord;
  ranked: RankedCandidate;
  /** Buttons for this candidate (live proposals only). */
  actions?: ComponentChildren;
  onFocusCandidate?: (index: number | null) => void;
}

export function CandidateCard({ step, ranked, actions, onFocusCandidate }: CandidateCardProps) {
  const c = ranked.candidate;
  const rejected = step.rejected.includes(c.semantic);
  const labelId = `cand-${step.index}-${ranked.index}`;
  return (
    <li
      class={`candidate${ranked.rank === 1 ? ' top' : ''}${rejected ? ' rejected' : ''}`}
      aria-labelledby={labelId}
      data-index={ranked.index}
      onMouseEnter={() => onFocusCandidate?.(ranked.index)}
      onMouseLeave={() => onFocusCandidate?.(null)}
      onFocusCapture={() => onFocusCandidate?.(ranked.index)}
    >
      <div class="cand-head">
        <span class="rank" aria-hidden="true">#{ranked.rank}</span>
        <span id={labelId} class="semantic">
          <span class="visually-hidden">Rank {ranked.rank}: </span>
          {c.semantic}
        </span>
        <span class={`badge origin-${c.origin}`} title={c.origin === 'memory' ? 'Added from memory (Eq. 23)' : 'Proposed by the model'}>
          {c.origin}
        </span>
        {rejected ? <span class="badge rejected-badge">rejected</span> : null}
        {ranked.rank === 1 && step.selection ? (
          <span class="badge sampled" title={SELECTION_TITLE[step.selection.how]}>
            {step.selection.how === 'sampled' ? `sampled (p = ${fmtPct(step.selection.probability)}, T = ${fmtNum(step.selection.temperature, 1)})` : SELECTION_TEXT[step.selection.how]}
          </span>
        ) : null}
        {c.barred ? <span class="badge barred" title="Not proposed here while another candidate is open">{BARRED_TEXT[c.barred]}</span> : null}
      </div>
      {c.remembered ? <p class="note">Remembered as <code>{c.remembered}</code>; on this page it acts on the element shown.</p> : null}
      <code class="ref-action">{c.action}</code>
      {c.target ? <TargetDetails target={c.target} /> : null}
      {c.rationale ? (
        <p class="rationale">
          <span class="badge model-text" title="Written by the model; page text may have shaped it. Judge the action, not the reason.">model's words</span> {c.rationale}
        </p>
      ) : null}
      <dl class="numbers">
        {chosenFromText(step, ranked.index) !== null ? (
          <div><dt title="The distribution the proposal was actually drawn from">Chosen from p</dt><dd data-field="chosenFrom">{chosenFromText(step, ranked.index)}</dd></div>
        ) : null}
        <div><dt>Adjusted p</dt><dd data-field="adjustedProb">{fmtPct(c.adjustedProb)}</dd></div>
        <div><dt>Base p</dt><dd data-field="baseProb">{fmtPct(c.baseProb)}</dd></div>
        <div><dt>Base logit</dt><dd data-field="baseLogit">{fmtNum(c.baseLogit)}</dd></div>
        <div><dt>Adjusted logit</dt><dd data-field="adjustedLogit">{fmtNum(c.adjustedLogit)}</dd></div>
      </dl>
      <details class="evidence">
        <summary>Evidence</summary>
        <CandidateEvidence step={step} candidate={c} />
      </details>
      {actions ? <div class="cand-actions">{actions}</div> : null}
    </li>
  );
}

export interface CandidateListProps {
  step: StepRecord;
  renderActions?: (ranked: RankedCandidate) => ComponentChildren;
  onFocusCandidate?: (index: number | null) => void;
}

export function CandidateList({ step, renderActions, onFocusCandidate }: CandidateListProps) {
  const ranked = rankCandidates(step.candidates, step.selection !== undefined);
  if (ranked.length === 0) return <p class="empty">No candidates were recorded for this step.</p>;
  return (
    <>
      <ol class="candidates" aria-label={`Candidates for step ${step.index + 1}, ${step.selection ? 'the proposal first' : 'by adjusted probability'}`}>
        {ranked.map((r) => (
          <CandidateCard
            key={r.index}
            step={step}
            ranked={r}
            actions={renderActions?.(r)}
            {...(onFocusCandidate ? { onFocusCandidate } : {})}
          />
        ))}
      </ol>
      <ProbabilityChart ranked={ranked} chosenFrom={chosenFrom(step)} />
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

/** Step-level context: source of logits, CER replay, loops, notes, and each learner's step evidence. */
export function StepContext({ step }: { step: StepRecord }) {
  return (
    <div class="step-context">
      {step.autonomy ? (
        <p class={`note autonomy ${step.autonomy.ran ? 'ran' : 'asked'}`} data-testid="autonomy-reason">
          {step.autonomy.ran ? 'Ran without asking: ' : 'Asks because '}{step.autonomy.reason}.
        </p>
      ) : null}
      <p class="meta">logits: {step.logitSource}</p>
      {step.modelCalls > 0 ? (
        <p class="meta" data-testid="step-tokens">
          Model: {step.modelCalls} call{step.modelCalls === 1 ? '' : 's'} · {step.promptTokens} prompt + {step.completionTokens} completion tokens
        </p>
      ) : null}
      {step.replayed.length > 0 ? (
        <p class="replayed">
          Replayed experience in the prompt: {step.replayed.map((id, i) => <span key={id}>{i > 0 ? ', ' : ''}<code>{id}</code></span>)}
        </p>
      ) : null}
      {step.loop ? (
        <p class="note loop-warning" role="status">
          Loop: the page is back to how it was before step {step.loop.since + 1}, {step.loop.length} step{step.loop.length === 1 ? '' : 's'} without progress.
          {step.loop.repeated.length > 0 ? ` Not proposed again here: ${step.loop.repeated.join('; ')}.` : ''}
        </p>
      ) : null}
      {step.learningNotes.length > 0 ? (
        <ul class="notes" aria-label="Learning notes">
          {step.learningNotes.map((n, i) => <li key={i}>{n}</li>)}
        </ul>
      ) : null}
      {step.rejected.length > 0 ? (
        <p class="note">Rejected here: {step.rejected.join('; ')}</p>
      ) : null}
      <LearnerEvidence step={step} />
    </div>
  );
}

const DECISION_TEXT = { approved: 'approved', auto: 'ran unasked', picked: 'picked', edited: 'edited', rejected: 'rejected', demonstrated: 'demonstrated' } as const;

/** How the step's action came about: a Show me correction and a take-over say so. */
function decisionText(step: StepRecord): string {
  if (step.chosen?.correction === 'show') return 'shown';
  if (step.takeOver) return step.takeOver.learn ? 'taken over' : 'taken over, not learned';
  return step.chosen ? DECISION_TEXT[step.chosen.decision] : '';
}

/** A finished step in one line, with its full record on demand. */
export function StepSummary({ step }: { step: StepRecord }) {
  return (
    <li class="step-summary">
      <details>
        <summary>
          <span class="step-no">Step {step.index + 1}</span>{' '}
          {step.chosen ? (
            <>
              <span class="semantic">{step.chosen.semantic}</span> <span class="badge">{decisionText(step)}</span>
            </>
          ) : (
            <span class="muted">no action</span>
          )}
          {step.result ? (
            step.result.ok ? <span class="ok"> ✓</span> : <span class="err"> ✗ {step.result.message}</span>
          ) : null}
          {step.reward !== null ? <span class="muted"> · r = {fmtNum(step.reward, 2, true)}</span> : null}
        </summary>
        <p class="meta"><code>{step.url}</code></p>
        <StepContext step={step} />
        <CandidateList step={step} />
      </details>
    </li>
  );
}
