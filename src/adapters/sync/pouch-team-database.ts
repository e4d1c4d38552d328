/**
 * The team database port over PouchDB: a local database (IndexedDB in the
 * extension) that replicates with the team's CouchDB database by CouchDB's
 * own protocol (PouchDB's `replicate`), so checkpoints, resumption and
 * de-duplication are CouchDB's, not ours.
 *
 * Pull is filtered by the shared sites with a Mango selector on `origin`.
 * Deletions keep `origin` and `type` in their tombstone so the filter lets
 * them through (a bare tombstone has no fields to match).
 */
import type { ChangeBatch, ReplicationReport, TeamDatabasePort } from '../../core/sync/team-sync.ts';
import { parseDocId } from '../../core/sync/merge-incoming.ts';
import type { SharedDoc } from '../../core/sync/shared-doc.ts';
import { teamSyncError, TeamSyncError } from '../../core/sync/sync-errors.ts';
import { UNREACHABLE_REASON } from './selector-fetch.ts';
import type { PouchDatabase, PouchReplication, PouchReplicationResult, PouchWriteResult } from './pouch-types.ts';

const CHECKPOINT_ID = '_local/apprentice-merge';
const WRITE_CHUNK = 2000;

export interface PouchTeamDatabaseOptions {
  local: PouchDatabase;
  /** The team database on the server (built lazily: no request is made before a sync). */
  remote: () => PouchDatabase;
  /** What the user knows the server as, for messages. */
  serverLabel: string;
  batchSize?: number;
}

/** The problem a PouchDB or fetch error stands for. */
export function classifyPouchError(error: unknown, serverLabel: string, database: string): TeamSyncError {
  if (error instanceof TeamSyncError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as { status?: number; name?: string; message?: string; reason?: string; error?: unknown };
  const text = `${e.name ?? ''} ${e.message ?? ''} ${e.reason ?? ''}`;
  if (/quota/i.test(text) || e.status === 507) return teamSyncError('quota', e.reason ?? e.message ?? 'storage full', error);
  if (e.status === 401) return teamSyncError('credentials', serverLabel, error);
  if (e.status === 403) return teamSyncError('forbidden', `"${database}"`, error);
  if (e.status === 404) return teamSyncError('missing-database', `"${database}"`, error);
  if (e.status === 413) return teamSyncError('too-large', e.reason ?? 'HTTP 413', error);
  if ((e.reason ?? '').startsWith(UNREACHABLE_REASON) || e.status === undefined || e.status === 0 || /fetch|network|ECONNREFUSED|ECONNRESET|socket|aborted/i.test(text)) return teamSyncError('unreachable', serverLabel, error);
  return teamSyncError('other', `${e.status ?? ''} ${e.reason ?? e.message ?? String(error)}`.trim(), error);
}

function firstFailure(results: readonly PouchWriteResult[]): PouchWriteResult | null {
  // 409: the same id (same content, same author) is already there — nothing to write.
  return results.find((r) => r.error !== undefined && r.error !== false && r.status !== 409) ?? null;
}

export class PouchTeamDatabase implements TeamDatabasePort {
  private remoteDb: PouchDatabase | null = null;
  constructor(private readonly options: PouchTeamDatabaseOptions) {}

  private get local(): PouchDatabase {
    return this.options.local;
  }

  private remote(): PouchDatabase {
    this.remoteDb ??= this.options.remote();
    return this.remoteDb;
  }

  async ownDocIds(authorId: string): Promise<Set<string>> {
    const { rows } = await this.local.allDocs({});
    return new Set(rows.filter((r) => parseDocId(r.id)?.author === authorId).map((r) => r.id));
  }

  async write(puts: readonly SharedDoc[], deletes: readonly string[]): Promise<void> {
    const tombstones: object[] = [];
    if (deletes.length > 0) {
      const { rows } = await this.local.allDocs({ keys: [...deletes] });
      for (const row of rows) {
        if (!row.value || row.value.deleted) continue;
        const at = parseDocId(row.id);
        tombstones.push({ _id: row.id, _rev: row.value.rev, _deleted: true, type: 'apprentice-item', origin: at?.origin ?? '' });
      }
    }
    const all: object[] = [...puts.map(({ _rev: _unused, ...doc }) => doc), ...tombstones];
    for (let i = 0; i < all.length; i += WRITE_CHUNK) {
      const failure = firstFailure(await this.local.bulkDocs(all.slice(i, i + WRITE_CHUNK)));
      if (failure) throw classifyPouchError(failure, 'this browser', this.local.name);
    }
  }

  async replicate(sharedSites: readonly string[], signal?: AbortSignal): Promise<ReplicationReport> {
    const database = this.remote().name;
    const run = async (replication: PouchReplication): Promise<PouchReplicationResult> => {
      const cancel = () => replication.cancel();
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        const result = await replication;
        if (result.status === 'cancelled') throw teamSyncError('interrupted', 'cancelled');
        return result;
      } catch (error) {
        const problem = classifyPouchError(error, this.options.serverLabel, database);
        // The server was there when the round began and went away during it.
        throw problem.problem === 'unreachable' ? teamSyncError('interrupted', `${this.options.serverLabel} stopped answering`, error) : problem;
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    };
    const batch = { batch_size: this.options.batchSize ?? 500, batches_limit: 4 };
    const pushed = await run(this.local.replicate.to(this.remote(), batch));
    if (sharedSites.length === 0) return { pushed: pushed.docs_written, pulled: 0 };
    const pulled = await run(this.local.replicate.from(this.remote(), { ...batch, selector: { origin: { $in: [...sharedSites] } } }));
    return { pushed: pushed.docs_written, pulled: pulled.docs_written };
  }

  async changesSince(since: string): Promise<ChangeBatch> {
    // A local PouchDB's sequence is a number; compared as a string it would restart the feed.
    const feed = await this.local.changes({ since: /^\d+$/.test(since) ? Number(since) : since, style: 'main_only' });
    return { changed: feed.results.map((r) => ({ id: r.id, deleted: r.deleted === true })), next: String(feed.last_seq) };
  }

  async docsWithPrefix(prefix: string): Promise<unknown[]> {
    const { rows } = await this.local.allDocs({ startkey: prefix, endkey: `${prefix}\ufff0`, include_docs: true });
    return rows.flatMap((r) => (r.doc ? [r.doc] : []));
  }

  async readCheckpoint(): Promise<string> {
    try {
      const doc = await this.local.get(CHECKPOINT_ID);
      return typeof doc.seq === 'string' ? doc.seq : '0';
    } catch {
      return '0';
    }
  }

  async writeCheckpoint(seq: string): Promise<void> {
    let rev: string | undefined;
    try {
      rev = (await this.local.get(CHECKPOINT_ID))._rev;
    } catch {
      rev = undefined;
    }
    await this.local.put({ _id: CHECKPOINT_ID, ...(rev ? { _rev: rev } : {}), seq });
  }
}
