/**
 * The History tab: past episodes grouped by site and task, each episode's
 * step records on demand, and the learning curve of a task.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Episode } from '../../core/episode/episode.ts';
import type { CurvePoint, EpisodeSummary } from '../../protocol/messages.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { LearningCurve } from './charts.tsx';
import { CostChart } from './cost-chart.tsx';
import { errorText, fmtTime, statusText } from './format.ts';
import { StepSummary } from './step-view.tsx';

interface Group {
  key: string;
  origin: string;
  task: string;
  episodes: EpisodeSummary[];
}

/** Episodes grouped by origin and task, most recent group first, attempts in order. */
export function groupEpisodes(list: readonly EpisodeSummary[]): Group[] {
  const groups = new Map<string, Group>();
  for (const e of list) {
    const key = `${e.origin}\n${e.task}`;
    const g = groups.get(key) ?? { key, origin: e.origin, task: e.task, episodes: [] };
    g.episodes.push(e);
    groups.set(key, g);
  }
  const latest = (g: Group) => Math.max(...g.episodes.map((e) => e.startedAt));
  return [...groups.values()]
    .map((g) => ({ ...g, episodes: [...g.episodes].sort((a, b) => a.attempt - b.attempt || a.startedAt - b.startedAt) }))
    .sort((a, b) => latest(b) - latest(a));
}

export function HistoryTab({ client, origin }: { client: UiClient; origin: string | null }) {
  const [scope, setScope] = useState<'site' | 'all'>(origin ? 'site' : 'all');
  const [list, setList] = useState<EpisodeSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setList(null);
    setError(null);
    client.request('history.list', { origin: scope === 'site' ? origin : null, limit: 500 }).then(
      (l) => { if (live) setList(l); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, scope, origin]);

  const groups = list ? groupEpisodes(list) : [];
  return (
    <section class="history" aria-labelledby="history-heading">
      <h2 id="history-heading" class="visually-hidden">History</h2>
      {origin ? (
        <fieldset class="scope">
          <legend class="visually-hidden">Which episodes</legend>
          <label class="check"><input type="radio" name="history-scope" checked={scope === 'site'} onChange={() => setScope('site')} /> This site</label>
          <label class="check"><input type="radio" name="history-scope" checked={scope === 'all'} onChange={() => setScope('all')} /> All sites</label>
        </fieldset>
      ) : null}
      {error ? <p class="error" role="alert">Could not load the history: {error}</p> : null}
      {!list && !error ? <p role="status" class="loading"><span class="spinner" aria-hidden="true" /> Loading…</p> : null}
      {list && groups.length === 0 ? <p class="empty">No episodes yet{scope === 'site' && origin ? ` on ${origin}` : ''}.</p> : null}
      <ul class="groups">
        {groups.map((g) => <TaskGroup key={g.key} client={client} group={g} />)}
      </ul>
    </section>
  );
}

function TaskGroup({ client, group }: { client: UiClient; group: Group }) {
  const [open, setOpen] = useState(false);
  const [curve, setCurve] = useState<CurvePoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = `group-${encodeURIComponent(group.key).replace(/%/g, '')}`;

  useEffect(() => {
    if (!open) return;
    let live = true;
    client.request('history.curve', { origin: group.origin, task: group.task }).then(
      (c) => { if (live) setCurve(c); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, open, group.origin, group.task]);

  return (
    <li class="group">
      <button type="button" class="disclosure" aria-expanded={open ? 'true' : 'false'} aria-controls={id} onClick={() => setOpen(!open)}>
        <span class="task">{group.task}</span>
        <span class="muted"> · {group.origin} · {group.episodes.length} attempt{group.episodes.length === 1 ? '' : 's'}</span>
      </button>
      {open ? (
        <div id={id} class="group-body">
          <h3 class="small">Learning curve</h3>
          {error ? <p class="error" role="alert">Could not load the curve: {error}</p> : null}
          {curve ? <LearningCurve task={group.task} points={curve} /> : !error ? <p role="status" class="loading">Loading curve…</p> : null}
          {curve && curve.some((p) => p.asks !== undefined) ? (
            <>
              <h3 class="small">What each attempt needed</h3>
              <CostChart task={group.task} points={curve} />
            </>
          ) : null}
          <h3 class="small">Attempts</h3>
          <ol class="episodes">
            {group.episodes.map((e) => <EpisodeRow key={e.id} client={client} summary={e} />)}
          </ol>
        </div>
      ) : null}
    </li>
  );
}

function EpisodeRow({ client, summary }: { client: UiClient; summary: EpisodeSummary }) {
  const [open, setOpen] = useState(false);
  const [episode, setEpisode] = useState<Episode | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open || episode !== undefined) return;
    let live = true;
    client.request('episode.get', { episodeId: summary.id }).then(
      (ep) => { if (live) setEpisode(ep); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, open, summary.id, episode]);

  const id = `ep-${summary.id.replace(/[^\w-]/g, '')}`;
  return (
    <li class="episode-row">
      <button type="button" class="disclosure" aria-expanded={open ? 'true' : 'false'} aria-controls={id} onClick={() => setOpen(!open)}>
        Attempt {summary.attempt}: <span data-status={summary.status}>{statusText(summary.status)}</span>
        <span class="muted"> · {summary.steps} step{summary.steps === 1 ? '' : 's'}{summary.tokens ? ` · ${summary.tokens} tokens` : ''}{summary.modelCalls !== undefined ? ` · ${summary.modelCalls} model call${summary.modelCalls === 1 ? '' : 's'}` : ''}{summary.replayedSteps ? ` · ${summary.replayedSteps} replayed from memory` : ''} · {fmtTime(summary.startedAt)}{summary.kind !== 'live' ? ` · ${summary.kind}` : ''}</span>
      </button>
      {open ? (
        <div id={id}>
          {error ? <p class="error" role="alert">{error}</p> : null}
          {episode === undefined && !error ? <p role="status" class="loading">Loading steps…</p> : null}
          {episode === null ? <p class="empty">This episode is no longer stored.</p> : null}
          {episode ? (
            <>
              {episode.answer !== null ? <p class="answer">Answer: {episode.answer}</p> : null}
              {episode.steps.length === 0 ? <p class="empty">No steps were taken.</p> : null}
              <ol class="step-list">{episode.steps.map((s) => <StepSummary key={s.index} step={s} task={episode.task} />)}</ol>
            </>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
