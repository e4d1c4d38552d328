/**
 * Team memory in the service worker: wires the settings, the local PouchDB
 * and the team server into core/sync's round (publish, replicate, merge) and
 * answers the panel's team.* requests. One round at a time; the last
 * round's outcome is kept for the panel.
 */
import { forgetTeammate, type MergeDeps } from '../core/sync/merge-incoming.ts';
import { TeamSyncError } from '../core/sync/sync-errors.ts';
import { TeamIndex } from '../core/sync/team-index.ts';
import { teamSettingsProblem, type TeamSettings } from '../core/sync/team-settings.ts';
import { mergeReviewed, runTeamSync, type TeamSyncConfig, type TeamSyncReport } from '../core/sync/team-sync.ts';
import type { MemoryTransferDeps } from '../core/learning/memory-transfer.ts';
import type { PouchDatabase } from '../adapters/sync/pouch-types.ts';
import { PouchTeamDatabase } from '../adapters/sync/pouch-team-database.ts';
import { teamTestTarget } from '../core/sync/team-test-target.ts';
import { testTeamConnection } from '../adapters/sync/test-connection.ts';
import type { TeamSettingsStore } from '../adapters/sync/team-settings-store.ts';
import type { Handlers } from '../protocol/validate.ts';
import type * as z from 'zod';
import type { TeammateSchema, TeamRequests, TeamSyncStatus } from '../protocol/team-messages.ts';

export interface TeamMemoryDeps {
  settings: TeamSettingsStore;
  transfer: MemoryTransferDeps;
  stores: MergeDeps['stores'];
  localDb(): PouchDatabase;
  remoteDb(settings: TeamSettings, password: string): PouchDatabase;
  appVersion: string;
  now(): number;
}

const EMPTY_STATUS: TeamSyncStatus = {
  at: null, ok: null, message: null, published: 0, withdrawn: 0, pushed: 0, pulled: 0, imported: 0, removed: 0, masked: 0, refused: [], held: [], conflicts: [],
};

function statusOf(report: TeamSyncReport, at: number): TeamSyncStatus {
  return {
    at, ok: true, message: null,
    published: report.published.put, withdrawn: report.published.deleted, masked: report.published.masked,
    pushed: report.replication.pushed, pulled: report.replication.pulled,
    imported: report.merge.imported, removed: report.merge.removed,
    refused: report.merge.refused.slice(0, 50), held: report.merge.held.slice(0, 50),
    conflicts: report.merge.conflicts.slice(0, 50).map((c) => ({
      origin: c.origin, part: c.part, key: c.key, kept: `${c.kept.author} (${new Date(c.kept.taughtAt).toISOString()})`,
      setAside: c.setAside.map((v) => `${v.author} (${new Date(v.taughtAt).toISOString()})`),
    })),
  };
}

export class TeamMemory {
  readonly index: TeamIndex;
  private status: TeamSyncStatus = EMPTY_STATUS;
  private running: Promise<TeamSyncStatus> | null = null;
  private local: PouchDatabase | null = null;

  constructor(private readonly d: TeamMemoryDeps) {
    this.index = new TeamIndex(d.stores.learnerData);
  }

