/**
 * Team memory against a real CouchDB-compatible server (npm pouchdb-server,
 * started here on a random loopback port and stopped after): two members
 * share one site through CouchDB replication; provenance, deletions,
 * conflicts, forgetting a teammate, and the secrets scan of every document
 * on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyGuideRecord, replaceGuide } from '../../src/learners/metattl/core/guide-record.ts';
import { LearnerDataGuideStore } from '../../src/learners/metattl/core/guide-store.ts';
import { LearnerDataTfgrpoStore } from '../../src/learners/tfgrpo/core/learner-data-tfgrpo-store.ts';
import { forgetTeammate } from '../../src/core/sync/merge-incoming.ts';
import { forgetSite } from '../../src/core/learning/memory-transfer.ts';
import { TEAM_INDEX_ID } from '../../src/core/sync/team-index.ts';
import { startTeamServer, type TeamServer } from '../support/pouchdb-server.ts';
import { remoteDb } from '../support/node-pouch.ts';
import { teamProfile, type TeamProfile } from '../support/team-profile.ts';
import { experience } from '../../src/learners/tfgrpo/test/tfgrpo-helpers.ts';
import { transition } from '../support/team-fixtures.ts';

const SHOP = 'https://shop.team.test';
const BANK = 'https://bank.team.test';
const ANA = { id: 'ana-0000-0001', name: 'Ana' };
const BEN = { id: 'ben-0000-0002', name: 'Ben' };


let server: TeamServer;
let dbCount = 0;

beforeAll(async () => {
  server = await startTeamServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function team(options: { sites?: string[]; now?: () => number } = {}): Promise<{ a: TeamProfile; b: TeamProfile; database: string }> {
  dbCount += 1;
  const database = `team-${dbCount}`;
  await server.createDatabase(database);
  const common = { server: { url: server.url, database, auth: server.admin }, sharedSites: options.sites ?? [SHOP], ...(options.now ? { now: options.now } : {}) };
  return { a: teamProfile({ ...common, me: ANA }), b: teamProfile({ ...common, me: BEN }), database };
}

async function serverDocs(database: string): Promise<Record<string, unknown>[]> {
  const { rows } = await remoteDb(server.url, database, server.admin).allDocs({ include_docs: true });
  return rows.flatMap((r) => (r.doc ? [r.doc] : []));
}

describe('team memory through pouchdb-server', () => {
  it('what A taught on a shared site reaches B with provenance; an unshared site and episodes stay home', async () => {
    const { a, b, database } = await team();
    await a.transitions.putEpisode('ea1', [transition(SHOP, 'ea1', 0, 'click(<link "Teapot">)'), transition(SHOP, 'ea1', 1, 'click(<button "Add to cart">)')]);
    await a.transitions.putEpisode('ea2', [transition(BANK, 'ea2', 0, 'click(<link "Statements">)')]);
    const first = await a.sync();
    expect(first.published.put).toBe(2);
    expect(first.replication.pushed).toBe(2);

    const got = await b.sync();
    expect(got.merge.imported).toBe(2);
    expect(got.merge.refused).toEqual([]);
    expect((await b.transitions.all()).map((t) => t.id).sort()).toEqual(['ea1:0', 'ea1:1']);
    expect(await b.stores.episodes.all()).toEqual([]);
    const rows = await b.deps.index.rows(SHOP);
    expect(rows.map((r) => [r.entry.key, r.entry.provenance.author.name, r.entry.provenance.episodeId])).toEqual([['ea1:0', 'Ana', 'ea1'], ['ea1:1', 'Ana', 'ea1']]);
    // B does not share A's items as its own.
    const again = await b.sync();
    expect(again.published.put).toBe(0);
    expect((await serverDocs(database)).map((d) => (d.provenance as { author: { name: string } }).author.name)).toEqual(['Ana', 'Ana']);
    // Nothing new: a second round imports nothing twice.
    expect(again.merge.imported).toBe(0);
    expect(await b.transitions.count()).toBe(2);
  }, 60_000);

  it("A's deletion removes A's rows from B, never B's own rows on the same site", async () => {
    const { a, b } = await team();
    await a.transitions.putEpisode('ea1', [transition(SHOP, 'ea1', 0, 'click(<link "Teapot">)')]);
    await b.transitions.putEpisode('eb1', [transition(SHOP, 'eb1', 0, 'click(<link "Mug">)')]);
    await a.sync();
    await b.sync();
    await a.sync();
    expect((await a.transitions.all()).map((t) => t.id).sort()).toEqual(['ea1:0', 'eb1:0']);
    await forgetSite({ learnerMemories: a.deps.transfer.learnerMemories, episodes: a.stores.episodes }, SHOP);
    const aRound = await a.sync();
    expect(aRound.published.deleted).toBe(1);
    const bRound = await b.sync();
    expect(bRound.merge.removed).toBe(1);
    expect((await b.transitions.all()).map((t) => t.id)).toEqual(['eb1:0']);
    expect(await b.deps.index.rows()).toEqual([]);
  }, 60_000);

  it('two members edited the same item: both keep the newer version, and the conflict is reported', async () => {
    let clock = 10_000;
    const { a, b } = await team({ now: () => clock });
    const libraryOf = (p: TeamProfile, at: number) => new LearnerDataTfgrpoStore(p.stores.learnerData, 'tfgrpo', { now: () => at });
    await libraryOf(a, 5_000).saveLibrary(SHOP, [experience('x-1', 'Search first, then open the product.')], null);
    await libraryOf(b, 6_000).saveLibrary(SHOP, [experience('x-1', 'Open the category, then the product.')], null);
    await a.sync();
    const bRound = await b.sync();
    clock += 1;
    const aRound = await a.sync();
    expect(bRound.merge.conflicts).toHaveLength(1);
    expect(bRound.merge.conflicts[0]!.kept.author).toBe('Ben');
    expect(aRound.merge.conflicts[0]?.kept.author).toBe('Ben');
    expect(aRound.merge.conflicts[0]?.setAside.map((v) => v.author)).toEqual(['Ana']);
    const text = async (p: TeamProfile) => (await libraryOf(p, 0).library(SHOP)).map((x) => x.text);
    expect(await text(a)).toEqual(['Open the category, then the product.']);
    expect(await text(b)).toEqual(['Open the category, then the product.']);
    // A's version was set aside, not shared under A's name any longer: A withdrew it.
    const third = await a.sync();
    expect(third.published.deleted).toBe(1);
    expect(third.published.put).toBe(0);
  }, 60_000);

  it("a merged item the member's own learning changes becomes theirs: shared as theirs, kept when the teammate is forgotten", async () => {
    const { a, b } = await team();
    await new LearnerDataTfgrpoStore(a.stores.learnerData, 'tfgrpo', { now: () => 5_000 }).saveLibrary(SHOP, [experience('x-1', 'Search first.')], null);
    await a.sync();
    expect((await b.sync()).merge.imported).toBe(1);
    expect((await b.sync()).published.put).toBe(0);
    await new LearnerDataTfgrpoStore(b.stores.learnerData, 'tfgrpo', { now: () => 9_000 }).saveLibrary(SHOP, [experience('x-1', 'Search first.'), experience('x-2', 'Then sort by price.')], null);
    const round = await b.sync();
    expect(round.published.put).toBe(1);
    expect(await b.deps.index.rows()).toEqual([]);
    expect(await forgetTeammate(b.deps, ANA.id)).toBe(0);
    expect((await new LearnerDataTfgrpoStore(b.stores.learnerData, 'tfgrpo', { now: () => 0 }).library(SHOP)).map((x) => x.id)).toEqual(['x-1', 'x-2']);
    // A takes B's newer version.
    const aRound = await a.sync();
    expect(aRound.merge.imported).toBe(1);
  }, 60_000);

  it('a guide merged from a teammate shows where it came from, and is not shared back as B\'s own', async () => {
    const { a, b } = await team();
    const guide = replaceGuide({ ...emptyGuideRecord(`${SHOP}|buy a teapot`, SHOP, 'Buy a teapot', 1), attempts: 1 }, { guide: 'Search first.', diagnosis: 'ok', afterAttempt: 1, outcome: 'success', now: 2 });
    await new LearnerDataGuideStore(a.stores.learnerData, 'metattl').put(guide);
    await a.sync();
    expect((await b.sync()).merge.imported).toBe(1);
    const merged = await new LearnerDataGuideStore(b.stores.learnerData, 'metattl').get(SHOP, guide.key);
    expect(merged).toMatchObject({ guide: 'Search first.', importedFrom: 'team memory, shared by Ana' });
    expect((await b.sync()).published.put).toBe(0);
  }, 60_000);

  it('forgetting a teammate removes what they brought and keeps it out afterwards', async () => {
    const { a, b } = await team();
    await a.transitions.putEpisode('ea1', [transition(SHOP, 'ea1', 0, 'click(<link "Teapot">)')]);
    await b.transitions.putEpisode('eb1', [transition(SHOP, 'eb1', 0, 'click(<link "Mug">)')]);
    await a.sync();
    await b.sync();
    expect(await b.transitions.count()).toBe(2);
    expect(await forgetTeammate(b.deps, ANA.id)).toBe(1);
    (b.config.muted as Set<string>).add(ANA.id);
    await a.transitions.putEpisode('ea2', [transition(SHOP, 'ea2', 0, 'click(<link "Kettle">)')]);
    await a.sync();
    const round = await b.sync();
    expect(round.merge.muted).toBe(1);
    expect((await b.transitions.all()).map((t) => t.id)).toEqual(['eb1:0']);
  }, 60_000);

  it('no secret reaches the server: every document is scanned for the values typed into secret fields', async () => {
    const { a, database } = await team();
    const secrets = ['hunter2-secret', '4111111111111111', '918273'];
    // Memory that escaped the first mask (as an old version or a learner's text might have written it).
    await a.transitions.putEpisode('ea1', [
      transition(SHOP, 'ea1', 0, `fill(<textbox "Password">, "${secrets[0]}")`),
      { ...transition(SHOP, 'ea1', 1, `fill(<textbox "Card number">, "${secrets[1]}")`), effectiveState: [`fill(<textbox "Password">, "${secrets[0]}")`], stateTokens: [secrets[0]!] },
      transition(SHOP, 'ea1', 2, `fill(<textbox "Verification code">, "${secrets[2]}")`),
    ]);
    await new LearnerDataTfgrpoStore(a.stores.learnerData, 'tfgrpo', { now: () => 1 }).saveLibrary(SHOP, [experience('x-1', `Log in: fill(<textbox "Password">, "${secrets[0]}") then continue.`)], null);
    const round = await a.sync();
    expect(round.published.masked).toBeGreaterThanOrEqual(4);
    const docs = await serverDocs(database);
    expect(docs.length).toBe(4);
    const text = JSON.stringify(docs);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).toContain('{password}');
    expect(text).not.toMatch(/apiKey|sk-/);
    expect(docs.every((d) => (d.part as string) !== `learners/${TEAM_INDEX_ID}`)).toBe(true);
  }, 60_000);
});
