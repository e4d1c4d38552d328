/**
 * One member's Apprentice for team-memory tests and the benchmark: the
 * in-memory stores, every registry learner's memory, the file import's
 * write path, the provenance index and a local PouchDB replicating with a
 * team server.
 */
import { silentLogger } from '../../src/core/ports.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import type { LearnerPorts, LearnerStores } from '../../src/core/learning/learner-definition.ts';
import type { MemoryTransferDeps } from '../../src/core/learning/memory-transfer.ts';
import { inMemoryLearnerStores, REGISTERED_LEARNERS } from '../../src/core/learning/registry/registry-factories.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { MergeDeps } from '../../src/core/sync/merge-incoming.ts';
import type { Member } from '../../src/core/sync/shared-doc.ts';
import { TeamIndex } from '../../src/core/sync/team-index.ts';
import { runTeamSync, type TeamSyncConfig } from '../../src/core/sync/team-sync.ts';
import { PouchTeamDatabase } from '../../src/adapters/sync/pouch-team-database.ts';
import type { PouchDatabase } from '../../src/adapters/sync/pouch-types.ts';
import { memoryDb, remoteDb } from './node-pouch.ts';
import { TRANSITIONS } from '../../src/learners/jitrl/core/stores.ts';
import type { StepRowStore } from '../../src/core/stores/step-rows.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';

export interface TeamProfile {
  me: Member;
  stores: LearnerStores & { episodes: InMemoryEpisodeStore };
  /** The transitions store the member's stores hold (JitRL's declared store), for the test to write and read. */
  transitions: StepRowStore;
  deps: MergeDeps;
  local: PouchDatabase;
  db: PouchTeamDatabase;
  config: TeamSyncConfig;
  sync(signal?: AbortSignal): ReturnType<typeof runTeamSync>;
}

export interface ProfileOptions {
  me: Member;
  server: { url: string; database: string; auth: { username: string; password: string } };
  sharedSites: string[];
  now?: () => number;
  muted?: Set<string>;
  batchSize?: number;
  /** The member's stores (the benchmark passes a learner set's); fresh in-memory ones by default. */
  stores?: TeamProfile['stores'];
}

export function teamProfile(options: ProfileOptions): TeamProfile {
  const stores = options.stores ?? { ...inMemoryLearnerStores(), episodes: new InMemoryEpisodeStore() };
  const now = options.now ?? (() => Date.now());
  const ports: LearnerPorts = {
    stores,
    settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now }, random: seededRandom(1),
  };
  const learnerMemories = REGISTERED_LEARNERS.flatMap((d) => (d.memory ? [{ id: d.id, memory: d.memory(ports) }] : []));
  const transfer: MemoryTransferDeps = {
    episodes: stores.episodes,
    learnerMemories,
    learning: { learners: () => [], rewards: () => DEFAULT_SETTINGS.rewards, logger: silentLogger },
    writeImport: inMemoryImportWriter(stores, learnerMemories),
    upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
    now,
  };
  const deps: MergeDeps = { transfer, index: new TeamIndex(stores.learnerData), stores };
  const local = memoryDb(options.me.name);
  const db = new PouchTeamDatabase({
    local, serverLabel: options.server.url, ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    remote: () => remoteDb(options.server.url, options.server.database, options.server.auth),
  });
  const config: TeamSyncConfig = { me: options.me, sharedSites: options.sharedSites, muted: options.muted ?? new Set(), appVersion: '0.1.0', now };
  return { me: options.me, stores, transitions: stores.declared(TRANSITIONS), deps, local, db, config, sync: (signal) => runTeamSync(deps, db, config, signal) };
}
