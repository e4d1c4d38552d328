/**
 * The Run tab: type a task for the tab, start / pause / resume / stop, watch
 * the busy state while the model thinks, and decide each proposed step
 * (approve, pick another candidate, edit, reject). Ends with the verdict.
 * The parts: use-tab-episode.ts (live state), task-form.tsx,
 * episode-status.tsx, proposal-panel.tsx, verdict-panel.tsx,
 * ask-mode-control.tsx.
 */
import { useState } from 'preact/hooks';
import type { Episode } from '../../core/episode/episode.ts';
import type { PanelDecision } from '../../core/agent/person-input.ts';
import type { Verdict } from '../../core/episode/episode.ts';
import type { BackgroundConnector } from '../connector.ts';
import { errorText, isEnded } from './format.ts';
import { StepSummary } from './step-view.tsx';
import { DemonstrationControls, isRecording } from './demonstration-controls.tsx';
import { LearnerEpisodePanels } from './learner-evidence.tsx';
import { ReplayPlan } from './replay-plan.tsx';
import { isTeaching, TeachingControls } from './teaching-controls.tsx';
import { useTabEpisode } from './use-tab-episode.ts';
import { TaskForm } from './task-form.tsx';
import { EpisodeStatus } from './episode-status.tsx';
import { pendingProposal, ProposalPanel } from './proposal-panel.tsx';
import { VerdictPanel } from './verdict-panel.tsx';
import { AskModeControl } from './ask-mode-control.tsx';
import { DoneControl, finishActions, StopVerdict } from './finish-controls.tsx';
import type { AskMode } from '../../core/autonomy/ask-mode.ts';

export { pendingProposal } from './proposal-panel.tsx';

export interface RunTabProps {
  connector: BackgroundConnector;
  /** The tab the agent works in; null when there is none (no normal tab is active). */
  tabId: number | null;
  /** Origin of that tab, for the ask-mode control before an episode exists. */
  origin: string | null;
  /** Safety net: while the model thinks, re-read the episode this often in case an event was missed. */
  pollMs?: number;
}

export function RunTab({ connector, tabId, origin, pollMs = 2000 }: RunTabProps) {
  const { client } = connector;
  const [task, setTask] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [runEvaluator, setRunEvaluator] = useState(false);
  /** The episode Stop was pressed for: it is paused while the person says how it went (or skips). */
  const [stopping, setStopping] = useState<string | null>(null);
  const { episode, setEpisode, loading, settings, setSettings } = useTabEpisode(connector, tabId, pollMs, { onLoadedTask: setTask, onError: setError });

  const status = episode?.status ?? null;
  const proposal = pendingProposal(episode);

  async function run(label: string, fn: () => Promise<Episode>, onError: (message: string) => void = setError): Promise<boolean> {
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

  const decide = (decision: PanelDecision, onError: (message: string) => void = setError) =>
    episode ? run(`decide:${decision.kind}`, () => client.request('episode.decide', { episodeId: episode.id, decision }), onError) : Promise.resolve(false);

  function start(e: Event) {
    e.preventDefault();
    if (tabId === null || task.trim() === '') return;
    void run('start', () => client.request('episode.start', { tabId, task: task.trim() }));
  }

  const verdict = (v: Verdict) =>
    episode && run(`verdict:${v}`, () => client.request('episode.verdict', { episodeId: episode.id, verdict: v, runEvaluator }));

  const { stop, stopWith, done } = finishActions({ client, episode, runEvaluator, run, setStopping });

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
  const asking = episode !== null && stopping === episode.id && !ended;
  const live = episode !== null && !ended && !isRecording(episode);

  return (
    <section class="run" aria-labelledby="run-heading">
      <h2 id="run-heading" class="visually-hidden">Run a task</h2>
      {tabId === null ? (
        <p class="error" role="alert">There is no web page tab to work on. Open a http(s) page and reopen Apprentice.</p>
      ) : null}
      {loading ? <p role="status" class="loading"><span class="spinner" aria-hidden="true" /> Loading…</p> : null}

      {!loading && (!episode || ended) ? (
        <TaskForm task={task} onTask={setTask} onStart={start} noTab={tabId === null} disabled={disabled} again={episode !== null} />
      ) : null}

      {!loading ? <DemonstrationControls client={client} tabId={tabId} task={task} episode={episode} onEpisode={setEpisode} /> : null}

      {episode ? <LearnerEpisodePanels client={client} episode={episode} /> : null}

      {episode ? (
        <EpisodeStatus
          episode={episode}
          settings={settings}
          busy={busy}
          controls={live && !asking}
          disabled={disabled}
          onPause={() => run('pause', () => client.request('episode.pause', { episodeId: episode.id }))}
          onResume={() => run('resume', () => client.request('episode.resume', { episodeId: episode.id }))}
          onResumeOffline={() => run('resume', () => client.request('episode.resume', { episodeId: episode.id, offlineOnce: true }))}
          onStop={stop}
        />
      ) : null}

      {asking ? <StopVerdict disabled={disabled} onVerdict={(v) => stopWith(v)} onSkip={() => stopWith(null)} /> : null}

      {error ? <p class="error" role="alert">{error}</p> : null}

      {episode && !ended && !isRecording(episode) ? (
        <TeachingControls client={client} episode={episode} hasProposal={proposal !== null} busy={disabled} onEpisode={setEpisode} />
      ) : null}

      {episode ? <ReplayPlan client={client} episode={episode} onEpisode={setEpisode} /> : null}

      {proposal && episode && !asking ? (
        <ProposalPanel client={client} tabId={tabId} episode={episode} proposal={proposal} disabled={disabled} decide={decide} hidden={isTeaching(episode)} />
      ) : null}

      {live && !asking ? <DoneControl disabled={disabled} onDone={done} /> : null}

      {episode && ended ? (
        <VerdictPanel episode={episode} disabled={disabled} runEvaluator={runEvaluator} onRunEvaluator={setRunEvaluator} onVerdict={(v) => void verdict(v)} />
      ) : null}

      {siteOrigin ? <AskModeControl origin={siteOrigin} settings={settings} onChange={(m) => void setAskMode(m)} /> : null}

      {doneSteps.length > 0 ? (
        <section class="steps" aria-labelledby="steps-heading">
          <h3 id="steps-heading">Steps so far</h3>
          <ol class="step-list">{doneSteps.map((s) => <StepSummary key={s.index} step={s} task={episode?.task ?? ''} />)}</ol>
        </section>
      ) : null}
    </section>
  );
}
