/**
 * Meta-TTL in the panel: the guide in force for a task, how it came to be
 * (newest first), and the person's edit or reset. Pure: it renders a guide
 * record and calls back; the caller talks to the background.
 */
import { useEffect, useState } from 'preact/hooks';
import type { GuideRecord, GuideVersion } from '../core/guide-record.ts';
import { MAX_GUIDE_CHARS } from '../core/meta-answer.ts';
import { fmtTime } from '../../../ui/app/format.ts';

export interface MetaTtlGuideViewProps {
  /** Null when no attempt at this task has been adapted yet. */
  record: GuideRecord | null;
  /** Why Meta-TTL is idle (no model, switched off), or null when it runs. */
  inactiveReason: string | null;
  onSave(text: string): Promise<void>;
  onReset(): Promise<void>;
}

const SOURCE: Record<GuideVersion['source'], string> = {
  'meta-agent': 'written by the meta-agent',
  person: 'edited by you',
  reset: 'reset',
};

function versionLabel(v: GuideVersion): string {
  const after = v.afterAttempt === null ? '' : ` after attempt ${v.afterAttempt}${v.outcome ? ` (${v.outcome})` : ''}`;
  return `${SOURCE[v.source]}${after} · ${fmtTime(v.at)}`;
}

export function MetaTtlGuideView({ record, inactiveReason, onSave, onReset }: MetaTtlGuideViewProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(record?.guide ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!editing) setDraft(record?.guide ?? '');
  }, [record, editing]);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      setEditing(false);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="metattl-guide" aria-label="Meta-TTL guide">
      <h3>Guide in force (Meta-TTL)</h3>
      {inactiveReason ? <p class="notice" role="status">{inactiveReason}</p> : null}
      {editing ? (
        <div>
          <label>
            Guide for the next attempt
            <textarea value={draft} maxLength={MAX_GUIDE_CHARS} rows={8} onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)} />
          </label>
          <button type="button" disabled={busy} onClick={() => run(() => onSave(draft))}>Save guide</button>
          <button type="button" disabled={busy} onClick={() => { setEditing(false); setDraft(record?.guide ?? ''); }}>Cancel</button>
        </div>
      ) : record?.guide ? (
        <div>
          <pre class="guide-text">{record.guide}</pre>
          <p class="muted small">{record.source ? SOURCE[record.source] : ''} · attempts seen: {record.attempts}</p>
          {record.importedFrom ? <p class="muted small">imported from {record.importedFrom}</p> : null}
        </div>
      ) : (
        <p class="empty">No guide yet{record ? ' (reset)' : ''}: the meta-agent writes one after the first attempt at this task.</p>
      )}
      {!editing ? (
        <div>
          <button type="button" disabled={busy} onClick={() => setEditing(true)}>Edit guide</button>
          <button type="button" disabled={busy || !record} onClick={() => run(onReset)}>Reset guide</button>
        </div>
      ) : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
      {record && record.history.length > 0 ? (
        <details>
          <summary>History ({record.history.length})</summary>
          <ol class="guide-history" reversed>
            {[...record.history].reverse().map((v, i) => (
              <li key={`${v.at}-${i}`}>
                <div class="muted small">{versionLabel(v)}</div>
                {v.diagnosis ? <div class="small">Diagnosis: {v.diagnosis}</div> : null}
                {v.guide ? <pre class="guide-text">{v.guide}</pre> : <div class="muted small">(no guide)</div>}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
