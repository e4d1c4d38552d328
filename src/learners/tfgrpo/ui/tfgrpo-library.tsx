/**
 * Training-Free GRPO's library for one site in the Memory tab: the numbered
 * experiences with where each came from (the group of attempts, when, how
 * often it was in a prompt and how often that attempt then succeeded), an
 * editor and a delete button per experience, and undo of the newest update
 * (what a model or a rule changed, all at once). Says so plainly when the
 * learner cannot learn without a model.
 */
import { useEffect, useState } from 'preact/hooks';
import type { TfgrpoExperience } from '../core/experience.ts';
import type { TfgrpoLibraryView } from '../core/actions.ts';
import { TFGRPO_ACTIONS } from '../core/actions.ts';
import { tfgrpoDefinition } from '../definition.ts';
import { callLearner } from '../../../ui/app/learner-action.ts';
import type { UiClient } from '../../../protocol/validate.ts';
import { errorText, fmtTime } from '../../../ui/app/format.ts';

type LibraryView = TfgrpoLibraryView;

export function provenanceLine(e: TfgrpoExperience): string {
  const p = e.provenance;
  const from = e.source === 'person' ? 'edited by you' : `${e.source === 'rule' ? 'rule' : 'model'}, from a group of ${p.createdBy.episodeIds.length} attempts at “${p.createdBy.task}”`;
  const changed = p.updatedBy.length > 0 ? ` · updated by ${p.updatedBy.length} later group${p.updatedBy.length === 1 ? '' : 's'}` : '';
  return `${from}${changed} · in a prompt ${p.inPrompt}× · then succeeded ${p.inPromptThenSucceeded}× · ${fmtTime(p.updatedAt)}`;
}

export function TfgrpoLibrary({ client, origin, version, onChanged }: { client: UiClient; origin: string; version: number; onChanged?: () => void }) {
  const [view, setView] = useState<LibraryView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    callLearner(client, tfgrpoDefinition, TFGRPO_ACTIONS, 'library', { origin }).then(
      (v) => { if (live) setView(v); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, version, reload]);

  const changed = (message: string) => {
    setNotice(message);
    setReload((n) => n + 1);
    onChanged?.();
  };

  async function save() {
    if (!editing) return;
    try {
      const { ok } = await callLearner(client, tfgrpoDefinition, TFGRPO_ACTIONS, 'edit', { origin, id: editing.id, text: editing.text });
      if (!ok) {
        setError('Not saved: an experience needs some text (at most 400 characters).');
        return;
      }
      setEditing(null);
      changed('Experience saved.');
    } catch (err) {
      setError(`Could not save: ${errorText(err)}`);
    }
  }

  async function remove(e: TfgrpoExperience) {
    try {
      await callLearner(client, tfgrpoDefinition, TFGRPO_ACTIONS, 'delete', { origin, ids: [e.id] });
      changed('Experience deleted.');
    } catch (err) {
      setError(`Could not delete: ${errorText(err)}`);
    }
  }

  async function undo() {
    try {
      const { undone } = await callLearner(client, tfgrpoDefinition, TFGRPO_ACTIONS, 'undo', { origin });
      changed(undone ? 'The last update was undone.' : 'There is no update to undo.');
    } catch (err) {
      setError(`Could not undo: ${errorText(err)}`);
    }
  }

  if (error && !view) return <p class="error" role="alert">Could not read the experience library: {error}</p>;
  if (!view) return <p role="status" class="loading">Loading experiences…</p>;
  const last = view.lastUpdate;
  return (
    <div class="experience tfgrpo">
      {view.capability ? <p class="note">{view.capability}</p> : null}
      {notice ? <p class="notice" role="status">{notice}</p> : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
      {view.experiences.length === 0 ? <p class="empty">No experiences on this site yet. They are learned from groups of attempts at one task where some succeeded and some failed.</p> : (
        <ol aria-label={`Experiences on ${origin}`}>
          {view.experiences.map((e) => (
            <li key={e.id} class="experience-entry">
              {editing?.id === e.id ? (
                <form onSubmit={(ev) => { ev.preventDefault(); void save(); }}>
                  <label for={`edit-${e.id}`} class="visually-hidden">Experience text</label>
                  <textarea id={`edit-${e.id}`} maxLength={400} value={editing.text} onInput={(ev) => setEditing({ id: e.id, text: ev.currentTarget.value })} />
                  <button type="submit" class="small">Save</button>
                  <button type="button" class="small" onClick={() => setEditing(null)}>Cancel</button>
                </form>
              ) : (
                <div>{e.text} <span class="muted">[{e.id}]</span></div>
              )}
              {e.hint ? <div class="muted"><code>{e.hint.pageType}</code>{e.hint.prefer.length > 0 ? ` · do: ${e.hint.prefer.join('  ')}` : ''}{e.hint.avoid.length > 0 ? ` · avoid: ${e.hint.avoid.join('  ')}` : ''}</div> : null}
              <div class="muted small">{provenanceLine(e)}</div>
              {editing?.id === e.id ? null : (
                <>
                  <button type="button" class="small" onClick={() => setEditing({ id: e.id, text: e.text })}>Edit<span class="visually-hidden"> experience {e.id}</span></button>{' '}
                  <button type="button" class="small danger" onClick={() => remove(e)}>Delete<span class="visually-hidden"> experience {e.id}</span></button>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
      {last ? (
        <p class="meta">
          Last update {fmtTime(last.at)} from attempts at “{last.task}”: {last.added} added, {last.updated} changed, {last.deleted} deleted{last.evicted > 0 ? `, ${last.evicted} evicted` : ''}.{' '}
          <button type="button" class="small" onClick={undo}>Undo this update</button>
        </p>
      ) : null}
    </div>
  );
}

/** Training-Free GRPO's Memory-tab panel (MEMORY_PANELS). */
export function TfgrpoMemoryPanel({ client, origin, version, onChanged }: { client: UiClient; origin: string; version: number; onChanged: () => void }) {
  return (
    <details class="experience-details" open>
      <summary>Learned experiences (Training-Free GRPO)</summary>
      <TfgrpoLibrary client={client} origin={origin} version={version} onChanged={onChanged} />
    </details>
  );
}
