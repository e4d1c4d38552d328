/**
 * The Memory tab, a frame that names no learner: a table of what is
 * remembered per site (show one, forget one); for the site shown, its learned
 * plans first, in words, then each learner's memory section or panel (from
 * its folder's views.ts); export / import as a JSON file (a bad file changes
 * nothing and says why).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MemorySite } from '../../core/learning/memory-sites.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { ProcedureList } from './procedure-list.tsx';
import { LearnerMemorySections } from './learner-memory.tsx';
import { errorText, fmtTime } from './format.ts';
import { importMemoryFile } from './memory-import.ts';

type Site = MemorySite;

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
              version={reload}
              site={sites.find((s) => s.origin === selected) ?? { origin: selected, items: 0, lastUpdated: 0 }}
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
      <thead><tr><th scope="col">Site</th><th scope="col">Items remembered</th><th scope="col">Updated</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        {sites.map((s) => (
          <tr key={s.origin} aria-current={s.origin === selected ? 'true' : undefined}>
            <th scope="row">{s.origin}</th>
            <td>{s.items}</td>
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
  /** Bumped when anything in the tab changed (a learner's panel deleted, an import landed): every section reads again. */
  version: number;
  askForget: boolean;
  onAsked(): void;
  onChanged(): void;
  /** After "Forget this site": what it removed, in words. */
  onForgotten(text: string): void;
}

function SiteMemory({ client, site, version, askForget, onAsked, onChanged, onForgotten }: SiteMemoryProps) {
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const forgetRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
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
      <p class="meta">{site.items} items remembered{site.lastUpdated ? ` · updated ${fmtTime(site.lastUpdated)}` : ''}</p>
      <h3 class="small">Learned plans (they run without the model)</h3>
      <ProcedureList client={client} origin={site.origin} version={version} />
      <LearnerMemorySections client={client} origin={site.origin} version={version} onChanged={onChanged} />
      {error ? <p class="error" role="alert">{error}</p> : null}
      {confirming ? (
        <div class="confirm" role="alertdialog" aria-labelledby="forget-q">
          <p id="forget-q">Forget everything learned on {site.origin}? This deletes {site.items} remembered items and cannot be undone.</p>
          <button type="button" class="danger" onClick={forget}>Yes, forget {site.origin}</button>
          <button type="button" ref={cancelRef} onClick={() => setConfirming(false)}>Cancel</button>
        </div>
      ) : (
        <button type="button" class="danger" ref={forgetRef} onClick={() => setConfirming(true)}>Forget this site…</button>
      )}
    </div>
  );
}