  /** One round now (or the one already running). Never throws: the outcome is the status. */
  sync(): Promise<TeamSyncStatus> {
    this.running ??= this.round().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async round(): Promise<TeamSyncStatus> {
    const settings = await this.d.settings.load();
    const problem = teamSettingsProblem(settings);
    if (problem) return (this.status = { ...EMPTY_STATUS, at: this.d.now(), ok: false, message: `Team memory is not set up: ${problem}.` });
    const { db, deps, config } = await this.parts(settings);
    try {
      const report = await runTeamSync(deps, db, config);
      this.status = statusOf(report, this.d.now());
    } catch (error) {
      const message = error instanceof TeamSyncError ? error.message : `Team sync failed: ${error instanceof Error ? error.message : String(error)}. Nothing in your local memory was changed or lost.`;
      this.status = { ...this.status, at: this.d.now(), ok: false, message };
    }
    return this.status;
  }

  private async parts(settings: TeamSettings): Promise<{ db: PouchTeamDatabase; deps: MergeDeps; config: TeamSyncConfig }> {
    const password = await this.d.settings.password();
    this.local ??= this.d.localDb();
    return {
      db: new PouchTeamDatabase({ local: this.local, serverLabel: settings.serverUrl, remote: () => this.d.remoteDb(settings, password) }),
      deps: { transfer: this.d.transfer, index: this.index, stores: this.d.stores },
      config: {
        me: { id: settings.memberId, name: settings.memberName.trim() }, sharedSites: settings.sharedSites,
        muted: new Set(settings.muted.map((m) => m.id)), reviewed: new Set(settings.reviewed), appVersion: this.d.appVersion, now: this.d.now,
      },
    };
  }

  /** The person accepted a held document: remembered, and merged now from the local team database. */
  async acceptHeld(docId: string): Promise<{ imported: number; message: string | null }> {
    const settings = await this.d.settings.load();
    const saved = settings.reviewed.includes(docId) ? settings : await this.d.settings.save({ ...settings, reviewed: [...settings.reviewed, docId] }, null);
    const { db, deps, config } = await this.parts(saved);
    const report = await mergeReviewed(deps, db, config, docId);
    this.status = { ...this.status, held: this.status.held.filter((h) => h.docId !== docId) };
    const problem = [...report.refused, ...report.held].find((r) => r.docId === docId);
    return { imported: report.imported, message: problem ? problem.reason : null };
  }

  /** "Forget this site" also forgets which of the site's rows came from whom. */
  async forgetSite(origin: string): Promise<void> {
    await this.index.memory().forgetSite(origin);
  }

  async teammates(): Promise<z.infer<typeof TeammateSchema>[]> {
    const settings = await this.d.settings.load();
    type Row = z.infer<typeof TeammateSchema>['recent'][number];
    const byId = new Map<string, { id: string; name: string; items: number; sites: Set<string>; lastTaughtAt: number; muted: boolean; recent: Row[] }>();
    for (const m of settings.muted) byId.set(m.id, { id: m.id, name: m.name, items: 0, sites: new Set(), lastTaughtAt: 0, muted: true, recent: [] });
    for (const row of await this.index.rows()) {
      const p = row.entry.provenance;
      const t = byId.get(p.author.id) ?? { id: p.author.id, name: p.author.name, items: 0, sites: new Set<string>(), lastTaughtAt: 0, muted: false, recent: [] };
      t.items += 1;
      t.sites.add(row.origin);
      t.lastTaughtAt = Math.max(t.lastTaughtAt, p.taughtAt);
      t.recent.push({ origin: row.origin, part: row.entry.part, key: row.entry.key, taughtAt: p.taughtAt, episodeId: p.episodeId, appVersion: p.appVersion });
      byId.set(p.author.id, t);
    }
    return [...byId.values()]
      .map((t) => ({ ...t, sites: [...t.sites].sort(), recent: t.recent.sort((a, b) => b.taughtAt - a.taughtAt).slice(0, 20) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  handlers(): Handlers<typeof TeamRequests, undefined> {
    const view = async (s?: TeamSettings) => ({ ...(s ?? (await this.d.settings.load())), hasPassword: (await this.d.settings.password()) !== '' });
    return {
      'team.settings': async () => view(),
      'team.saveSettings': async ({ settings, password }) => view(await this.d.settings.save(settings, password)),
      'team.test': async ({ connection, password }) => {
        const s = await this.d.settings.load();
        const stored = await this.d.settings.password();
        if (!connection) return testTeamConnection({ serverUrl: s.serverUrl, database: s.database, username: s.username, password: stored });
        const target = teamTestTarget(s, connection, password ?? null, stored);
        if (!target.ok) return { ok: false as const, problem: 'credentials', message: target.message };
        return testTeamConnection(target.connection);
      },
      'team.sync': async () => this.sync(),
      'team.status': async () => this.status,
      'team.acceptHeld': async ({ docId }) => this.acceptHeld(docId),
      'team.teammates': async () => this.teammates(),
      'team.forgetTeammate': async ({ id }) => {
        const s = await this.d.settings.load();
        const name = (await this.teammates()).find((t) => t.id === id)?.name ?? id;
        if (!s.muted.some((m) => m.id === id)) await this.d.settings.save({ ...s, muted: [...s.muted, { id, name: name.slice(0, 80) || id }] }, null);
        return { removed: await forgetTeammate({ index: this.index, stores: this.d.stores, transfer: this.d.transfer }, id) };
      },
    };
  }
}
