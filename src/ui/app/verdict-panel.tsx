/** The end of an episode: its answer, and the person's verdict (optionally with the model evaluator) or the outcome. */
import type { Episode } from '../../core/episode/episode.ts';
import type { Verdict } from '../../core/episode/episode.ts';
import { statusText, wantsVerdict } from './format.ts';

export interface VerdictPanelProps {
  episode: Episode;
  disabled: boolean;
  /** Also run the model evaluator (kept by the Run tab across episodes). */
  runEvaluator: boolean;
  onRunEvaluator(on: boolean): void;
  onVerdict(verdict: Verdict): void;
}

export function VerdictPanel({ episode, disabled, runEvaluator, onRunEvaluator, onVerdict: verdict }: VerdictPanelProps) {
  return (
    <section class="verdict" aria-labelledby="verdict-heading">
      <h3 id="verdict-heading">End of episode</h3>
      {episode.answer !== null ? (
        <div class="answer"><h4>Answer</h4><p>{episode.answer}</p></div>
      ) : null}
      {wantsVerdict(episode.status) ? (
        <>
          <p>Mark how it went; the steps are rewarded accordingly.</p>
          <div role="group" aria-label="Verdict" class="verdict-buttons">
            <button type="button" class="success" disabled={disabled} onClick={() => verdict('success')}>Success</button>
            <button type="button" class="danger" disabled={disabled} onClick={() => verdict('failure')}>Failure</button>
            <button type="button" disabled={disabled} onClick={() => verdict('partial')}>Partly</button>
          </div>
          <label class="check">
            <input type="checkbox" checked={runEvaluator} onChange={(e) => onRunEvaluator(e.currentTarget.checked)} />
            Also run the model evaluator (if a model is configured)
          </label>
        </>
      ) : (
        <p class="outcome" data-outcome={episode.status}>Outcome: {statusText(episode.status)}.</p>
      )}
    </section>
  );
}
