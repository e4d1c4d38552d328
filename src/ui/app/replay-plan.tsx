/**
 * The Run tab's replay card (issue 25). Before a learned procedure replays,
 * the whole plan: its steps, the values it will type (editable), the origins
 * it touches; run it all once, or not at all (the policy runs as usual). While
 * and after it runs: "replayed from memory · 0 model calls" with the tokens
 * saved, where it stopped and why, or why it could not run.
 *
 * The plan's first step is also the pending proposal, with its own Approve:
 * that stays the one primary action (issue 31). The plan is a second choice,
 * worded as what it does differently — run every step without asking — and
 * offered only when there is more than one step; a one-step plan is its step.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Episode } from '../../core/episode/episode.ts';
import { replaySaving } from '../../core/replay/replay-port.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText } from './format.ts';
import { actionWords } from './action-words.ts';

export function ReplayPlan({ client, episode, onEpisode }: { client: UiClient; episode: Episode; onEpisode: (e: Episode) => void }) {
  const replay = episode.replay;
  const [values, setValues] = useState<Record<string, string>>(replay?.values ?? {});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValues(replay?.values ?? {}), [episode.id, replay?.status]);
  if (!replay) return null;

  if (replay.status === 'refused') {
    return <p class="replay-note" role="status" data-testid="replay-refused">{replay.message}</p>;
  }
  const { replayedSteps, tokensSaved } = replaySaving(episode);
  const decide = async (decision: { kind: 'approve'; values?: Record<string, string> } | { kind: 'decline' }) => {
    setBusy(true);
    setError(null);
    try {
      onEpisode(await client.request('episode.plan', { episodeId: episode.id, decision }));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  const edited = Object.keys(values).some((k) => values[k] !== replay.values[k]);
  const count = replay.steps.length;

  return (
    <section class="replay-plan" aria-labelledby="replay-heading" data-replay-status={replay.status}>
      <h3 id="replay-heading">Learned plan: {replay.template}</h3>
      {replay.status === 'offered' ? (
        <>
          <p>Apprentice can do this from memory, without asking the model. The whole plan:</p>
          <ol class="plan-steps" aria-label="Plan steps">
            {replay.steps.map((s, i) => (
              <li key={i}>
                {actionWords(s.action)} <span class="muted">on {s.regUrl}</span>
                <br /><code class="muted">{s.action}</code>
              </li>
            ))}
            {replay.endsWithAnswer ? <li class="muted">then the policy gives the answer</li> : null}
          </ol>
          {Object.keys(values).length > 0 ? (
            <fieldset class="plan-values">
              <legend>Values it will type</legend>
              {Object.entries(values).map(([name, value]) => (
                <label key={name} class="row">
                  {name}
                  <input type="text" value={value} aria-label={`Value ${name}`} onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })} />
                </label>
              ))}
            </fieldset>
          ) : null}
          <p class="muted">Origins it touches: {replay.origins.join(', ')}. Steps that always ask (secrets, payment, submitting, another origin, downloads) still ask.</p>
          <p class="help">{count > 1 ? `Approve the proposed step below to go one step at a time, or run all ${count} steps at once.` : 'Approve the proposed step below to do it from memory.'}</p>
          <div class="decision-bar" role="group" aria-label="Plan decision">
            {edited ? (
              <button type="button" disabled={busy} onClick={() => void decide({ kind: 'approve', values })}>Run the plan with these values</button>
            ) : count > 1 ? (
              <button type="button" disabled={busy} onClick={() => void decide({ kind: 'approve' })}>Run all {count} steps without asking</button>
            ) : null}
            <button type="button" disabled={busy} onClick={() => void decide({ kind: 'decline' })}>Don't use the plan</button>
          </div>
        </>
      ) : null}
      {replayedSteps > 0 ? (
        <p role="status" data-testid="replay-saving">
          replayed from memory · 0 model calls · {replayedSteps} step{replayedSteps === 1 ? '' : 's'}
          {tokensSaved === null ? ' · tokens saved: no model-driven step on this site yet to estimate from' : ` · about ${tokensSaved} tokens saved`}
        </p>
      ) : null}
      {replay.status === 'fell_back' && replay.fallback ? (
        <p class="replay-note" role="alert" data-testid="replay-fallback">
          Replay stopped at step {replay.fallback.step + 1} of {replay.steps.length}: {replay.fallback.reason}. The policy takes over from here.
        </p>
      ) : null}
      {replay.status === 'declined' ? <p class="muted">Plan declined: the policy proposes each step.</p> : null}
      {replay.status === 'finished' ? <p class="muted">Every step of the plan ran.</p> : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
    </section>
  );
}
