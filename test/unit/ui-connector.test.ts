import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { UI_PORT_NAME, type UiEvent } from '../../src/protocol/messages.ts';
import { createBackgroundConnector, type PortLike } from '../../src/ui/connector.ts';

/** A port whose listeners the test can fire by hand. */
function fakePort() {
  const msg = new Set<(m: unknown) => void>();
  const disc = new Set<() => void>();
  const port = {
    disconnected: false,
    onMessage: { addListener: (cb: (m: unknown) => void) => msg.add(cb), removeListener: (cb: (m: unknown) => void) => msg.delete(cb) },
    onDisconnect: { addListener: (cb: () => void) => disc.add(cb), removeListener: (cb: () => void) => disc.delete(cb) },
    disconnect() { port.disconnected = true; },
    post: (m: unknown) => [...msg].forEach((cb) => cb(m)),
    drop: () => [...disc].forEach((cb) => cb()),
    listeners: () => msg.size + disc.size,
  };
  return port;
}

function harness(reply: (m: unknown) => unknown = () => ({ ok: true, value: DEFAULT_SETTINGS })) {
  const ports: ReturnType<typeof fakePort>[] = [];
  const names: string[] = [];
  const sent: unknown[] = [];
  const timers: (() => void)[] = [];
  const invalid: unknown[] = [];
  const connector = createBackgroundConnector(
    {
      sendMessage: async (m) => { sent.push(m); return reply(m); },
      connect: ({ name }): PortLike => { names.push(name); const p = fakePort(); ports.push(p); return p; },
    },
    { setTimer: (cb) => { timers.push(cb); return timers.length; }, clearTimer: () => { timers.length = 0; }, onInvalidEvent: (r) => invalid.push(r) },
  );
  return { connector, ports, names, sent, timers, invalid };
}

describe('createBackgroundConnector', () => {
  it('sends typed requests and validates the reply', async () => {
    const h = harness();
    const s = await h.connector.client.request('settings.get', {});
    expect(s).toEqual(DEFAULT_SETTINGS);
    expect(h.sent).toEqual([{ type: 'settings.get' }]);
  });

  it('turns an error reply into an error with the remote name', async () => {
    const h = harness(() => ({ ok: false, error: { name: 'ActionParseError', message: 'cannot parse "clik(1)"' } }));
    const err = await h.connector.client.request('episode.get', { episodeId: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('ActionParseError');
    expect((err as Error).message).toBe('cannot parse "clik(1)"');
  });

  it('delivers valid events, drops invalid ones, and connects one named port lazily', () => {
    const h = harness();
    expect(h.ports).toHaveLength(0);
    const got: UiEvent[] = [];
    const off = h.connector.subscribe((e) => got.push(e));
    const off2 = h.connector.subscribe(() => undefined);
    expect(h.names).toEqual([UI_PORT_NAME]);
    h.ports[0]!.post({ type: 'settings.updated', settings: DEFAULT_SETTINGS });
    h.ports[0]!.post({ type: 'settings.updated', settings: { nope: 1 } });
    h.ports[0]!.post({ type: 'bogus' });
    expect(got).toEqual([{ type: 'settings.updated', settings: DEFAULT_SETTINGS }]);
    expect(h.invalid).toHaveLength(2);
    off();
    expect(h.ports[0]!.disconnected).toBe(false);
    off2();
    expect(h.ports[0]!.disconnected).toBe(true);
    expect(h.ports[0]!.listeners()).toBe(0);
  });

  it('reconnects after the worker restarts and keeps delivering', () => {
    const h = harness();
    const got: UiEvent[] = [];
    h.connector.subscribe((e) => got.push(e));
    h.ports[0]!.drop();
    expect(h.timers).toHaveLength(1);
    h.timers.shift()!();
    expect(h.ports).toHaveLength(2);
    h.ports[1]!.post({ type: 'settings.updated', settings: DEFAULT_SETTINGS });
    expect(got).toHaveLength(1);
    // The dead port no longer has our listeners.
    expect(h.ports[0]!.listeners()).toBe(0);
  });

  it('does not reconnect once nobody listens', () => {
    const h = harness();
    const off = h.connector.subscribe(() => undefined);
    h.ports[0]!.drop();
    off();
    expect(h.timers).toHaveLength(0);
    expect(h.ports).toHaveLength(1);
  });
});
