/**
 * CER's buffer for one site: the distilled dynamics (what each page is for)
 * and skills (abstract steps with {variables}), with their provenance — how
 * many episodes taught them, how often they were replayed, and how often the
 * episode then succeeded.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ExperienceEntry } from '../core/experience.ts';
import { CER_ACTIONS } from '../core/actions.ts';
import { cerDefinition } from '../definition.ts';
import { callLearner } from '../../../ui/app/learner-action.ts';
import type { UiClient } from '../../../protocol/validate.ts';
import { errorText, fmtTime } from '../../../ui/app/format.ts';

export function ExperienceList({ client, origin, version }: { client: UiClient; origin: string; version: number }) {
  const [entries, setEntries] = useState<ExperienceEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setEntries(null);
    setError(null);
    callLearner(client, cerDefinition, CER_ACTIONS, 'list', { origin }).then(
      (list) => { if (live) setEntries(list); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, origin, version]);

  if (error) return <p class="error" role="alert">Could not read the experience buffer: {error}</p>;
  if (!entries) return <p role="status" class="loading">Loading experience…</p>;
  const dynamics = entries.filter((e) => e.kind === 'dynamics');
  const skills = entries.filter((e) => e.kind === 'skill');
  if (entries.length === 0) return <p class="empty">No distilled experience on this site yet.</p>;

  const provenance = (e: ExperienceEntry) => {
    const p = e.provenance;
    return `from ${p.episodeIds.length} episode${p.episodeIds.length === 1 ? '' : 's'} (${p.source}) · replayed ${p.retrieved}× · then succeeded ${p.retrievedThenSucceeded}× · ${fmtTime(p.updatedAt)}`;
  };

  return (
    <div class="experience">
      <h3>Pages it knows ({dynamics.length})</h3>
      <ul aria-label={`Dynamics on ${origin}`}>
        {dynamics.map((d) => (
          <li key={d.id} class="experience-entry">
            <div><strong>{d.pageName}</strong> <code>{d.regUrl}</code> <span class="muted">[{d.id}]</span></div>
            {d.description ? <div>{d.description}</div> : null}
            {d.usages.length > 0 ? <div class="muted">for: {d.usages.join('; ')}</div> : null}
            <div class="muted small">{provenance(d)}</div>
          </li>
        ))}
      </ul>
      <h3>Skills ({skills.length})</h3>
      <ul aria-label={`Skills on ${origin}`}>
        {skills.map((s) => (
          <li key={s.id} class="experience-entry">
            <div><strong>{s.name}</strong> <span class="muted">[{s.id}]</span></div>
            <ol>
              {s.steps.map((step, i) => (
                <li key={i}>
                  {step.text}
                  {step.exampleActions.length > 0 ? <div class="muted"><code>{step.exampleActions.join('  ')}</code></div> : null}
                </li>
              ))}
            </ol>
            <div class="muted small">{provenance(s)}</div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** CER's Memory-tab panel (MEMORY_PANELS). */
export function CerMemoryPanel({ client, origin, version }: { client: UiClient; origin: string; version: number }) {
  return (
    <details class="experience-details" open>
      <summary>Distilled experience (CER)</summary>
      <ExperienceList client={client} origin={origin} version={version} />
    </details>
  );
}
