/**
 * The Run tab: type a task for the tab, start / pause / resume / stop, watch
 * the busy state while the model thinks, and decide each proposed step
 * (approve, pick another candidate, edit, reject). Ends with the verdict.
 */
import { episodeTokens } from '../../core/agent/token-budget.ts';
import { AskModeControl } from './ask-mode-control.tsx';
import type { AskMode } from '../../core/autonomy/ask-mode.ts';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Episode, StepRecord } from '../../core/episode/episode.ts';
import type { Settings } from '../../core/settings.ts';
import type { DecisionInput, Verdict } from '../../protocol/messages.ts';
import type { BackgroundConnector } from '../connector.ts';
import { errorText, isEnded, rankCandidates, refOfAction, statusText, wantsVerdict } from './format.ts';
import { CandidateList, StepContext, StepSummary } from './step-view.tsx';
import { DemonstrationControls, isRecording } from './demonstration-controls.tsx';
import { MetaTtlGuidePanel } from './metattl-guide-panel.tsx';
import { ReplayPlan } from './replay-plan.tsx';
import { isTeaching, TeachingControls } from './teaching-controls.tsx';

export interface RunTabProps {
  connector: BackgroundConnector;
  /** The tab the agent works in; null when there is none (no normal tab is active). */
  tabId: number | null;
  /** Origin of that tab, for the auto-approve switch before an episode exists. */
  origin: string | null;
  /** Safety net: while the model thinks, re-read the episode this often in case an event was missed. */
  pollMs?: number;
}

/** The step waiting for a decision, if any. */
export function pendingProposal(episode: Episode | null): StepRecord | null {
  if (!episode || episode.status !== 'awaiting_approval') return null;
  const last = episode.steps[episode.steps.length - 1];
  return last && last.chosen === null ? last : null;
}

