/**
 * "Record a demonstration": the person does the task in the page themselves
 * while Apprentice records each action; stopping says how it went. What was
 * recorded becomes experience (the learners distil and store it). Abandoning
 * keeps the recording as partial, never as a success.
 */
import { useState } from 'preact/hooks';
import type { Episode } from '../../core/episode/episode.ts';
import type { DemonstrationOutcome } from '../../core/agent/person-input.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText, isEnded } from './format.ts';

export interface DemonstrationControlsProps {
  client: UiClient;
  tabId: number | null;
  /** The task text typed in the Run tab. */
  task: string;
  /** The tab's current episode (agent or demonstration), if any. */
  episode: Episode | null;
  onEpisode(episode: Episode): void;
}

export const isRecording = (episode: Episode | null): boolean =>
  episode !== null && episode.kind === 'demonstration' && !isEnded(episode.status);

const STOPS: { outcome: DemonstrationOutcome; label: string; className?: string }[] = [
  { outcome: 'success', label: 'Stop: it worked', className: 'success' },
  { outcome: 'failure', label: 'Stop: it failed', className: 'danger' },
  { outcome: 'partial', label: 'Stop: partly done' },
  { outcome: 'abandoned', label: 'Abandon' },
];

export function DemonstrationControls({ client, tabId, task, episode, onEpisode }: DemonstrationControlsProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(fn: () => Promise<Episode>) {
    setPending(true);
    setError(null);
    try {
      onEpisode(await fn());
    } catch (err) {
      setError(errorText(err));
    } finally {
      setPending(false);
    }
  }

  const errorLine = error ? <p class="error" role="alert">{error}</p> : null;

  if (episode && isRecording(episode)) {
    const steps = episode.steps.filter((s) => s.chosen !== null).length;
    return (
      <section class="demonstration" aria-labelledby="demo-heading">
        <h3 id="demo-heading">Recording your demonstration</h3>
        <p role="status" aria-live="polite">
          Do the task in the page yourself; each action is recorded ({steps} so far). Passwords are never stored.
        </p>
        <div role="group" aria-label="Stop recording" class="verdict-buttons">
          {STOPS.map((s) => (
            <button
              key={s.outcome}
              type="button"
              class={s.className}
              disabled={pending}
              onClick={() => run(() => client.request('demo.stop', { episodeId: episode.id, outcome: s.outcome }))}
            >
              {s.label}
            </button>
          ))}
        </div>
        {errorLine}
      </section>
    );
  }
  // An agent episode is working in this tab: no recording over it.
  if (episode && !isEnded(episode.status)) return null;
  return (
    <div class="demonstration-start">
      <button
        type="button"
        disabled={tabId === null || pending || task.trim() === ''}
        onClick={() => tabId !== null && run(() => client.request('demo.start', { tabId, task: task.trim() }))}
      >
        Record a demonstration
      </button>
      <p class="help">Do the task yourself while Apprentice watches; the next attempts learn from what you did.</p>
      {errorLine}
    </div>
  );
}
