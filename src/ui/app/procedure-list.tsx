/**
 * The Memory tab's learned plans (issue 25; in words, issue 31): for each, its
 * template and steps as a person would say them, where it came from (the
 * agent's own success, a taught attempt, a demonstration), how often it
 * succeeded, when it was last used, and why it does not replay now; delete
 * it (with Undo), or mark it "never replay".
 */
import { useEffect, useState } from 'preact/hooks';
import type { UiClient, } from '../../protocol/validate.ts';
import type { UiResponse } from '../../protocol/messages.ts';
import { errorText, fmtTime } from './format.ts';
import { actionWords } from './action-words.ts';
import { useUndoableDelete } from './use-undoable-delete.ts';
import { UndoNotice } from './undo-notice.tsx';

type View = UiResponse<'procedures.list'>[number];

function provenance(v: View): string {
  const kinds = v.procedure.sources.map((s) => (s.source === 'demonstration' ? 'a demonstration' : s.taught ? 'a taught attempt' : s.source === 'imported' ? 'an import' : 'its own success'));
  return [...new Set(kinds)].join(', ');
}

export function ProcedureList({ client, origin, version }: { client: UiClient; origin: string; version: number }) {
  const [views, setViews] = useState<View[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    client.request('procedures.list', { origin }).then(
      (list) => { if (live) setViews(list); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, version, changed]);

  const act = (work: () => Promise<unknown>) => work().then(() => setChanged((n) => n + 1), (err: unknown) => setError(errorText(err)));
  const deletes = useUndoableDelete((err) => setError(errorText(err)), () => setChanged((n) => n + 1));

  if (error) return <p class="error" role="alert">Could not read the learned plans: {error}</p>;
  if (!views) return <p role="status" class="loading">Loading plans…</p>;
  const shown = views.filter((v) => !deletes.hidden.has(v.procedure.id));
  const notice = <UndoNotice deletes={deletes} />;
  if (shown.length === 0) return <>{notice}<p class="empty">No learned plan on this site yet: one is learned from a task that succeeded (with the learners that keep memory on).</p></>;
  return (
    <>
    {notice}
    <ul class="procedures" aria-label={`Procedures on ${origin}`}>
      {shown.map((v) => (
        <li key={v.procedure.id} class="experience-entry" data-procedure={v.procedure.id}>
          <div><strong>{v.procedure.template}</strong></div>
          <ol>{v.procedure.steps.map((s, i) => <li key={i} title={s.action}>{actionWords(s.action)} <span class="muted">on {s.regUrl}</span></li>)}</ol>
          <div class="muted small">
            from {provenance(v)} · {v.successCount} success{v.successCount === 1 ? '' : 'es'}
            {v.status.failures > 0 ? ` · ${v.status.failures} failed replay${v.status.failures === 1 ? '' : 's'}` : ''}
            {' · '}last used {v.status.lastUsedAt === null ? 'never' : fmtTime(v.status.lastUsedAt)}
          </div>
          {v.blocked ? <div class="muted" data-testid="procedure-blocked">Does not replay: {v.blocked}.</div> : null}
          <div class="row" role="group" aria-label={`Procedure ${v.procedure.template}`}>
            <button type="button" onClick={() => void act(() => client.request('procedures.neverReplay', { origin, id: v.procedure.id, never: !v.status.neverReplay }))}>
              {v.status.neverReplay ? 'Allow replay' : 'Never replay'}
            </button>
            <button type="button" class="danger" onClick={() => deletes.remove(v.procedure.id, `the plan “${v.procedure.template}”`, () => client.request('procedures.delete', { origin, id: v.procedure.id }))}>Delete</button>
          </div>
        </li>
      ))}
    </ul>
    </>
  );
}
