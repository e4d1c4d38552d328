/** The message tables: requests validated on receipt, replies validated by the client, errors crossing as names. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { createUiClient, dispatchUiRequest, isUiRequestType, type UiHandlers } from '../../src/protocol/validate.ts';

const handlers = {
  'settings.get': async () => DEFAULT_SETTINGS,
  'procedures.delete': async () => ({ ok: true }),
  'settings.reset': async () => {
    const err = new Error('disk is full');
    err.name = 'QuotaExceededError';
    throw err;
  },
} as unknown as UiHandlers<null>;

describe('protocol', () => {
  it('dispatches a valid request and the client validates the reply', async () => {
    const client = createUiClient((m) => dispatchUiRequest(handlers, m, null));
    expect(await client.request('procedures.delete', { origin: 'https://a.test', id: 'p1' })).toEqual({ ok: true });
    expect((await client.request('settings.get', {})).policy.numCandidates).toBe(3);
  });

  it('rejects unknown types, wrong payloads and extra fields with a ProtocolError', async () => {
    expect(await dispatchUiRequest(handlers, { type: 'memory.nuke' }, null)).toEqual({ ok: false, error: { name: 'ProtocolError', message: 'unknown message type "memory.nuke"' } });
    const empty = await dispatchUiRequest(handlers, { type: 'procedures.delete', origin: 'https://a.test', id: '' }, null);
    expect(empty.ok === false && empty.error.name).toBe('ProtocolError');
    const extra = await dispatchUiRequest(handlers, { type: 'procedures.delete', origin: 'https://a.test', id: 'p1', evil: true }, null);
    expect(extra.ok === false && extra.error.name).toBe('ProtocolError');
    expect(await dispatchUiRequest(handlers, 'not an object', null)).toEqual({ ok: false, error: { name: 'ProtocolError', message: 'message has no type' } });
  });

  it('carries a handler error across by name', async () => {
    const client = createUiClient((m) => dispatchUiRequest(handlers, m, null));
    await expect(client.request('settings.reset', {})).rejects.toMatchObject({ name: 'QuotaExceededError', message: 'disk is full' });
  });

  it('refuses a reply that does not match the response schema', async () => {
    const lying = createUiClient(async () => ({ ok: true, value: { ok: 'yes' } }));
    await expect(lying.request('procedures.delete', { origin: 'https://a.test', id: 'p1' })).rejects.toMatchObject({ name: 'ProtocolError' });
    const garbage = createUiClient(async () => 42);
    await expect(garbage.request('procedures.delete', { origin: 'https://a.test', id: 'p1' })).rejects.toThrow('malformed reply to "procedures.delete"');
  });

  it('recognises its own message types only', () => {
    expect(isUiRequestType('episode.start')).toBe(true);
    expect(isUiRequestType('page.observe')).toBe(false);
    expect(isUiRequestType(7)).toBe(false);
  });

  it('looks up own message types only: a prototype name is an unknown type, never a throw (issue 30)', async () => {
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(await dispatchUiRequest(handlers, { type }, null)).toEqual({ ok: false, error: { name: 'ProtocolError', message: `unknown message type "${type}"` } });
      expect(isUiRequestType(type)).toBe(false);
    }
    // A type in the table with no handler on this side.
    expect(await dispatchUiRequest({} as UiHandlers<null>, { type: 'settings.get' }, null)).toEqual({ ok: false, error: { name: 'ProtocolError', message: 'no handler for "settings.get"' } });
    const client = createUiClient(async () => ({ ok: true, value: {} }));
    await expect(client.request('constructor' as 'settings.get', {})).rejects.toMatchObject({ name: 'ProtocolError', message: 'unknown message type "constructor"' });
  });

  it('askMode.set takes only an http(s) origin (issue 30)', async () => {
    const set = { 'askMode.set': async () => DEFAULT_SETTINGS } as unknown as UiHandlers<null>;
    for (const origin of ['javascript:alert(1)', 'chrome-extension://abc', 'file:///etc', 'https://a.test/path', 'not a url', 'data:text/html,x']) {
      const reply = await dispatchUiRequest(set, { type: 'askMode.set', origin, mode: 'unapproved-only' }, null);
      expect(reply.ok === false && reply.error.name).toBe('ProtocolError');
    }
    expect((await dispatchUiRequest(set, { type: 'askMode.set', origin: 'https://a.test', mode: 'off' }, null)).ok).toBe(true);
    expect((await dispatchUiRequest(set, { type: 'askMode.set', origin: 'http://localhost:8080', mode: 'off' }, null)).ok).toBe(true);
  });
});
