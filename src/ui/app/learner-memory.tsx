/**
 * The Memory tab's section per registry learner that lists its memory
 * (`LearnerMemory.list`, e.g. every learner keeping its records in
 * LearnerData). A learner registers its own view in MEMORY_VIEWS, like
 * EVIDENCE_VIEWS; one without a view gets each record's key and value.
 * A learner whose memory lists nothing here (the background answers null)
 * gets no section.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { LEARNERS } from '../../core/learning/registry/registry.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText, fmtTime } from './format.ts';
import type { MemoryPanelProps, MemoryRecord, MemoryViewProps } from './learner-view-types.ts';
import { MEMORY_PANELS, MEMORY_VIEWS } from './learner-views.ts';

export type { MemoryPanelProps, MemoryRecord, MemoryViewProps } from './learner-view-types.ts';
export { MEMORY_PANELS, MEMORY_VIEWS } from './learner-views.ts';




/** The fallback: one line per record, its key, its value as JSON, when it was written. */
export function GenericMemory({ records }: MemoryViewProps) {
  return (
    <ul class="learner-memory">
      {records.map((r) => (
        <li key={r.key}>
          <code>{r.key}</code> <span class="meta">{fmtTime(r.updatedAt)}{r.importedFrom ? ` · imported from ${r.importedFrom}` : ''}</span>
          <pre>{JSON.stringify(r.value, null, 1)}</pre>
        </li>
      ))}
    </ul>
  );
}

function LearnerMemorySection({ client, definition, origin, version, View }: {
  client: UiClient; definition: LearnerDefinition; origin: string; version: number; View: ComponentType<MemoryViewProps>;
}) {
  const [records, setRecords] = useState<MemoryRecord[] | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setRecords(undefined);
    setError(null);
    client.request('learner.memory', { learnerId: definition.id, origin }).then(
      (list) => { if (live) setRecords(list); },
      (err: unknown) => { if (live) setError(errorText(err)); },
    );
    return () => { live = false; };
  }, [client, definition.id, origin, version]);
  // null: this learner lists nothing here (a learner with a panel of its own shows it instead).
  if (records === null) return null;
  return (
    <details class="learner-memory-details" open aria-label={`${definition.label} memory`}>
      <summary>{definition.label}</summary>
      {error ? <p class="error" role="alert">Could not read {definition.label}'s memory: {error}</p>
        : records === undefined ? <p role="status" class="loading">Loading…</p>
        : records.length === 0 ? <p class="empty">{definition.label} has learned nothing on this site yet.</p>
        : <View records={records} />}
    </details>
  );
}

export function LearnerMemorySections({ client, origin, version, onChanged = () => undefined, registry = LEARNERS, views = MEMORY_VIEWS, panels = MEMORY_PANELS }: {
  client: UiClient; origin: string; version: number; onChanged?: () => void;
  registry?: readonly LearnerDefinition[]; views?: Readonly<Record<string, ComponentType<MemoryViewProps>>>;
  panels?: Readonly<Record<string, ComponentType<MemoryPanelProps>>>;
}) {
  return (
    <>
      {registry.filter((d) => d.keepsMemory).map((d) => {
        const Panel = panels[d.id];
        return Panel
          ? <Panel key={d.id} client={client} origin={origin} version={version} onChanged={onChanged} />
          : <LearnerMemorySection key={d.id} client={client} definition={d} origin={origin} version={version} View={views[d.id] ?? GenericMemory} />;
      })}
    </>
  );
}
