/**
 * Issue 23, "their stores behind memory", team side: JitRL's transitions and
 * CER's entries are shared, checked and deleted through the registry's
 * memories (OwnStore), with the parts and addresses documents had before.
 */
import { describe, expect, it } from 'vitest';
import { TRANSITIONS } from '../../src/learners/jitrl/core/stores.ts';
import { EXPERIENCES } from '../../src/learners/cer/core/stores.ts';
import { ownStoresOf } from '../../src/core/learning/learner-definition.ts';
import { inMemoryLearnerStores, learnerMemories } from '../../src/core/learning/registry/registry-factories.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { checkIncoming } from '../../src/core/sync/check-incoming.ts';
import { deleteRow } from '../../src/core/sync/merge-incoming.ts';
import { exportRows, shareItems } from '../../src/core/sync/share-items.ts';
import { contentHashOf, sharedDocId } from '../../src/core/sync/shared-doc.ts';
import { dynamics } from '../../src/learners/cer/test/cer-helpers.ts';
import { transition } from '../support/team-fixtures.ts';

const SHOP = 'http://shop.fixture.test';
const ME = { id: 'member-me-1', name: 'Me' };

function registry() {
  const stores = inMemoryLearnerStores();
  const memories = learnerMemories({ stores, settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 1 }, random: seededRandom(0) });
  return { stores, memories, ownStores: ownStoresOf(memories) };
}

const entry = dynamics('d-1', { origin: SHOP, provenance: { episodeIds: ['e0', 'e7'], createdAt: 1, updatedAt: 3300, retrieved: 0, retrievedThenSucceeded: 0, source: 'live' } });
const archive = { transitions: [transition(SHOP, 'e7', 0, 'click(<link "Teapot">)')], experiences: [entry] };

describe('team sync over the learners\' own stores', () => {
  it('addresses each row by the store that keeps it, as documents did before', () => {
    const { ownStores } = registry();
    expect(ownStores.map((s) => s.name)).toEqual(['experiences', 'transitions']);
    const { rows, unsharable } = exportRows(archive as never, ownStores);
    expect(unsharable).toEqual([]);
    expect(rows.map(({ part, origin, key, taughtAt, episodeId }) => ({ part, origin, key, taughtAt, episodeId }))).toEqual([
      { part: 'experiences', origin: SHOP, key: 'd-1', taughtAt: 3300, episodeId: 'e7' },
      { part: 'transitions', origin: SHOP, key: 'e7:0', taughtAt: 2000, episodeId: 'e7' },
    ]);
  });

  it('accepts a valid row, refuses a broken or misfiled one, and holds one no learner keeps', () => {
    const { memories, ownStores } = registry();
    const docs = shareItems({ archive: archive as never, ownStores, sharedSites: [SHOP], me: ME, fromTeammate: () => false, appVersion: '0.1.0', now: 9 }).docs;
    const [cerDoc, jitrlDoc] = docs;
    expect(docs.map((d) => d.part)).toEqual(['experiences', 'transitions']);
    expect(checkIncoming(jitrlDoc, { learnerMemories: memories }).status).toBe('accepted');
    expect(checkIncoming(cerDoc, { learnerMemories: memories }).status).toBe('accepted');

    // A document made consistently (hash and id) around a row the learner's schema refuses, or filed under another key.
    const remade = (item: unknown, key = jitrlDoc!.key) => {
      const contentHash = contentHashOf(item);
      return { ...jitrlDoc!, key, item, contentHash, _id: sharedDocId({ part: 'transitions', origin: SHOP, key, contentHash, author: ME.id }) };
    };
    const broken = checkIncoming(remade({ ...(jitrlDoc!.item as object), reward: 'high' }), { learnerMemories: memories });
    expect(broken).toMatchObject({ status: 'refused', reason: 'its transitions row is invalid: transition #0 is invalid: Invalid input: expected number, received string' });
    expect(checkIncoming(remade(jitrlDoc!.item, 'e7:5'), { learnerMemories: memories })).toMatchObject({
      status: 'refused', reason: 'its transitions row is filed under another address or site',
    });

    const withoutCer = memories.filter((m) => m.memory.ownStore?.name !== 'experiences');
    expect(checkIncoming(cerDoc, { learnerMemories: withoutCer })).toMatchObject({
      status: 'held', reviewable: false, reason: 'this version of Apprentice has no learner that keeps "experiences"',
    });
  });

  it('deletes a teammate\'s row from the store that keeps it, and only that row', async () => {
    const { stores, memories } = registry();
    await stores.declared(TRANSITIONS).putEpisode('e7', [transition(SHOP, 'e7', 0, 'a'), transition(SHOP, 'e7', 1, 'b')]);
    await stores.declared(EXPERIENCES).putMany([entry]);
    const deps = { stores, transfer: { learnerMemories: memories } } as never;
    expect(await deleteRow(deps, SHOP, 'transitions', 'e7:1')).toBe(1);
    expect(await deleteRow(deps, SHOP, 'experiences', 'd-1')).toBe(1);
    expect(await deleteRow(deps, SHOP, 'experiences', 'd-1')).toBe(0);
    expect((await stores.declared(TRANSITIONS).all()).map((t) => t.id)).toEqual(['e7:0']);
    expect(await stores.declared(EXPERIENCES).all()).toEqual([]);
  });
});
