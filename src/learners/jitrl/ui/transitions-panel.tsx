/**
 * JitRL's Memory-tab panel: the site's transitions (its memory M), newest
 * first, under a disclosure: search by task, action or page, delete one with
 * Undo, page through. It asks JitRL through its actions (core/actions.ts).
 */
import { useEffect, useState } from 'preact/hooks';
import type { MemoryPanelProps } from '../../../ui/app/learner-view-types.ts';
import { callLearner } from '../../../ui/app/learner-action.ts';
import { errorText, fmtNum, fmtTime } from '../../../ui/app/format.ts';
import { useUndoableDelete } from '../../../ui/app/use-undoable-delete.ts';
import { UndoNotice } from '../../../ui/app/undo-notice.tsx';
import { JITRL_ACTIONS } from '../core/actions.ts';
import type { Transition } from '../core/transition.ts';
import { jitrlDefinition } from '../definition.ts';

const PAGE = 50;
type SiteCounts = { transitions: number; pages: number; lastUpdated: number };

export function JitrlTransitionsPanel({ client, origin, version, onChanged }: MemoryPanelProps) {
  const [counts, setCounts] = useState<SiteCounts | null>(null);
  const [query, setQuery] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [offset, setOffset] = useState(0);
  const [items, setItems] = useState<Transition[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const deletes = useUndoableDelete((err) => setError(`Could not delete: ${errorText(err)}`), onChanged);

  useEffect(() => {
    let live = true;
    callLearner(client, jitrlDefinition, JITRL_ACTIONS, 'site', { origin }).then(
      (c) => { if (live) setCounts(c); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, version]);

  useEffect(() => {
    let live = true;
    setItems(null);
    setError(null);
    callLearner(client, jitrlDefinition, JITRL_ACTIONS, 'list', { origin, query: submitted, limit: PAGE, offset }).then(
      (l) => { if (live) setItems(l); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, submitted, offset, version]);

  const remove = (t: Transition) => deletes.remove(t.id, `the step ${t.action}`, () => callLearner(client, jitrlDefinition, JITRL_ACTIONS, 'delete', { ids: [t.id] }));
  const total = counts?.transitions ?? 0;

  return (
    <div class="transitions-panel">
      {counts ? <p class="meta">{total} transitions on {counts.pages} pages{counts.lastUpdated ? ` · updated ${fmtTime(counts.lastUpdated)}` : ''}</p> : null}
      <details class="raw-transitions">
        <summary>Raw transitions ({total})</summary>
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
          <ul class="transitions" aria-label={`Transitions on ${origin}`}>
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
    </div>
  );
}
