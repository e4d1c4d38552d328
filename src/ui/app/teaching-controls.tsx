/**
 * Show me and Take over in the Run tab. *Show me*: the proposal is wrong, so
 * the person does that one step in the page; it becomes the step's action (a
 * correction, like picking another candidate or editing) and the agent
 * proposes again. *Take over*: the person does several steps (a login, a
 * CAPTCHA), then presses Continue; "Don't learn from this" keeps those steps
 * from every learner. Passwords are masked as in demonstrations.
 */
import { useState } from 'preact/hooks';
import type { Episode } from '../../core/episode/episode.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText, isEnded } from './format.ts';
import { usePanelKeys } from './panel-keys.ts';

export interface TeachingControlsProps {
  client: UiClient;
  episode: Episode;
  /** A proposal is waiting for a decision: Show me can correct it. */
  hasProposal: boolean;
  /** Another request is under way in the Run tab. */
  busy: boolean;
  onEpisode(episode: Episode): void;
}

/** Whether the person is teaching in the page right now (the panel's decisions wait). */
export const isTeaching = (episode: Episode | null): boolean => episode?.teaching !== undefined && !isEnded(episode.status);

export function TeachingControls({ client, episode, hasProposal, busy, onEpisode }: TeachingControlsProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dontLearn, setDontLearn] = useState(false);

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
  const disabled = pending || busy;
  const errorLine = error ? <p class="error" role="alert">{error}</p> : null;
  const teaching = episode.teaching;
  const canShow = hasProposal && teaching === undefined && !isEnded(episode.status) && episode.kind !== 'demonstration';
  const startShow = () => { if (!disabled) void run(() => client.request('teach.start', { episodeId: episode.id, mode: 'show' })); };
  const cancelShow = () => { if (!disabled) void run(() => client.request('teach.cancel', { episodeId: episode.id })); };
  // S starts Show me; Escape in the panel cancels it (in the page, Escape may be the very step being shown).
  usePanelKeys({ s: startShow }, canShow && !disabled);
  usePanelKeys({ escape: cancelShow }, teaching?.mode === 'show' && !disabled);

  if (teaching?.mode === 'show') {
    return (
      <section class="teaching" aria-labelledby="teach-heading">
        <h3 id="teach-heading">Show me</h3>
        <p role="status" aria-live="polite">
          Do the step in the page. Your next action is recorded and used instead of the proposal; then Apprentice proposes again.
        </p>
        <button type="button" disabled={disabled} aria-keyshortcuts="Escape" onClick={cancelShow}>Cancel Show me <kbd aria-hidden="true">Esc</kbd></button>
        {errorLine}
      </section>
    );
  }
  if (teaching?.mode === 'takeover') {
    const done = episode.steps.filter((s) => s.takeOver && s.startedAt >= teaching.since).length;
    return (
      <section class="teaching" aria-labelledby="teach-heading">
        <h3 id="teach-heading">You have the page</h3>
        <p role="status" aria-live="polite">
          Do the steps yourself ({done} recorded so far), then press Continue. Passwords are never stored.
        </p>
        <label class="check">
          <input type="checkbox" checked={dontLearn} onChange={(e) => setDontLearn(e.currentTarget.checked)} />
          Don't learn from this
        </label>
        <button
          type="button"
          class="primary"
          disabled={disabled}
          onClick={() => run(() => client.request('teach.continue', { episodeId: episode.id, learn: !dontLearn }))}
        >
          Continue
        </button>
        {errorLine}
      </section>
    );
  }
  if (isEnded(episode.status) || episode.status === 'awaiting_verdict' || episode.kind === 'demonstration') return null;
  return (
    <div class="teaching-start" role="group" aria-label="Teach in the page">
      {hasProposal ? (
        <button type="button" disabled={disabled} aria-keyshortcuts="s" onClick={startShow}>
          Show me <kbd aria-hidden="true">S</kbd>
        </button>
      ) : null}
      <button type="button" disabled={disabled} onClick={() => run(() => client.request('teach.start', { episodeId: episode.id, mode: 'takeover' }))}>
        Take over
      </button>
      <p class="help">
        {hasProposal ? 'Show me: do this step yourself in the page. ' : ''}Take over: do several steps (a login, a CAPTCHA), then Continue.
      </p>
      {errorLine}
    </div>
  );
}
