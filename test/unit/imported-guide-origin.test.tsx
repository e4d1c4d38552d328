// @vitest-environment happy-dom
/**
 * An imported guide shows its origin (issue 24): a Meta-TTL guide that came
 * from an archive or from team memory says so in the panel — "imported from
 * an archive exported <date>" / "imported from team memory, shared by <name>"
 * — until the meta-agent or the person writes a guide of their own here.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { LearnerMemory } from '../../src/core/learning/learner-definition.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { importMemory, type MemoryTransferDeps } from '../../src/core/learning/memory-transfer.ts';
import { emptyGuideRecord, replaceGuide, type GuideRecord } from '../../src/learners/metattl/core/guide-record.ts';
import { LearnerDataGuideStore } from '../../src/learners/metattl/core/guide-store.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { MetaTtlGuideView } from '../../src/learners/metattl/ui/metattl-guide-view.tsx';
import { EvotestLineageView } from '../../src/learners/evotest/ui/evotest-lineage-view.tsx';
import { newLineage } from '../../src/learners/evotest/core/lineage.ts';
import { lineageDataOn, lineageStoreOn } from '../../src/learners/evotest/core/lineage-store.ts';
import { SEED } from '../../src/learners/evotest/test/evotest-helpers.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';

afterEach(cleanup);

const ORIGIN = 'http://shop.test';
// 2026-11-24T10:00:00Z
const EXPORTED_AT = Date.UTC(2026, 10, 24, 10);

function guide(): GuideRecord {
  const r = emptyGuideRecord(`${ORIGIN}|buy a kettle`, ORIGIN, 'Buy a kettle', 1);
  return replaceGuide({ ...r, attempts: 1 }, { guide: 'Search first, then open the cheapest.', diagnosis: 'ok', afterAttempt: 1, outcome: 'success', now: 2 });
}

function setUp() {
  const learnerData = new InMemoryLearnerDataStore();
  const episodes = new InMemoryEpisodeStore();
  const guides = new LearnerDataGuideStore(learnerData, 'metattl');
  const learnerMemories: { id: string; memory: LearnerMemory }[] = [{ id: 'metattl', memory: guides.data.memory() }];
  const deps: MemoryTransferDeps = {
    episodes, learnerMemories,
    learning: { learners: () => [], rewards: () => DEFAULT_SETTINGS.rewards, logger: silentLogger },
    writeImport: inMemoryImportWriter({ episodes, learnerData }, learnerMemories),
    now: () => EXPORTED_AT + 1000,
    upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
  };
  return { deps, guides };
}

const archive = (record: GuideRecord, extra: Record<string, unknown> = {}) => JSON.stringify({
  format: 'apprentice-memory', version: 1, exportedAt: EXPORTED_AT, transitions: [], episodes: [], experiences: [],
  learners: { metattl: [{ learnerId: 'metattl', origin: ORIGIN, key: record.key, value: record, updatedAt: 5, ...extra }] },
});

describe('an imported guide keeps where it came from', () => {
  it('a guide imported from an archive reads back with its origin', async () => {
    const { deps, guides } = setUp();
    await importMemory(deps, archive(guide()));
    const read = await guides.get(ORIGIN, guide().key);
    expect(read?.guide).toBe('Search first, then open the cheapest.');
    expect(read?.importedFrom).toBe('an archive exported 2026-11-24');
    expect((await guides.list(ORIGIN)).map((g) => g.importedFrom)).toEqual(['an archive exported 2026-11-24']);
  });

  it('what the file claims about its origin is not believed: the import says where it came from', async () => {
    const { deps, guides } = setUp();
    await importMemory(deps, archive(guide(), { importedFrom: 'your own browser' }));
    expect((await guides.get(ORIGIN, guide().key))?.importedFrom).toBe('an archive exported 2026-11-24');
  });

  it('a guide written here afterwards is this browser\'s own again', async () => {
    const { deps, guides } = setUp();
    await importMemory(deps, archive(guide()));
    const imported = (await guides.get(ORIGIN, guide().key))!;
    await guides.put(replaceGuide(imported, { guide: 'Use the filter.', diagnosis: 'ok', afterAttempt: 2, outcome: 'success', now: 9 }));
    const mine = await guides.get(ORIGIN, guide().key);
    expect(mine?.guide).toBe('Use the filter.');
    expect(mine?.importedFrom).toBeUndefined();
  });
});

describe('the panel shows an imported guide\'s origin', () => {
  it('says "imported from …" under the guide in force', () => {
    render(<MetaTtlGuideView record={{ ...guide(), importedFrom: 'team memory, shared by Ada' }} inactiveReason={null} onSave={async () => {}} onReset={async () => {}} />);
    expect(screen.getByText(/imported from team memory, shared by Ada/)).toBeVisible();
  });

  it('says nothing of the kind for a guide written here', () => {
    render(<MetaTtlGuideView record={guide()} inactiveReason={null} onSave={async () => {}} onReset={async () => {}} />);
    expect(screen.queryByText(/imported from/)).toBeNull();
  });
});

describe('an imported EvoTest lineage (its guidance) shows where it came from', () => {
  it('reads back with its origin from the store, loses it when EvoTest writes it here, and the view says so', async () => {
    const { deps } = setUp();
    const store = new InMemoryLearnerDataStore();
    const lineages = lineageStoreOn(store);
    const evotestDeps: MemoryTransferDeps = { ...deps, learnerMemories: [{ id: 'evotest', memory: lineageDataOn(store).memory() }], writeImport: inMemoryImportWriter({ episodes: new InMemoryEpisodeStore(), learnerData: store }, []) };
    const lineage = newLineage({ origin: ORIGIN, template: 'buy …', seed: SEED, now: 0 });
    await importMemory(evotestDeps, JSON.stringify({
      format: 'apprentice-memory', version: 1, exportedAt: EXPORTED_AT, transitions: [], episodes: [], experiences: [],
      learners: { evotest: [{ learnerId: 'evotest', origin: ORIGIN, key: 'buy …', value: lineage, updatedAt: 5 }] },
    }));
    const read = await lineages.get(lineage.key);
    expect(read?.importedFrom).toBe('an archive exported 2026-11-24');
    expect((await lineages.list(ORIGIN)).map((l) => l.importedFrom)).toEqual(['an archive exported 2026-11-24']);
    render(<EvotestLineageView lineages={[read!]} mode="offline" onPin={() => {}} onReset={() => {}} />);
    expect(screen.getByText(/imported from an archive exported 2026-11-24/)).toBeVisible();
    await lineages.put({ ...read!, updatedAt: 9 });
    expect((await lineages.get(lineage.key))?.importedFrom).toBeUndefined();
  });
});
