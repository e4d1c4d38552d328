/**
 * Team memory in Settings (issue 31; it was at the foot of the Memory tab):
 * the team server's settings and the shared sites, Test connection (of what
 * is typed, saved or not; names the exact problem), Sync now and what the
 * last round did (held and refused documents with their reasons, conflicts
 * and which version was kept), and each teammate's memory with its
 * provenance and a Forget button.
 */
import { useEffect, useState } from 'preact/hooks';
import type { TeamSettings } from '../../core/sync/team-settings.ts';
import type { TeamSyncStatus } from '../../protocol/team-messages.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText, fmtTime } from './format.ts';

type Teammate = { id: string; name: string; items: number; sites: string[]; lastTaughtAt: number; muted: boolean; recent: { origin: string; part: string; key: string; taughtAt: number; episodeId: string | null; appVersion: string }[] };

export interface TeamMemoryPanelProps {
  client: UiClient;
  /** Sites with memory, offered for sharing. */
  sites: readonly string[];
}

function SyncReport({ status, onAccept }: { status: TeamSyncStatus; onAccept: (docId: string) => void }) {
  if (status.at === null) return <p class="empty">Not synced yet.</p>;
  if (!status.ok) return <p class="error" role="alert">{status.message}</p>;
  return (
    <div class="team-report" role="status">
      <p>
        Synced {fmtTime(status.at)}: shared {status.published}, withdrew {status.withdrawn}, sent {status.pushed}, received {status.pulled},
        merged {status.imported}, removed {status.removed}{status.masked > 0 ? `, masked ${status.masked} secret values` : ''}.
      </p>
      {status.held.length > 0 ? (
        <details open><summary>{status.held.length} held for review</summary>
          <ul>{status.held.map((h) => (
            <li key={h.docId}>{h.author ?? 'unknown'} on {h.origin ?? '?'}: {h.reason}
              {h.reviewable ? <button type="button" onClick={() => onAccept(h.docId)}>Accept after review</button> : null}
            </li>
          ))}</ul>
        </details>
      ) : null}
      {status.refused.length > 0 ? (
        <details><summary>{status.refused.length} refused</summary>
          <ul>{status.refused.map((r) => <li key={r.docId}><code>{r.docId}</code>: {r.reason}</li>)}</ul>
        </details>
      ) : null}
      {status.conflicts.length > 0 ? (
        <details><summary>{status.conflicts.length} edited by two members</summary>
          <ul>{status.conflicts.map((c) => <li key={`${c.origin}|${c.part}|${c.key}`}>{c.part} {c.key} on {c.origin}: kept {c.kept} over {c.setAside.join(', ')} (the version taught last wins)</li>)}</ul>
        </details>
      ) : null}
    </div>
  );
}

