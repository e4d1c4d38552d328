/**
 * Importing a memory file from the Memory tab, and reading what the import did
 * when its reply was lost (issue 30): the service worker can stop during a
 * long import, after the data landed. Each import gets an id; the worker
 * commits the outcome under it with the data, and the panel asks for it
 * (memory.importOutcome) when the reply does not come — the question wakes
 * the worker again.
 */
import type { ImportOutcome, MemoryImportResult } from '../../core/archive/import-outcome.ts';
import { RemoteError, type UiClient } from '../../protocol/validate.ts';
import { errorText } from './format.ts';

export type ImportAnswer = { ok: true; notice: string } | { ok: false; error: string };

const importedText = (r: MemoryImportResult, file: string): string => {
  const learnerParts = Object.entries(r.learners ?? {}).map(([id, part]) => `${id}: ${part.imported} imported${part.rejected.length ? `, ${part.rejected.length} refused (${part.rejected[0]})` : ''}`);
  return `Imported ${r.transitions} transitions, ${r.episodes} episodes and ${r.experiences} experiences${learnerParts.length ? `; ${learnerParts.join('; ')}` : ''} from ${file}.`;
};

const recoveredText = (o: ImportOutcome, file: string): string =>
  `${importedText(o.result, file)} (Apprentice stopped before it answered; this was read back after it restarted.`
  + `${o.complete ? '' : ' The learners had not finished learning from the file when it stopped.'})`;

export interface ImportOptions {
  newId?: () => string;
  /** Waits between asking again for the outcome (the worker may still be starting). */
  pause?: (ms: number) => Promise<void>;
  tries?: number;
}

export async function importMemoryFile(client: UiClient, file: { name: string; text(): Promise<string> }, options: ImportOptions = {}): Promise<ImportAnswer> {
  const importId = (options.newId ?? (() => crypto.randomUUID()))();
  let json: string;
  try {
    json = await file.text();
  } catch (err) {
    return { ok: false, error: `${file.name} could not be read, and nothing was changed: ${errorText(err)}` };
  }
  try {
    return { ok: true, notice: importedText(await client.request('memory.import', { json, importId }), file.name) };
  } catch (err) {
    // The worker answered with an error: it validated or wrote nothing.
    if (err instanceof RemoteError) return { ok: false, error: `${file.name} was not imported, and nothing was changed: ${errorText(err)}` };
    return outcomeAfterLostReply(client, importId, file.name, err, options);
  }
}

async function outcomeAfterLostReply(client: UiClient, importId: string, name: string, lost: unknown, options: ImportOptions): Promise<ImportAnswer> {
  const pause = options.pause ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let last: unknown = lost;
  for (let i = 0; i < (options.tries ?? 3); i++) {
    try {
      const { outcome } = await client.request('memory.importOutcome', { importId });
      if (outcome) return { ok: true, notice: recoveredText(outcome, name) };
      // Committed with the data, so no outcome means no data: the transaction did not commit.
      return { ok: false, error: `${name} was not imported: Apprentice stopped before the import was saved, and nothing was changed. Import it again.` };
    } catch (err) {
      last = err;
      await pause(1000);
    }
  }
  return { ok: false, error: `Whether ${name} was imported is unknown: Apprentice does not answer (${errorText(last)}). Reload the panel, then check the Memory tab before importing it again.` };
}
