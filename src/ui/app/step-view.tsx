/**
 * How one step reads: its candidates ranked by adjusted probability, each with
 * base and adjusted logits and each learner's evidence about it (its view in
 * learner-evidence.tsx), plus the replayed experience, the learners' step evidence
 * and what they noted. Used live (with decision buttons) and in the history.
 */
import type { ComponentChildren } from 'preact';
import type { StepRecord } from '../../core/episode/episode.ts';
import { ProbabilityChart } from './charts.tsx';
import { fmtNum, rankCandidates, type RankedCandidate } from './format.ts';
import { LearnerEvidence } from './learner-evidence.tsx';
import { CandidateCard, chosenFrom } from './candidate-card.tsx';
import { actionWords } from './action-words.ts';

export { CandidateCard, chosenFrom, type CandidateCardProps } from './candidate-card.tsx';

export interface CandidateListProps {
  step: StepRecord;
  /** The episode's task (the cards' why lines quote what of it a candidate matches). */
  task?: string;
  renderActions?: (ranked: RankedCandidate) => ComponentChildren;
  /** Live: the candidate index Approve runs (marked on its card). */
  current?: number | null;
  onFocusCandidate?: (index: number | null) => void;
}

export function CandidateList({ step, task = '', renderActions, current, onFocusCandidate }: CandidateListProps) {
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
            task={task}
            {...(current !== undefined ? { current: r.index === current } : {})}
            actions={renderActions?.(r)}
            {...(onFocusCandidate ? { onFocusCandidate } : {})}
          />
        ))}
      </ol>
      <ProbabilityChart ranked={ranked} chosenFrom={chosenFrom(step)} />
    </>
  );
}

/**
 * Step-level context, words first: why it asked, a loop, what was rejected,
 * how much remembered experience went into the prompt; the logit source,
 * model tokens, learning notes and each learner's step evidence (V(s)) under
 * Details. No internal ids (experience ids stay in the Memory tab).
 */
export function StepContext({ step }: { step: StepRecord }) {
  const replayed = step.replayed.length;
  return (
    <div class="step-context">
      {step.autonomy ? (
        <p class={`note autonomy ${step.autonomy.ran ? 'ran' : 'asked'}`} data-testid="autonomy-reason">
          {step.autonomy.ran ? 'Ran without asking: ' : 'Asks because '}{step.autonomy.reason}.
        </p>
      ) : null}
      {replayed > 0 ? (
        <p class="replayed" data-testid="replayed">Used {replayed} remembered experience{replayed === 1 ? '' : 's'} from this site.</p>
      ) : null}
      {step.loop ? (
        <p class="note loop-warning" role="status">
          Loop: the page is back to how it was before step {step.loop.since + 1}, {step.loop.length} step{step.loop.length === 1 ? '' : 's'} without progress.
          {step.loop.repeated.length > 0 ? ` Not proposed again here: ${step.loop.repeated.join('; ')}.` : ''}
        </p>
      ) : null}
      {step.rejected.length > 0 ? (
        <p class="note">Rejected here: {step.rejected.map(actionWords).join('; ')}</p>
      ) : null}
      <details class="details step-details">
        <summary>Step details</summary>
        <p class="meta">logits: {step.logitSource}</p>
        {step.modelCalls > 0 ? (
          <p class="meta" data-testid="step-tokens">
            Model: {step.modelCalls} call{step.modelCalls === 1 ? '' : 's'} · {step.promptTokens} prompt + {step.completionTokens} completion tokens
          </p>
        ) : null}
        {step.learningNotes.length > 0 ? (
          <ul class="notes" aria-label="Learning notes">
            {step.learningNotes.map((n, i) => <li key={i}>{n}</li>)}
          </ul>
        ) : null}
        <LearnerEvidence step={step} />
      </details>
    </div>
  );
}

const DECISION_TEXT = { approved: 'approved', auto: 'ran unasked', picked: 'picked', edited: 'edited', rejected: 'rejected', demonstrated: 'demonstrated' } as const;

/** How the step's action came about: a Show me correction and a take-over say so. */
function decisionText(step: StepRecord): string {
  if (step.chosen?.correction === 'show') return 'shown';
  if (step.chosen?.done === true) return 'task done';
  if (step.takeOver) return step.takeOver.learn ? 'taken over' : 'taken over, not learned';
  return step.chosen ? DECISION_TEXT[step.chosen.decision] : '';
}

/** A finished step in one line, with its full record on demand. */
export function StepSummary({ step, task = '' }: { step: StepRecord; task?: string }) {
  return (
    <li class="step-summary">
      <details>
        <summary>
          <span class="step-no">Step {step.index + 1}</span>{' '}
          {step.chosen ? (
            <>
              <span class="semantic" title={step.chosen.semantic}>{actionWords(step.chosen.semantic)}</span> <span class="badge">{decisionText(step)}</span>
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
        <CandidateList step={step} task={task} />
      </details>
    </li>
  );
}