export function TeamMemoryPanel({ client, sites }: TeamMemoryPanelProps) {
  const [settings, setSettings] = useState<(TeamSettings & { hasPassword: boolean }) | null>(null);
  const [password, setPassword] = useState('');
  const [status, setStatus] = useState<TeamSyncStatus | null>(null);
  const [teammates, setTeammates] = useState<Teammate[]>([]);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = async () => {
    setStatus(await client.request('team.status', {}));
    setTeammates(await client.request('team.teammates', {}));
  };
  useEffect(() => {
    client.request('team.settings', {}).then(setSettings, (e: unknown) => setMessage({ text: errorText(e), error: true }));
    refresh().catch(() => undefined);
  }, [client]);

  // Not an alert: the rest of the Memory tab works without team memory.
  if (!settings) return message ? <p class="error">Team memory is unavailable: {message.text}</p> : <p role="status" class="loading">Loading team memory…</p>;
  const set = <K extends keyof TeamSettings>(key: K, value: TeamSettings[K]) => setSettings({ ...settings, [key]: value });
  const run = async (f: () => Promise<string>) => {
    setBusy(true);
    setMessage(null);
    try {
      setMessage({ text: await f(), error: false });
    } catch (e) {
      setMessage({ text: errorText(e), error: true });
    } finally {
      setBusy(false);
    }
  };
  const save = () => run(async () => {
    const { hasPassword: _unused, ...plain } = settings;
    setSettings(await client.request('team.saveSettings', { settings: plain, password: password === '' ? null : password }));
    setPassword('');
    return 'Team settings saved.';
  });
  // What is typed, saved or not: a typo is caught before it is saved.
  const test = () => run(async () => {
    const r = await client.request('team.test', {
      connection: { serverUrl: settings.serverUrl, database: settings.database, username: settings.username },
      password: password === '' ? null : password,
    });
    if (!r.ok) throw new Error(r.message);
    return `Connected: ${r.detail}.`;
  });
  const sync = () => run(async () => {
    const s = await client.request('team.sync', {});
    await refresh();
    if (!s.ok) throw new Error(s.message ?? 'sync failed');
    return 'Synced.';
  });
  const accept = (docId: string) => run(async () => {
    const r = await client.request('team.acceptHeld', { docId });
    await refresh();
    if (r.message) throw new Error(r.message);
    return `Accepted: ${r.imported} item${r.imported === 1 ? '' : 's'} merged. It still asks every time it runs.`;
  });
  const forget = (t: Teammate) => run(async () => {
    const { removed } = await client.request('team.forgetTeammate', { id: t.id });
    await refresh();
    return `Forgot ${t.name}: ${removed} items removed; their memory is no longer merged.`;
  });
  const offered = [...new Set([...sites, ...settings.sharedSites])].sort();

  return (
    <section class="team-memory" aria-labelledby="team-heading">
      <h2 id="team-heading">Team memory</h2>
      <p class="hint">Share what Apprentice learned on chosen sites with your team through your team's CouchDB database. Teammates' memory is shown with who taught it; it never counts as your approval, so a step learned only from others always asks first.</p>
      <form class="team-settings" onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label>Server URL <input type="url" value={settings.serverUrl} placeholder="https://couch.example.com" onInput={(e) => set('serverUrl', e.currentTarget.value)} /></label>
        <label>Database <input value={settings.database} placeholder="team-memory" onInput={(e) => set('database', e.currentTarget.value)} /></label>
        <label>User name <input value={settings.username} autocomplete="off" onInput={(e) => set('username', e.currentTarget.value)} /></label>
        <label>Password <input type="password" value={password} autocomplete="new-password" placeholder={settings.hasPassword ? '(stored — type to replace)' : ''} onInput={(e) => setPassword(e.currentTarget.value)} /></label>
        <label>Your name, as teammates see it <input value={settings.memberName} onInput={(e) => set('memberName', e.currentTarget.value)} /></label>
        <label><input type="checkbox" checked={settings.live} onChange={(e) => set('live', e.currentTarget.checked)} /> Sync by itself every 5 minutes</label>
        <fieldset>
          <legend>Share these sites</legend>
          {offered.length === 0 ? <p class="empty">No site has memory yet.</p> : offered.map((origin) => (
            <label key={origin}>
              <input type="checkbox" checked={settings.sharedSites.includes(origin)}
                onChange={(e) => set('sharedSites', e.currentTarget.checked ? [...settings.sharedSites, origin] : settings.sharedSites.filter((s) => s !== origin))} />
              {origin}
            </label>
          ))}
        </fieldset>
        <div class="toolbar">
          {/* Names of their own: the options page also has the provider's Save and Test connection. */}
          <button type="submit" disabled={busy}>Save team settings</button>
          <button type="button" disabled={busy} onClick={() => void test()}>Test team connection</button>
          <button type="button" disabled={busy} onClick={() => void sync()}>Sync now</button>
        </div>
      </form>
      {message ? <p class={message.error ? 'error' : 'notice'} role={message.error ? 'alert' : 'status'}>{message.text}</p> : null}
      {status ? <SyncReport status={status} onAccept={(docId) => void accept(docId)} /> : null}
      <h3>Teammates' memory</h3>
      {teammates.length === 0 ? <p class="empty">Nothing from teammates yet.</p> : (
        <ul class="teammates">
          {teammates.map((t) => (
            <li key={t.id} data-teammate={t.id}>
              <strong>{t.name}</strong>{t.muted ? ' (forgotten)' : ''}: {t.items} items on {t.sites.join(', ') || 'no site'}{t.lastTaughtAt > 0 ? `, last taught ${fmtTime(t.lastTaughtAt)}` : ''}
              {t.muted ? null : <button type="button" disabled={busy} onClick={() => void forget(t)}>Forget {t.name}'s memory</button>}
              {t.recent.length > 0 ? (
                <details><summary>What {t.name} taught (newest {t.recent.length})</summary>
                  <ul>{t.recent.map((r) => (
                    <li key={`${r.origin}|${r.part}|${r.key}`}>{r.part} <code>{r.key}</code> on {r.origin}, taught {fmtTime(r.taughtAt)}{r.episodeId ? ` in episode ${r.episodeId}` : ''}, Apprentice {r.appVersion}</li>
                  ))}</ul>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The panel on the options page, offering every site with memory for sharing. */
export function TeamMemorySettings({ client }: { client: UiClient }) {
  const [sites, setSites] = useState<string[]>([]);
  useEffect(() => {
    client.request('memory.sites', {}).then((s) => setSites(s.map((x) => x.origin)), () => setSites([]));
  }, [client]);
  return <TeamMemoryPanel client={client} sites={sites} />;
}
