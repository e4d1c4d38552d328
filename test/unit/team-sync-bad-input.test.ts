/**
 * Team memory's bad input against a real pouchdb-server: documents a
 * teammate or a broken-into server could write (invalid, newer, too large,
 * altered, carrying an always-ask action), wrong credentials, a missing
 * database, a server too old or gone during replication, and a full disk.
 * Each gives a clear message and loses no local data.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTeamConnection } from '../../src/adapters/sync/test-connection.ts';
import { shareItems } from '../../src/core/sync/share-items.ts';
import { transitionsMemory } from '../../src/learners/jitrl/core/memory.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { mergeReviewed } from '../../src/core/sync/team-sync.ts';
import { contentHashOf, MAX_SHARED_DOC_BYTES, sharedDocId } from '../../src/core/sync/shared-doc.ts';
import { TeamSyncError } from '../../src/core/sync/sync-errors.ts';
import { startTeamServer, type TeamServer } from '../support/pouchdb-server.ts';
import { remoteDb } from '../support/node-pouch.ts';
import { teamProfile } from '../support/team-profile.ts';
import { transition } from '../support/team-fixtures.ts';

const SHOP = 'https://shop.team.test';
const BEN = { id: 'ben-0000-0002', name: 'Ben' };
const MAL = { id: 'mal-0000-0003', name: 'Mallory' };

let server: TeamServer;
let n = 0;
beforeAll(async () => {
  server = await startTeamServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function freshDatabase(): Promise<string> {
  n += 1;
  await server.createDatabase(`bad-${n}`);
  return `bad-${n}`;
}

const docFor = (t: ReturnType<typeof transition>) => shareItems({
  archive: { transitions: [t], experiences: [] }, ownStores: [transitionsMemory(new InMemoryStepRowStore()).ownStore!],
  sharedSites: [SHOP], me: MAL, fromTeammate: () => false, appVersion: '0.1.0', now: 5,
}).docs[0]!;

describe('team memory: bad documents', () => {
  it('refuses or holds each bad document with its reason, merges the good one, changes nothing else', async () => {
    const database = await freshDatabase();
    const good = docFor(transition(SHOP, 'em1', 0, 'click(<link "Teapot">)'));
    const invalid = { ...docFor(transition(SHOP, 'em2', 0, 'click(<link "Mug">)')), provenance: { author: MAL } };
    const newer = { ...docFor(transition(SHOP, 'em3', 0, 'click(<link "Cup">)')), schema: 2, provenance: { ...good.provenance, appVersion: '9.0.0' } };
    const bigItem = { ...transition(SHOP, 'em4', 0, 'click(<link "Pot">)'), task: 'x'.repeat(MAX_SHARED_DOC_BYTES) };
    const small = docFor(transition(SHOP, 'em4', 0, 'click(<link "Pot">)'));
    const big = { ...small, item: bigItem, contentHash: contentHashOf(bigItem), _id: sharedDocId({ ...small, contentHash: contentHashOf(bigItem), author: MAL.id }) };
    const altered = { ...docFor(transition(SHOP, 'em5', 0, 'click(<link "Jug">)')), item: transition(SHOP, 'em5', 0, 'click(<button "Delete account">)') };
    const away = docFor(transition(SHOP, 'em6', 0, 'goto("https://evil.example/collect")'));
    const password = docFor(transition(SHOP, 'em7', 0, 'fill(<textbox "Password">, "{password}")'));
    const notOurs = { _id: `${SHOP}|transitions|x|y|z`, origin: SHOP, hello: 'world' };
    await remoteDb(server.url, database, server.admin).bulkDocs([good, invalid, newer, big, altered, away, password, notOurs]);

    const b = teamProfile({ me: BEN, server: { url: server.url, database, auth: server.admin }, sharedSites: [SHOP] });
    await b.transitions.putEpisode('eb1', [transition(SHOP, 'eb1', 0, 'click(<link "Kettle">)')]);
    const round = await b.sync();
    expect(round.merge.imported).toBe(1);
    expect((await b.transitions.all()).map((t) => t.id).sort()).toEqual(['eb1:0', 'em1:0']);
    const refused = Object.fromEntries(round.merge.refused.map((r) => [r.docId.split('|')[2], r.reason]));
    expect(Object.keys(refused).sort()).toEqual(['em2:0', 'em4:0', 'em5:0', 'x']);
    expect(refused['em2:0']).toMatch(/invalid at provenance/);
    expect(refused['em4:0']).toMatch(/too large \(\d+ bytes; the limit is 65536\)/);
    expect(refused['em5:0']).toMatch(/does not match its hash/);
    expect(refused['x']).toMatch(/not an Apprentice team-memory document/);
    const held = Object.fromEntries(round.merge.held.map((h) => [h.docId.split('|')[2], h.reason]));
    expect(Object.keys(held).sort()).toEqual(['em3:0', 'em6:0', 'em7:0']);
    expect(held['em3:0']).toMatch(/newer Apprentice \(document format 2, Apprentice 9\.0\.0\)/);
    expect(held['em6:0']).toMatch(/another origin \(https:\/\/evil\.example\)/);
    expect(held['em7:0']).toMatch(/password field/);
    // Held documents stay in the local database (nothing lost), and are not merged on the next round either.
    expect((await b.sync()).merge.imported).toBe(0);
    expect(await b.transitions.count()).toBe(2);
    expect(round.merge.held.map((h) => h.reviewable).sort()).toEqual([false, true, true]);
    // The person reviews the one that leaves the site and accepts it: merged, with its provenance.
    const accepted = await mergeReviewed(b.deps, b.db, b.config, away._id);
    expect(accepted.imported).toBe(1);
    expect((await b.transitions.all()).map((t) => t.id).sort()).toEqual(['eb1:0', 'em1:0', 'em6:0']);
    expect((await b.deps.index.get(SHOP, 'transitions', 'em6:0'))?.provenance.author.name).toBe('Mallory');
    // A newer-format document cannot be accepted: it stays held.
    expect((await mergeReviewed(b.deps, b.db, b.config, newer._id)).held.map((h) => h.reviewable)).toEqual([false]);
  }, 60_000);
});

describe('team memory: server problems', () => {
  it('Test connection names the exact problem', async () => {
    const database = await freshDatabase();
    const ok = { serverUrl: server.url, database, username: server.admin.username, password: server.admin.password };
    expect(await testTeamConnection(ok)).toEqual({ ok: true, detail: `pouchdb-server 4.2.0; database "${database}" holds 0 documents` });
    expect(await testTeamConnection({ ...ok, password: 'wrong' })).toMatchObject({ ok: false, problem: 'credentials' });
    expect(await testTeamConnection({ ...ok, database: 'nope' })).toMatchObject({ ok: false, problem: 'missing-database', message: expect.stringContaining('"nope" does not exist') });
    expect(await testTeamConnection({ ...ok, serverUrl: 'http://127.0.0.1:9' })).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(await testTeamConnection({ ...ok, serverUrl: 'http://couch.example.com' })).toMatchObject({ ok: false, problem: 'insecure' });
    const old: Server = createServer((_req, res) => res.end(JSON.stringify({ couchdb: 'Welcome', version: '1.6.1' })));
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', () => r()));
    const port = (old.address() as { port: number }).port;
    expect(await testTeamConnection({ ...ok, serverUrl: `http://127.0.0.1:${port}` })).toMatchObject({ ok: false, problem: 'too-old', message: expect.stringContaining('CouchDB 1.6.1') });
    await new Promise((r) => old.close(r));
  }, 60_000);

  it('a wrong password fails the sync with its message and leaves local memory as it was', async () => {
    const database = await freshDatabase();
    const b = teamProfile({ me: BEN, server: { url: server.url, database, auth: { username: 'admin', password: 'wrong' } }, sharedSites: [SHOP] });
    await b.transitions.putEpisode('eb1', [transition(SHOP, 'eb1', 0, 'click(<link "Kettle">)')]);
    const error = await b.sync().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TeamSyncError);
    expect((error as TeamSyncError).problem).toBe('credentials');
    expect((error as TeamSyncError).message).toMatch(/wrong credentials\)\. Nothing in your local memory was changed or lost/);
    expect(await b.transitions.count()).toBe(1);
  }, 60_000);

  it('a full disk during the merge: a clear message, nothing half-written, merged on the next round', async () => {
    const database = await freshDatabase();
    const auth = server.admin;
    const a = teamProfile({ me: MAL, server: { url: server.url, database, auth }, sharedSites: [SHOP] });
    await a.transitions.putEpisode('ea1', [transition(SHOP, 'ea1', 0, 'click(<link "Teapot">)'), transition(SHOP, 'ea1', 1, 'click(<button "Add to cart">)')]);
    await a.sync();
    const b = teamProfile({ me: BEN, server: { url: server.url, database, auth }, sharedSites: [SHOP] });
    await b.transitions.putEpisode('eb1', [transition(SHOP, 'eb1', 0, 'click(<link "Kettle">)')]);
    const write = b.deps.transfer.writeImport;
    b.deps.transfer.writeImport = async () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const error = (await b.sync().catch((e: unknown) => e)) as TeamSyncError;
    expect(error.problem).toBe('quota');
    expect(error.message).toMatch(/no space left.*will be retried/);
    expect((await b.transitions.all()).map((t) => t.id)).toEqual(['eb1:0']);
    expect(await b.deps.index.rows()).toEqual([]);
    b.deps.transfer.writeImport = write;
    const round = await b.sync();
    expect(round.merge.imported).toBe(2);
    expect(await b.transitions.count()).toBe(3);
  }, 60_000);

  it('the server going away during replication: a clear message, local memory intact, what was copied kept', async () => {
    const own = await startTeamServer();
    try {
      await own.createDatabase('gone');
      const auth = own.admin;
      const a = teamProfile({ me: MAL, server: { url: own.url, database: 'gone', auth }, sharedSites: [SHOP] });
      const many = Array.from({ length: 60 }, (_, e) => Array.from({ length: 10 }, (_, i) => transition(SHOP, `ea${e}`, i, `click(<link "Item ${e}-${i}">)`)));
      for (const steps of many) await a.transitions.putEpisode(steps[0]!.episodeId, steps);
      await a.sync();
      const b = teamProfile({ me: BEN, server: { url: own.url, database: 'gone', auth }, sharedSites: [SHOP], batchSize: 20 });
      await b.transitions.putEpisode('eb1', [transition(SHOP, 'eb1', 0, 'click(<link "Kettle">)')]);
      // Kill the server (SIGKILL, a crash) as soon as the first pulled document lands.
      const feed = (b.local as unknown as { changes(o: object): { on(e: string, f: (c: { id: string }) => void): { cancel(): void } } }).changes({ live: true, since: 'now' });
      let killed: Promise<void> | null = null;
      const watcher = feed.on('change', (c) => { if (c.id.includes(MAL.id)) killed ??= own.stop({ hard: true }); });
      const error = (await b.sync().catch((e: unknown) => e)) as TeamSyncError;
      watcher.cancel();
      await killed;
      expect(error).toBeInstanceOf(TeamSyncError);
      expect(error.problem).toBe('interrupted');
      expect(error.message).toMatch(/went away during replication.*resumes from the last checkpoint/);
      expect((await b.transitions.all()).map((t) => t.id)).toEqual(['eb1:0']);
      const copied = (await b.local.info()).doc_count;
      expect(copied).toBeGreaterThan(0);
      expect(copied).toBeLessThan(601);
    } finally {
      await own.stop();
    }
  }, 90_000);
});