export function RunTab({ connector, tabId, origin, pollMs = 2000 }: RunTabProps) {
  const { client } = connector;
  const [episode, setEpisode] = useState<Episode | null>(null);
  const [loading, setLoading] = useState(true);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [task, setTask] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editText, setEditText] = useState('');
  const [editError, setEditError] = useState<string | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const [runEvaluator, setRunEvaluator] = useState(false);
  const episodeId = useRef<string | null>(null);
  episodeId.current = episode?.id ?? null;

  useEffect(() => {
    let live = true;
    setEpisode(null);
    if (tabId === null) {
      setLoading(false);
      return;
    }
    setLoading(true);
    client.request('episode.current', { tabId }).then(
      (ep) => { if (live) { setEpisode(ep); if (ep) setTask(ep.task); } },
      (err: unknown) => { if (live) setError(errorText(err)); },
    ).finally(() => { if (live) setLoading(false); });
    return () => { live = false; };
  }, [client, tabId]);

  useEffect(() => {
    let live = true;
    client.request('settings.get', {}).then((s) => { if (live) setSettings(s); }, () => { /* the switch stays hidden */ });
    return () => { live = false; };
  }, [client]);

  useEffect(() => connector.subscribe((event) => {
    if (event.type === 'settings.updated') {
      setSettings(event.settings);
      return;
    }
    const ep = event.episode;
    setEpisode((prev) => {
      if (prev && ep.id === prev.id) return ep;
      // A new episode in our tab (started from another view of the same tab).
      if (tabId !== null && ep.tabId === tabId && (!prev || ep.startedAt >= prev.startedAt)) return ep;
      return prev;
    });
  }), [connector, tabId]);

  const status = episode?.status ?? null;
  useEffect(() => {
    if (status !== 'running' || !episode) return;
    const id = episode.id;
    const timer = setInterval(() => {
      client.request('episode.get', { episodeId: id }).then(
        (ep) => { if (ep && episodeId.current === id) setEpisode(ep); },
        () => { /* the next tick or an event will tell */ },
      );
    }, pollMs);
    return () => clearInterval(timer);
  }, [client, status, episode?.id, pollMs]);

  const proposal = pendingProposal(episode);
  const ranked = proposal ? rankCandidates(proposal.candidates, proposal.selection !== undefined) : [];
  // Rejected candidates stay listed (marked); Approve means the best one still open.
  const top = ranked.find((r) => !proposal?.rejected.includes(r.candidate.semantic)) ?? null;
  const proposalKey = proposal && episode ? `${episode.id}:${proposal.index}:${proposal.rejected.length}:${proposal.candidates.length}` : null;
  const shown = focused !== null ? proposal?.candidates[focused] ?? top?.candidate : top?.candidate;
  const highlightRef = shown ? refOfAction(shown.action) : null;

  // Prefill the edit field with the proposal, once per proposal.
  useEffect(() => {
    setEditText(top?.candidate.action ?? '');
    setEditError(null);
    setFocused(null);
  }, [proposalKey]);

  // Highlight the targeted element while a proposal is shown; clear it after.
  useEffect(() => {
    if (tabId === null || proposalKey === null) return;
    client.request('page.highlight', { tabId, ref: highlightRef }).catch(() => { /* best-effort */ });
  }, [client, tabId, proposalKey, highlightRef]);
  useEffect(() => {
    if (tabId === null || proposalKey === null) return;
    return () => { client.request('page.highlight', { tabId, ref: null }).catch(() => { /* best-effort */ }); };
  }, [client, tabId, proposalKey]);

  async function run(label: string, fn: () => Promise<Episode>, onError = setError): Promise<boolean> {
    setPending(label);
    setError(null);
    try {
      setEpisode(await fn());
      return true;
    } catch (err) {
      onError(errorText(err));
      return false;
    } finally {
      setPending(null);
    }
  }

  const decide = (decision: DecisionInput, onError = setError) =>
    episode ? run(`decide:${decision.kind}`, () => client.request('episode.decide', { episodeId: episode.id, decision }), onError) : Promise.resolve(false);

  function start(e: Event) {
    e.preventDefault();
    if (tabId === null || task.trim() === '') return;
    void run('start', () => client.request('episode.start', { tabId, task: task.trim() }));
  }

  async function submitEdit(e: Event) {
    e.preventDefault();
    setEditError(null);
    if (editText.trim() === '') {
      setEditError('Type an action, for example click([12]) or fill(<textbox "Email">, "me@example.com").');
      return;
    }
    if (!proposal) return;
    await decide({ kind: 'edit', action: editText.trim(), step: proposal.index }, setEditError);
  }

  const verdict = (v: Verdict) =>
    episode && run(`verdict:${v}`, () => client.request('episode.verdict', { episodeId: episode.id, verdict: v, runEvaluator }));

  const siteOrigin = episode?.origin ?? origin;
  async function setAskMode(mode: AskMode) {
    if (!siteOrigin) return;
    try {
      setSettings(await client.request('askMode.set', { origin: siteOrigin, mode }));
    } catch (err) {
      setError(errorText(err));
    }
  }

  const busy = status === 'running' && !isRecording(episode);
  const ended = status !== null && isEnded(status);
  const disabled = pending !== null;
  const doneSteps = episode ? episode.steps.filter((s) => s.chosen !== null) : [];

  return (
    <section class="run" aria-labelledby="run-heading">
      <h2 id="run-heading" class="visually-hidden">Run a task</h2>
      {tabId === null ? (
        <p class="error" role="alert">There is no web page tab to work on. Open a http(s) page and reopen Apprentice.</p>
      ) : null}
      {loading ? <p role="status" class="loading"><span class="spinner" aria-hidden="true" /> Loading…</p> : null}

      {!loading && (!episode || ended) ? (
        <form class="task-form" onSubmit={start}>
          <label for="task-input">Task for this tab</label>
          <textarea
            id="task-input"
            rows={2}
            value={task}
            placeholder="e.g. Sign up with the email me@example.com"
            onInput={(e) => setTask(e.currentTarget.value)}
            onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) start(e); }}
            disabled={tabId === null}
          />
          <button type="submit" class="primary" disabled={tabId === null || disabled || task.trim() === ''}>
            {episode ? 'Start again' : 'Start'}
          </button>
        </form>
      ) : null}

      {!loading ? <DemonstrationControls client={client} tabId={tabId} task={task} episode={episode} onEpisode={setEpisode} /> : null}

      {episode ? <MetaTtlGuidePanel client={client} origin={episode.origin} task={episode.task} refreshKey={`${episode.id}:${episode.status}`} /> : null}

      {episode ? (
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
          {!ended && !isRecording(episode) ? (
            <div class="controls" role="group" aria-label="Episode controls">
              {status === 'paused' ? (
                <button type="button" disabled={disabled} onClick={() => run('resume', () => client.request('episode.resume', { episodeId: episode.id }))}>Resume</button>
              ) : (
                <button type="button" disabled={disabled} onClick={() => run('pause', () => client.request('episode.pause', { episodeId: episode.id }))}>Pause</button>
              )}
              <button type="button" class="danger" disabled={disabled} onClick={() => run('stop', () => client.request('episode.stop', { episodeId: episode.id }))}>Stop</button>
            </div>
          ) : null}
          {episode.error ? <p class="error" role="alert">{episode.error}</p> : null}
        </div>
      ) : null}

      {error ? <p class="error" role="alert">{error}</p> : null}

      {episode && !ended && !isRecording(episode) ? (
        <TeachingControls client={client} episode={episode} hasProposal={proposal !== null} busy={disabled} onEpisode={setEpisode} />
      ) : null}

      {episode ? <ReplayPlan client={client} episode={episode} onEpisode={setEpisode} /> : null}

      {proposal && episode && !isTeaching(episode) ? (
        <section class="proposal" aria-labelledby="proposal-heading">
          <h3 id="proposal-heading">Proposed step {proposal.index + 1}</h3>
          <StepContext step={proposal} />
          <div class="decision-bar" role="group" aria-label="Decision">
            <button type="button" class="primary" disabled={disabled || !top} onClick={() => top && decide({ kind: 'approve', step: proposal.index, candidate: top.candidate.semantic })}>
              Approve{top ? <span class="visually-hidden"> {top.candidate.semantic}</span> : null}
            </button>
            <button type="button" class="danger" disabled={disabled || !top} onClick={() => top && decide({ kind: 'reject', index: top.index, step: proposal.index, candidate: top.candidate.semantic })}>
              Reject{top ? <span class="visually-hidden"> {top.candidate.semantic}</span> : null}
            </button>
          </div>
          <CandidateList
            step={proposal}
            onFocusCandidate={setFocused}
            renderActions={(r) => r.index === top?.index || proposal.rejected.includes(r.candidate.semantic) ? null : (
              <button type="button" disabled={disabled} onClick={() => decide({ kind: 'pick', index: r.index, step: proposal.index, candidate: r.candidate.semantic })}>
                Run this instead<span class="visually-hidden"> ({r.candidate.semantic})</span>
              </button>
            )}
          />
          <form class="edit-form" onSubmit={submitEdit}>
            <label for="edit-action">Edit the action</label>
            <input
              id="edit-action"
              type="text"
              value={editText}
              spellcheck={false}
              aria-invalid={editError ? 'true' : 'false'}
              aria-describedby={editError ? 'edit-error' : 'edit-help'}
              onInput={(e) => setEditText(e.currentTarget.value)}
            />
            <button type="submit" disabled={disabled}>Run edited</button>
            <p id="edit-help" class="help">Ref form <code>click([12])</code> or semantic form <code>click(&lt;button "Sign in"&gt;)</code>. Checked before it runs.</p>
            {editError ? <p id="edit-error" class="error" role="alert">{editError}</p> : null}
          </form>
        </section>
      ) : null}

      {episode && ended ? (
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
                <input type="checkbox" checked={runEvaluator} onChange={(e) => setRunEvaluator(e.currentTarget.checked)} />
                Also run the model evaluator (if a model is configured)
              </label>
            </>
          ) : (
            <p class="outcome" data-outcome={episode.status}>Outcome: {statusText(episode.status)}.</p>
          )}
        </section>
      ) : null}

      {siteOrigin ? (
        <AskModeControl origin={siteOrigin} settings={settings} onChange={(m) => void setAskMode(m)} />
      ) : null}

      {doneSteps.length > 0 ? (
        <section class="steps" aria-labelledby="steps-heading">
          <h3 id="steps-heading">Steps so far</h3>
          <ol class="step-list">{doneSteps.map((s) => <StepSummary key={s.index} step={s} />)}</ol>
        </section>
      ) : null}
    </section>
  );
}
