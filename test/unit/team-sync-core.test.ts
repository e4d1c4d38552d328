/**
 * Team memory's pure rules with hand-derived values: document ids and their
 * parsing, the conflict rule, the secrets mask, the review holds, the
 * credential transport rule and the server-version check.
 */
import { describe, expect, it } from 'vitest';
import { compareVersions, resolveVersions } from '../../src/core/sync/conflicts.ts';
import { maskRecord } from '../../src/core/secrets/mask-record.ts';
import { parseDocId } from '../../src/core/sync/merge-incoming.ts';
import { holdReason } from '../../src/core/sync/review-rules.ts';
import { contentHashOf, sharedDocId, type SharedDoc } from '../../src/core/sync/shared-doc.ts';
import { credentialTransportProblem, serverVersionProblem } from '../../src/core/sync/sync-errors.ts';
import { groupPrefixOf } from '../../src/core/sync/team-sync.ts';
import { teamSettingsProblem, DEFAULT_TEAM_SETTINGS } from '../../src/core/sync/team-settings.ts';

const SHOP = 'https://shop.example';

function version(author: string, taughtAt: number, text: string): SharedDoc {
  const item = { learnerId: 'tfgrpo', origin: SHOP, key: 'library', value: { text }, updatedAt: taughtAt };
  const contentHash = contentHashOf(item);
  return {
    _id: sharedDocId({ part: 'learners/tfgrpo', origin: SHOP, key: 'library', contentHash, author }), type: 'apprentice-item', schema: 1,
    part: 'learners/tfgrpo', origin: SHOP, key: 'library', contentHash,
    provenance: { author: { id: author, name: author.slice(0, 3) }, taughtAt, sharedAt: taughtAt, episodeId: null, appVersion: '0.1.0' }, item,
  };
}

describe('document ids', () => {
  it('name the site, part, item, author and content; keys may hold the separator', () => {
    expect(sharedDocId({ part: 'transitions', origin: SHOP, key: 'e1:0', contentHash: 'abc', author: 'ana-00001' })).toBe('https://shop.example|transitions|e1:0|ana-00001|abc');
    expect(parseDocId('https://shop.example|learners/metattl|task|with|bars|ana-00001|abc')).toEqual({ origin: SHOP, part: 'learners/metattl', key: 'task|with|bars', author: 'ana-00001' });
    expect(parseDocId('https://shop.example|episodes|e1|ana-00001|abc')).toBeNull();
    expect(parseDocId('hello')).toBeNull();
  });

  it('group a transition with its whole episode, any other item with its versions', () => {
    expect(groupPrefixOf('https://shop.example|transitions|e1:3|ana-00001|abc')).toBe('https://shop.example|transitions|e1:');
    expect(groupPrefixOf('https://shop.example|experiences|s-1|ana-00001|abc')).toBe('https://shop.example|experiences|s-1|');
  });
});

describe('the conflict rule', () => {
  it('keeps the version taught last, then the larger author id, then the larger hash', () => {
    const older = version('ana-00001', 100, 'search first');
    const newer = version('ben-00002', 200, 'open the category');
    expect(compareVersions(newer, older)).toBe(-100);
    const tieA = version('ana-00001', 300, 'x');
    const tieB = version('ben-00002', 300, 'y');
    expect(compareVersions(tieB, tieA)).toBe(-1);
    const { winners, conflicts } = resolveVersions([older, newer, tieA]);
    expect([...winners.values()].map((d) => d.provenance.author.id)).toEqual(['ana-00001']);
    expect(conflicts).toEqual([{ origin: SHOP, part: 'learners/tfgrpo', key: 'library', kept: { author: 'ana', taughtAt: 300, docId: tieA._id }, setAside: [{ author: 'ben', taughtAt: 200, docId: newer._id }] }]);
    // The same documents in any order keep the same version.
    expect([...resolveVersions([tieA, newer, older]).winners.values()][0]!._id).toBe(tieA._id);
  });
});

describe('the secrets mask', () => {
  it('masks typed secrets in actions, inside texts, and wherever the value appears again', () => {
    const item = {
      action: 'fill(<textbox "Password">, "hunter2!")',
      effectiveState: ['fill(<textbox "Card number">, "4111111111111111")'],
      stateTokens: ['hunter2!', 'search'],
      text: 'Log in: fill(<textbox "PIN">, "9931") then click Continue',
      harmless: 'fill(<searchbox "Search">, "teapot")',
    };
    const { item: masked, masked: n } = maskRecord(item);
    expect(n).toBe(3);
    expect(masked).toEqual({
      action: 'fill(<textbox "Password">, "{password}")',
      effectiveState: ['fill(<textbox "Card number">, "{payment}")'],
      stateTokens: ['{password}', 'search'],
      text: 'Log in: fill(<textbox "PIN">, "{password}") then click Continue',
      harmless: 'fill(<searchbox "Search">, "teapot")',
    });
  });
});

describe('review holds', () => {
  it('hold an item with an always-ask action, wherever it is, and nothing else', () => {
    expect(holdReason({ action: 'click(<button "Add to cart">)', effectiveState: ['goto("/cart")'] }, SHOP)).toBeNull();
    expect(holdReason({ action: 'goto("https://evil.example/x")' }, SHOP)).toBe('it holds goto("https://evil.example/x"), an action that always asks: it opens another origin (https://evil.example)');
    expect(holdReason({ steps: [{ exampleActions: ['goto("/files/report.pdf")'] }] }, SHOP)).toMatch(/opens a download/);
    expect(holdReason({ text: 'then fill(<textbox "Verification code">, "{one-time-code}")' }, SHOP)).toMatch(/one-time-code field/);
  });
});

describe('server and settings checks', () => {
  it('credentials travel over https, or http to this computer only', () => {
    expect(credentialTransportProblem('https://couch.example.com', true)).toBeNull();
    expect(credentialTransportProblem('http://127.0.0.1:5984', true)).toBeNull();
    expect(credentialTransportProblem('http://couch.example.com', false)).toBeNull();
    expect(credentialTransportProblem('http://couch.example.com', true)?.problem).toBe('insecure');
    expect(credentialTransportProblem('ftp://x', true)?.problem).toBe('bad-url');
  });

  it('CouchDB 2 or later, or pouchdb-server, speaks the replication protocol used', () => {
    expect(serverVersionProblem({ couchdb: 'Welcome', version: '3.3.3' }, 's')).toBeNull();
    expect(serverVersionProblem({ 'express-pouchdb': 'Welcome!', version: '4.2.0' }, 's')).toBeNull();
    expect(serverVersionProblem({ couchdb: 'Welcome', version: '1.7.2' }, 's')?.problem).toBe('too-old');
    expect(serverVersionProblem({ hello: 'nginx' }, 'https://x')?.message).toBe('https://x does not answer like a CouchDB server. Nothing in your local memory was changed or lost.');
  });

  it('says what is missing before a round runs', () => {
    expect(teamSettingsProblem(DEFAULT_TEAM_SETTINGS)).toBe('no team server is set');
    expect(teamSettingsProblem({ ...DEFAULT_TEAM_SETTINGS, serverUrl: 'https://c', database: 'd', memberName: 'Ana' })).toBe('no site is shared');
  });
});
