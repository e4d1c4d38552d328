/**
 * Ending an episode in one click (issue 31). *Task is done*: with an optional
 * answer, it ends the episode as a success — while a proposal waits, as the
 * step `send_msg_to_user(answer)` (so the learners see that finishing was right
 * here), otherwise with the verdict alone. *Stop* asks how it went: a verdict
 * is learned from like any other; Skip just stops.
 */
import { useRef, useState } from 'preact/hooks';
import type { Episode, Verdict } from '../../core/episode/episode.ts';
import { formatAction } from '../../core/page/action-grammar.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { isEnded } from './format.ts';
import { usePanelKeys } from './panel-keys.ts';
import { pendingProposal } from './proposal-panel.tsx';

/** Ends the episode as a success through the ordinary lifecycle; `answer` may be empty. */
export async function markDone(client: UiClient, episode: Episode, answer: string, runEvaluator: boolean): Promise<Episode> {
  const text = answer.trim();
  let current = episode;
  const pending = pendingProposal(current);
  if (pending) {
    const action = formatAction({ type: 'send_msg_to_user', text });
    current = await client.request('episode.decide', { episodeId: current.id, decision: { kind: 'edit', action, step: pending.index, done: true } });
  } else if (current.status === 'running') {
    // Stop the step being thought about before closing.
    current = await client.request('episode.pause', { episodeId: current.id });
  }
  if (isEnded(current.status) && current.status !== 'awaiting_verdict') return current;
  const withAnswer = text !== '' && current.answer === null ? { answer: text } : {};
  return client.request('episode.verdict', { episodeId: current.id, verdict: 'success', runEvaluator, ...withAnswer });
}

/**
 * The Run tab's handlers for Stop (pause, then ask), the verdict after it
 * (or Skip) and Task is done; `run` is the tab's request wrapper.
 */
export function finishActions(input: {
  client: UiClient;
  episode: Episode | null;
  runEvaluator: boolean;
  run(label: string, fn: () => Promise<Episode>): Promise<boolean>;
  setStopping(episodeId: string | null): void;
}) {
  const { client, episode, runEvaluator, run, setStopping } = input;
  const stop = () => {
    if (!episode) return;
    setStopping(episode.id);
    if (episode.status === 'running' || episode.status === 'awaiting_approval') void run('pause', () => client.request('episode.pause', { episodeId: episode.id }));
  };
  const stopWith = (v: Verdict | null) => {
    if (!episode) return;
    const request = v === null
      ? () => client.request('episode.stop', { episodeId: episode.id })
      : () => client.request('episode.verdict', { episodeId: episode.id, verdict: v, runEvaluator });
    void run(v === null ? 'stop' : `verdict:${v}`, request).then((ok) => { if (ok) setStopping(null); });
  };
  const done = (answer: string) => { if (episode) void run('done', () => markDone(client, episode, answer, runEvaluator)); };
  return { stop, stopWith, done };
}

export interface DoneControlProps {
  disabled: boolean;
  onDone(answer: string): void;
}

/** "Task is done" with an optional answer; D moves here. */
export function DoneControl({ disabled, onDone }: DoneControlProps) {
  const [answer, setAnswer] = useState('');
  const field = useRef<HTMLInputElement>(null);
  usePanelKeys({ d: () => field.current?.focus() }, !disabled);
  return (
    <form class="done-form" onSubmit={(e) => { e.preventDefault(); onDone(answer); }}>
      <label for="done-answer">Answer, if the task asked for one (optional)</label>
      <input id="done-answer" ref={field} type="text" value={answer} onInput={(e) => setAnswer(e.currentTarget.value)} />
      <button type="submit" class="success" disabled={disabled} aria-keyshortcuts="d">
        Task is done <kbd aria-hidden="true">D</kbd>
      </button>
      <p class="help">Ends the task as a success, so Apprentice learns it was finished here.</p>
    </form>
  );
}

export interface StopVerdictProps {
  disabled: boolean;
  onVerdict(verdict: Verdict): void;
  onSkip(): void;
}

/** After Stop: how did it go? A verdict is learned from; Skip stops without one. */
export function StopVerdict({ disabled, onVerdict, onSkip }: StopVerdictProps) {
  return (
    <section class="stop-verdict" aria-labelledby="stop-verdict-heading">
      <h3 id="stop-verdict-heading">Stopped. How did it go?</h3>
      <p>Apprentice learns from your answer; skip if you are not sure.</p>
      <div role="group" aria-label="Verdict after stopping" class="verdict-buttons">
        <button type="button" class="success" disabled={disabled} onClick={() => onVerdict('success')}>Success</button>
        <button type="button" class="danger" disabled={disabled} onClick={() => onVerdict('failure')}>Failure</button>
        <button type="button" disabled={disabled} onClick={() => onVerdict('partial')}>Partly</button>
        <button type="button" disabled={disabled} onClick={onSkip}>Skip</button>
      </div>
    </section>
  );
}
