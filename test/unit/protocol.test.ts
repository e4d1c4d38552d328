/** The message tables: requests validated on receipt, replies validated by the client, errors crossing as names. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { createUiClient, dispatchUiRequest, isUiRequestType, type UiHandlers } from '../../src/protocol/validate.ts';

const handlers = {
  'settings.get': async () => DEFAULT_SETTINGS,
  'memory.delete': async ({ ids }: { ids: string[] }) => ({ deleted: ids.length }),
  'settings.reset': async () => {
    const err = new Error('disk is full');
    err.name = 'QuotaExceededError';
    throw err;
  },
} as unknown as UiHandlers<null>;

describe('protocol', () => {
  it('dispatches a valid request and the client validates the reply', async () => {
    const client = createUiClient((m) => dispatchUiRequest(handlers, m, null));
    expect(await client.request('memory.delete', { ids: ['a', 'b'] })).toEqual({ deleted: 2 });
    expect((await client.request('settings.get', {})).policy.numCandidates).toBe(3);
  });

  it('rejects unknown types, wrong payloads and extra fields with a ProtocolError', async () => {
    expect(await dispatchUiRequest(handlers, { type: 'memory.nuke' }, null)).toEqual({ ok: false, error: { name: 'ProtocolError', message: 'unknown message type "memory.nuke"' } });
    const empty = await dispatchUiRequest(handlers, { type: 'memory.delete', ids: [] }, null);
    expect(empty.ok === false && empty.error.name).toBe('ProtocolError');
    const extra = await dispatchUiRequest(handlers, { type: 'memory.delete', ids: ['a'], evil: true }, null);
    expect(extra.ok === false && extra.error.name).toBe('ProtocolError');
    expect(await dispatchUiRequest(handlers, 'not an object', null)).toEqual({ ok: false, error: { name: 'ProtocolError', message: 'message has no type' } });
  });

  it('carries a handler error across by name', async () => {
    const client = createUiClient((m) => dispatchUiRequest(handlers, m, null));
    await expect(client.request('settings.reset', {})).rejects.toMatchObject({ name: 'QuotaExceededError', message: 'disk is full' });
  });

  it('refuses a reply that does not match the response schema', async () => {
    const lying = createUiClient(async () => ({ ok: true, value: { deleted: 'many' } }));
    await expect(lying.request('memory.delete', { ids: ['a'] })).rejects.toMatchObject({ name: 'ProtocolError' });
    const garbage = createUiClient(async () => 42);
    await expect(garbage.request('memory.delete', { ids: ['a'] })).rejects.toThrow('malformed reply to "memory.delete"');
  });

  it('recognises its own message types only', () => {
    expect(isUiRequestType('episode.start')).toBe(true);
    expect(isUiRequestType('page.observe')).toBe(false);
    expect(isUiRequestType(7)).toBe(false);
  });
});
