/** The running episode's head: task, attempt, status, step counter, model tokens, and Pause / Resume / Stop. */
import { episodeTokens } from '../../core/agent/token-budget.ts';
import type { Episode } from '../../core/episode/episode.ts';
import type { Settings } from '../../core/settings.ts';
import { statusText } from './format.ts';

export interface EpisodeStatusProps {
  episode: Episode;
  settings: Settings | null;
  busy: boolean;
  /** Show Pause/Resume/Stop (not once ended, nor while recording a demonstration). */
  controls: boolean;
  disabled: boolean;
  onPause(): void;
  onResume(): void;
  /** Resume with this one step proposed by the offline policy (shown after a failure while a model is set up). */
  onResumeOffline?(): void;
  onStop(): void;
}

export function EpisodeStatus({ episode, settings, busy, controls, disabled, onPause, onResume, onResumeOffline, onStop }: EpisodeStatusProps) {
  // After a failure with a model set up, the step can be proposed without it (issue 31: a model answering in prose).
  const offerOffline = controls && onResumeOffline !== undefined && episode.status === 'paused' && episode.error !== null
    && !episode.teaching && settings !== null && settings.provider.preset !== 'offline';
  return (
    <div class="episode" aria-busy={busy ? 'true' : 'false'}>
      <div class="episode-head">
        <p class="task-line"><strong>{episode.task}</strong> <span class="muted">· attempt {episode.attempt}</span></p>
        <p class="status-line" role="status" aria-live="polite">
          {busy ? <span class="spinner" aria-hidden="true" /> : null}
          <span data-status={episode.status}>{statusText(episode.status)}</span>
          {' · '}
          <span class="step-counter">Step {episode.steps.length}{settings ? ` of ${settings.agent.maxSteps}` : ''}</span>
          {episodeTokens(episode) > 0 ? <span class="muted" data-testid="episode-tokens">{' · '}{episodeTokens(episode)} model tokens</span> : null}
        </p>
      </div>
      {controls ? (
        <div class="controls" role="group" aria-label="Episode controls">
          {/* While the person teaches in the page nothing runs, so there is nothing to pause. */}
          {episode.teaching ? null : episode.status === 'paused' ? (
            <button type="button" disabled={disabled} onClick={onResume}>Resume</button>
          ) : (
            <button type="button" disabled={disabled} onClick={onPause}>Pause</button>
          )}
          <button type="button" class="danger" disabled={disabled} onClick={onStop}>Stop</button>
        </div>
      ) : null}
      {episode.error ? <p class="error" role="alert">{episode.error}</p> : null}
      {offerOffline ? (
        <p>
          <button type="button" disabled={disabled} onClick={onResumeOffline}>Propose this step without the model</button>{' '}
          <span class="help">The offline policy proposes this one step; the model proposes the next.</span>
        </p>
      ) : null}
    </div>
  );
}
