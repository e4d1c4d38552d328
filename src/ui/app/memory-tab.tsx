/**
 * The Memory tab: a table of what is remembered per site (show one, forget
 * one); for the site shown, its learned plans first, in words, then each
 * learner's memory, and the raw transitions under a disclosure (search,
 * delete with Undo); export / import as a JSON file (a bad file changes
 * nothing and says why).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Transition } from '../../core/memory/transition.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { ProcedureList } from './procedure-list.tsx';
import { LearnerMemorySections } from './learner-memory.tsx';
import { errorText, fmtNum, fmtTime } from './format.ts';
import { useUndoableDelete } from './use-undoable-delete.ts';
import { UndoNotice } from './undo-notice.tsx';
import { importMemoryFile } from './memory-import.ts';

type Site = { origin: string; transitions: number; pages: number; lastUpdated: number };

const PAGE = 50;

/** Save text as a file through an `<a download>` pointing at a Blob URL. */
export function downloadJson(filename: string, json: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke later: Chrome reads the Blob asynchronously after the click.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export interface MemoryTabProps {
  client: UiClient;
  /** Origin of the current tab: selected first when it has memory. */
  origin: string | null;
  /** Seam for tests; defaults to a Blob download. */
  download?: (filename: string, json: string) => void;
}

export function MemoryTab({ client, origin, download = downloadJson }: MemoryTabProps) {
  const [sites, setSites] = useState<Site[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  // "Forget…" pressed in the site table: that site's memory asks to confirm.
  const [forgetFor, setForgetFor] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    client.request('memory.sites', {}).then(
      (s) => {
        if (!live) return;
        setSites(s);
        setSelected((prev) => (prev && s.some((x) => x.origin === prev) ? prev : s.find((x) => x.origin === origin)?.origin ?? s[0]?.origin ?? null));
      },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, reload]);

  async function exportAll() {
    setBusy(true);
    setNotice(null);
    setError(null);
    try {
      const { json, filename } = await client.request('memory.export', {});
      download(filename, json);
      setNotice(`Exported to ${filename}.`);
    } catch (err) {
      setError(`Export failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  }

  async function importFile(e: Event) {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    setBusy(true);
    setNotice(null);
    setImportError(null);
    try {
      const answer = await importMemoryFile(client, file);
      if (answer.ok) {
        setNotice(answer.notice);
        setReload((n) => n + 1);
      } else {
        setImportError(answer.error);
      }
    } finally {
      setBusy(false);
      input.value = '';
    }
  }

  return (
    <section class="memory" aria-labelledby="memory-heading">
      <h2 id="memory-heading" class="visually-hidden">Memory</h2>
      <div class="toolbar" role="group" aria-label="Export and import">
        <button type="button" disabled={busy} onClick={exportAll}>Export to JSON</button>
        <label class="file-button">
          Import from JSON
          <input type="file" accept="application/json,.json" disabled={busy} onChange={importFile} />
        </label>
      </div>
      {notice ? <p class="notice" role="status">{notice}</p> : null}
      {importError ? <p class="error" role="alert">{importError}</p> : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
      {!sites && !error ? <p role="status" class="loading"><span class="spinner" aria-hidden="true" /> Loading…</p> : null}
      {sites && sites.length === 0 ? <p class="empty">Nothing learned yet. Run a task, and what worked is remembered here.</p> : null}
      {sites && sites.length > 0 ? (
        <>
          <SiteTable sites={sites} selected={selected} onShow={setSelected} onForget={(o) => { setSelected(o); setForgetFor(o); }} />
          {selected ? (
            <SiteMemory
              key={selected}
              client={client}
              site={sites.find((s) => s.origin === selected) ?? { origin: selected, transitions: 0, pages: 0, lastUpdated: 0 }}
              askForget={forgetFor === selected}
              onAsked={() => setForgetFor(null)}
              onChanged={() => setReload((n) => n + 1)}
              onForgotten={(text) => { setNotice(text); setReload((n) => n + 1); }}
            />
          ) : null}
        </>
      ) : null}
      <p class="help">Team memory (sharing with teammates, and what they taught) is set up in Settings.</p>
    </section>
  );
}

/** What is remembered per site: show one site's memory below, or forget it. */
function SiteTable({ sites, selected, onShow, onForget }: { sites: Site[]; selected: string | null; onShow(origin: string): void; onForget(origin: string): void }) {
  return (
    <table class="site-table">
      <caption>What is remembered, per site</caption>
      <thead><tr><th scope="col">Site</th><th scope="col">Steps remembered</th><th scope="col">Pages</th><th scope="col">Updated</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        {sites.map((s) => (
          <tr key={s.origin} aria-current={s.origin === selected ? 'true' : undefined}>
            <th scope="row">{s.origin}</th>
            <td>{s.transitions}</td>
            <td>{s.pages}</td>
            <td>{s.lastUpdated ? fmtTime(s.lastUpdated) : '—'}</td>
            <td class="row">
              <button type="button" class="small" aria-pressed={s.origin === selected ? 'true' : 'false'} onClick={() => onShow(s.origin)}>
                Show<span class="visually-hidden"> {s.origin}</span>
              </button>
              <button type="button" class="small danger" onClick={() => onForget(s.origin)}>Forget…<span class="visually-hidden"> {s.origin}</span></button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Forgotten = { deleted: number; episodes: number; steps: number; decisions: number; approvals: number };
const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What "Forget this site" removed, in words: learned items, tasks, and the steps, decisions and approvals on the site. */
export function forgottenText(origin: string, r: Forgotten): string {
  return `Forgot ${origin}: removed ${count(r.deleted, 'learned item', 'learned items')}, ${count(r.episodes, 'task', 'tasks')} that started there, `
    + `${count(r.steps, 'episode step', 'episode steps')} on the site, with ${count(r.decisions, 'decision', 'decisions')} of yours, `
    + `${count(r.approvals, 'approval', 'approvals')} among them.`;
}

interface SiteMemoryProps {
  client: UiClient;
  site: Site;
  askForget: boolean;
  onAsked(): void;
  onChanged(): void;
  /** After "Forget this site": what it removed, in words. */
  onForgotten(text: string): void;
}

function SiteMemory({ client, site, askForget, onAsked, onChanged, onForgotten }: SiteMemoryProps) {
  const [query, setQuery] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [offset, setOffset] = useState(0);
  const [items, setItems] = useState<Transition[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [version, setVersion] = useState(0);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const forgetRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  const deletes = useUndoableDelete((err) => setError(`Could not delete: ${errorText(err)}`), () => { setVersion((v) => v + 1); onChanged(); });
  useEffect(() => {
    if (!askForget) return;
    setConfirming(true);
    onAsked();
  }, [askForget]);

  // Focus the safe choice when asking; return focus to the trigger after.
  useEffect(() => {
    if (confirming) {
      asked.current = true;
      cancelRef.current?.focus();
    } else if (asked.current) {
      forgetRef.current?.focus();
    }
  }, [confirming]);

  useEffect(() => {
    let live = true;
    setItems(null);
    setError(null);
    client.request('memory.list', { origin: site.origin, query: submitted, limit: PAGE, offset }).then(
      (l) => { if (live) setItems(l); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, site.origin, submitted, offset, version]);

  const remove = (t: Transition) => deletes.remove(t.id, `the step ${t.action}`, () => client.request('memory.delete', { ids: [t.id] }));

  async function forget() {
    try {
      const removed = await client.request('memory.forgetSite', { origin: site.origin });
      setConfirming(false);
      onForgotten(forgottenText(site.origin, removed));
    } catch (err) {
      setError(`Could not forget ${site.origin}: ${errorText(err)}`);
    }
  }

  return (
    <div class="site-memory">
      <p class="meta">{site.transitions} transitions on {site.pages} pages{site.lastUpdated ? ` · updated ${fmtTime(site.lastUpdated)}` : ''}</p>
      <h3 class="small">Learned plans (they run without the model)</h3>
      <ProcedureList client={client} origin={site.origin} version={version} />
      <LearnerMemorySections client={client} origin={site.origin} version={version} onChanged={onChanged} />
      <details class="raw-transitions">
        <summary>Raw transitions ({site.transitions})</summary>
        <UndoNotice deletes={deletes} />
        <form role="search" class="search" onSubmit={(e) => { e.preventDefault(); setOffset(0); setSubmitted(query.trim()); }}>
          <label for="memory-query">Search transitions</label>
          <input id="memory-query" type="search" value={query} placeholder="task, action or page" onInput={(e) => setQuery(e.currentTarget.value)} />
          <button type="submit">Search</button>
        </form>
        {error ? <p class="error" role="alert">{error}</p> : null}
        {!items && !error ? <p role="status" class="loading">Loading…</p> : null}
        {items && items.length === 0 ? <p class="empty">{submitted ? `No transitions match "${submitted}".` : 'No transitions on this site.'}</p> : null}
        {items && items.length > 0 ? (
          <ul class="transitions" aria-label={`Transitions on ${site.origin}`}>
            {items.filter((t) => !deletes.hidden.has(t.id)).map((t) => (
              <li key={t.id} class="transition">
                <div>
                  <span class="semantic">{t.action}</span> <span class={t.reward >= 0 ? 'ok' : 'err'}>r = {fmtNum(t.reward, 2, true)}</span>
                  {t.stale ? <span class="badge stale" title="The action no longer resolved on its page: demoted in retrieval, kept until you delete it">stale ×{t.stale}</span> : null}
                </div>
                <div class="muted">task: {t.task}</div>
                <div class="muted"><code>{t.regUrl}</code>{t.effectiveState.length > 0 ? ` · after ${t.effectiveState.join(', ')}` : ''}</div>
                <button type="button" class="small danger" onClick={() => remove(t)}>Delete<span class="visually-hidden"> {t.action} ({t.id})</span></button>
              </li>
            ))}
          </ul>
        ) : null}
        <div class="pager" role="group" aria-label="Pages">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
          <button type="button" disabled={!items || items.length < PAGE} onClick={() => setOffset(offset + PAGE)}>Next</button>
        </div>
      </details>
      {confirming ? (
        <div class="confirm" role="alertdialog" aria-labelledby="forget-q">
          <p id="forget-q">Forget everything learned on {site.origin}? This deletes {site.transitions} transitions and cannot be undone.</p>
          <button type="button" class="danger" onClick={forget}>Yes, forget {site.origin}</button>
          <button type="button" ref={cancelRef} onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      ) : (
        <button type="button" class="danger" ref={forgetRef} onClick={() => setConfirming(true)}>Forget this site…</button>
      )}
    </div>
  );
}
