/**
 * EvoTest's view in the Memory tab: per site and task template, the lineage
 * of configurations (source, runs, mean score, which is current or pinned),
 * which configuration ran each episode, the selected configuration's diff
 * against its parent with the evolver's rationale, and pin / unpin / reset.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Lineage, LineageNode } from '../core/lineage.ts';
import { meanScore } from '../core/lineage.ts';
import { EVOTEST_ACTIONS } from '../core/actions.ts';
import { evotestDefinition } from '../definition.ts';
import { callLearner } from '../../../ui/app/learner-action.ts';
import type { UiClient } from '../../../protocol/validate.ts';
import { errorText, fmtNum, fmtTime } from '../../../ui/app/format.ts';

export interface EvotestLineageViewProps {
  lineages: readonly Lineage[];
  /** 'model' or 'offline': which evolver runs (said plainly, EvoTest needs no model but does less without one). */
  mode: 'model' | 'offline';
  onPin(key: string, configurationId: string | null): void;
  onReset(key: string): void;
  busy?: boolean;
}

export function EvotestLineageView({ lineages, mode, onPin, onReset, busy = false }: EvotestLineageViewProps) {
  if (lineages.length === 0) return <p class="muted">EvoTest has no configurations for this site yet: they appear after the first episode.</p>;
  return (
    <section aria-label="EvoTest configurations">
      <p class="help">
        Evolver: {mode === 'model' ? 'the configured model rewrites guidance and rules; rule-based operators tune the numbers' : 'offline (rule-based operators on hyperparameters and rules; no model configured, so guidance is not rewritten)'}.
      </p>
      {lineages.map((l) => <LineageCard key={l.key} lineage={l} onPin={onPin} onReset={onReset} busy={busy} />)}
    </section>
  );
}

function LineageCard({ lineage, onPin, onReset, busy }: { lineage: Lineage; onPin: EvotestLineageViewProps['onPin']; onReset: EvotestLineageViewProps['onReset']; busy: boolean }) {
  const [selected, setSelected] = useState<string>(lineage.pinnedId ?? lineage.currentId);
  const node = lineage.nodes.find((n) => n.id === selected) ?? lineage.nodes[0]!;
  const runs = lineage.nodes.flatMap((n) => n.runs.map((r) => ({ ...r, id: n.id }))).sort((a, b) => a.at - b.at);
  return (
    <article class="card" aria-label={`Lineage for ${lineage.template}`}>
      <h4>Task template: <code>{lineage.template}</code></h4>
      <p class="meta">
        {lineage.nodes.length} configurations · {runs.length} episodes · {lineage.invalidChildren} invalid proposals dropped
        {lineage.pinnedId ? <> · pinned <strong>{lineage.pinnedId}</strong></> : null}
      </p>
      {lineage.importedFrom ? <p class="meta">imported from {lineage.importedFrom}</p> : null}
      <table>
        <caption class="visually-hidden">Configurations</caption>
        <thead><tr><th>id</th><th>parent</th><th>from</th><th>runs</th><th>mean score</th><th></th></tr></thead>
        <tbody>
          {lineage.nodes.map((n) => (
            <tr key={n.id} aria-selected={n.id === node.id}>
              <td>
                <button type="button" onClick={() => setSelected(n.id)} aria-pressed={n.id === node.id}>{n.id}</button>
                {n.id === lineage.currentId ? ' (current)' : ''}
              </td>
              <td>{n.parentId ?? '—'}</td>
              <td>{n.source}</td>
              <td>{n.runs.length}</td>
              <td>{fmtNum(meanScore(n))}</td>
              <td>{n.id === lineage.pinnedId ? 'pinned' : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {runs.length > 0 ? (
        <p class="meta">Ran: {runs.map((r, i) => `#${i + 1} ${r.id} (${fmtNum(r.score, 1)})`).join(' · ')}</p>
      ) : null}
      <NodeDetail node={node} />
      <div>
        {lineage.pinnedId === node.id
          ? <button type="button" disabled={busy} onClick={() => onPin(lineage.key, null)}>Unpin</button>
          : <button type="button" disabled={busy} onClick={() => onPin(lineage.key, node.id)}>Pin {node.id}</button>}
        <button type="button" disabled={busy} onClick={() => onReset(lineage.key)}>Reset to the starting configuration</button>
      </div>
    </article>
  );
}

function NodeDetail({ node }: { node: LineageNode }) {
  return (
    <div aria-label={`Configuration ${node.id}`}>
      <p><strong>{node.id}</strong> — {node.rationale} <span class="meta">({fmtTime(node.createdAt)})</span></p>
      {node.parentId === null ? (
        <p class="muted">The starting configuration.</p>
      ) : node.changes.length === 0 ? (
        <p class="muted">Same as {node.parentId}.</p>
      ) : (
        <table>
          <caption>Changes against {node.parentId}</caption>
          <thead><tr><th>field</th><th>{node.parentId}</th><th>{node.id}</th></tr></thead>
          <tbody>
            {node.changes.map((c) => (
              <tr key={c.path}><td><code>{c.path}</code></td><td>{c.before}</td><td>{c.after}</td></tr>
            ))}
          </tbody>
        </table>
      )}
      {node.configuration.guidance ? <p class="help">Guidance: {node.configuration.guidance}</p> : null}
    </div>
  );
}

/** The Memory tab's EvoTest section for one site: fetches its lineages and sends pin / reset. */
export function EvotestSiteLineages({ client, origin, version }: { client: UiClient; origin: string; version: number }) {
  const [data, setData] = useState<{ mode: 'model' | 'offline'; lineages: Lineage[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  useEffect(() => {
    let live = true;
    callLearner(client, evotestDefinition, EVOTEST_ACTIONS, 'lineages', { origin }).then(
      (d) => { if (live) { setData(d); setError(null); } },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, version, reload]);
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      setReload((n) => n + 1);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  if (error) return <p class="error" role="alert">EvoTest: {error}</p>;
  if (!data) return <p role="status" class="loading">Loading…</p>;
  return (
    <EvotestLineageView
      lineages={data.lineages}
      mode={data.mode}
      busy={busy}
      onPin={(key, configurationId) => void act(() => callLearner(client, evotestDefinition, EVOTEST_ACTIONS, 'pin', { key, configurationId }))}
      onReset={(key) => void act(() => callLearner(client, evotestDefinition, EVOTEST_ACTIONS, 'reset', { key }))}
    />
  );
}

/** Collapsed by default; the lineages are fetched only once the person opens it. */
export function EvotestDetails({ client, origin, version }: { client: UiClient; origin: string; version: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="experience-details" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Evolved configurations (EvoTest)</summary>
      {open ? <EvotestSiteLineages client={client} origin={origin} version={version} /> : null}
    </details>
  );
}
