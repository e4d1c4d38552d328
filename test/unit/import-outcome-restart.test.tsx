// @vitest-environment happy-dom
/**
 * Issue 30, lower item: a worker stop during an import lost the reply though
 * the data landed, and the panel said "nothing was changed". The outcome is
 * now committed with the data under the import's id (meta store) and read
 * back after the restart: here through the real importMemory, the real
 * IndexedDB adapter (fake-indexeddb, the database closed and opened again as
 * a restarted worker does) and the real Memory tab.
 */
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { cleanup, render, screen } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { idbImportOutcomes, writeImportAtomically } from '../../src/adapters/idb/idb-archive-import.ts';
import { openApprenticeDb, type ApprenticeDb } from '../../src/adapters/idb/open-database.ts';
import { IdbEpisodeStore } from '../../src/adapters/idb/idb-episode-store.ts';
import { EpisodeSchema, type Episode } from '../../src/core/episode/episode.ts';
import { importMemory, type MemoryTransferDeps } from '../../src/core/learning/memory-transfer.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { createUiClient, dispatchUiRequest, type UiHandlers } from '../../src/protocol/validate.ts';
import type { UiRequestType } from '../../src/protocol/messages.ts';
import { MemoryTab } from '../../src/ui/app/memory-tab.tsx';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';

afterEach(cleanup);

const ORIGIN = 'https://shop.example';
const episode = (id: string): Episode => EpisodeSchema.parse({
  id, origin: ORIGIN, task: 'buy', startUrl: `${ORIGIN}/`, tabId: null, status: 'success', steps: [], answer: null, error: null,
  learners: [], attempt: 1, kind: 'live', startedAt: 1, endedAt: 2,
});
const archive = JSON.stringify({ format: 'apprentice-memory', version: 1, exportedAt: 9, transitions: [], episodes: [episode('e1'), episode('e2')], experiences: [] });

function deps(db: ApprenticeDb): MemoryTransferDeps {
  return {
    episodes: new IdbEpisodeStore(db),
    learnerMemories: [],
    learning: { learners: () => [], rewards: () => DEFAULT_SETTINGS.rewards, logger: silentLogger },
    writeImport: (rows) => writeImportAtomically(db, rows),
    importOutcomes: idbImportOutcomes(db),
    upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
    now: () => 1234,
  };
}

describe('an import\'s outcome survives a worker restart', () => {
  it('is committed with the data and read back from the reopened database; an id never imported reads null', async () => {
    const factory = new IDBFactory();
    const before = await openApprenticeDb({ factory });
    await importMemory(deps(before), archive, { importId: 'import-0001' });
    before.close();
    const after = await openApprenticeDb({ factory });
    expect(await idbImportOutcomes(after).get('import-0001')).toEqual({
      importId: 'import-0001', at: 1234, complete: true, result: { transitions: 0, episodes: 2, experiences: 0 },
    });
    expect(await idbImportOutcomes(after).get('import-0002')).toBeNull();
    expect((await new IdbEpisodeStore(after).all()).map((e) => e.id).sort()).toEqual(['e1', 'e2']);
  });

  it('is not there when the import did not commit (a write failed: nothing landed, nor its outcome)', async () => {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    const broken = { ...episode('e3'), id: undefined } as unknown as Episode; // no key: the put fails, the transaction aborts
    await expect(writeImportAtomically(db, {
      episodes: [episode('e1'), broken], learnerData: [], own: [],
      outcome: { importId: 'import-0003', at: 1, complete: true, result: { transitions: 0, episodes: 2, experiences: 0 } },
    })).rejects.toThrow(/nothing was imported/);
    expect(await idbImportOutcomes(db).get('import-0003')).toBeNull();
    expect(await new IdbEpisodeStore(db).all()).toEqual([]);
  });

  it('a damaged stored outcome is an error, not "nothing landed"', async () => {
    const db = await openApprenticeDb({ factory: new IDBFactory() });
    await db.put('meta', { importId: 'import-0004', at: 'soon' } as never, 'import:import-0004');
    await expect(idbImportOutcomes(db).get('import-0004')).rejects.toThrow(/stored outcome of import import-0004 is unreadable/);
  });

  it('the Memory tab reads the outcome back when the worker stopped before answering', async () => {
    const factory = new IDBFactory();
    let db = await openApprenticeDb({ factory });
    const sent: UiRequestType[] = [];
    const handlers = (): Partial<UiHandlers<null>> => ({
      'memory.sites': async () => [],
      'memory.import': async ({ json, importId }) => importMemory(deps(db), json, importId === undefined ? {} : { importId }),
      'memory.importOutcome': async ({ importId }) => ({ outcome: await idbImportOutcomes(db).get(importId) }),
    });
    const client = createUiClient(async (raw) => {
      const type = (raw as { type: UiRequestType }).type;
      sent.push(type);
      const reply = await dispatchUiRequest(handlers() as UiHandlers<null>, raw, null);
      if (type !== 'memory.import') return reply;
      // The import committed; then the worker stopped: the reply is lost, and the next message starts a new worker.
      db.close();
      db = await openApprenticeDb({ factory });
      throw new Error('The message port closed before a response was received.');
    });
    const user = userEvent.setup();
    render(<MemoryTab client={client} origin={ORIGIN} />);
    await screen.findByText(/Nothing learned yet/);
    await user.upload(screen.getByLabelText('Import from JSON'), new File([archive], 'mine.json', { type: 'application/json' }));
    expect(await screen.findByText(/^Imported 0 transitions, 2 episodes and 0 experiences from mine.json. \(Apprentice stopped before it answered; this was read back after it restarted.\)$/)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sent.filter((t) => t.startsWith('memory.import'))).toEqual(['memory.import', 'memory.importOutcome']);
  });

  it('says nothing changed when the stopped import never committed', async () => {
    const client = createUiClient(async (raw) => {
      const type = (raw as { type: UiRequestType }).type;
      if (type === 'memory.import') throw new Error('The message port closed before a response was received.');
      return dispatchUiRequest({ 'memory.sites': async () => [], 'memory.importOutcome': async () => ({ outcome: null }) } as Partial<UiHandlers<null>> as UiHandlers<null>, raw, null);
    });
    const user = userEvent.setup();
    render(<MemoryTab client={client} origin={ORIGIN} />);
    await screen.findByText(/Nothing learned yet/);
    await user.upload(screen.getByLabelText('Import from JSON'), new File([archive], 'mine.json', { type: 'application/json' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('mine.json was not imported: Apprentice stopped before the import was saved, and nothing was changed. Import it again.');
  });
});
