import { describe, expect, it } from 'vitest';
import { createRecordingLink } from '../../src/content/record/recording-link.ts';
import { RECORDING_PORT_NAME } from '../../src/protocol/messages.ts';

class FakePort {
  readonly posted: unknown[] = [];
  disconnected = false;
  private readonly listeners: (() => void)[] = [];
  constructor(readonly name: string) {}
  postMessage(m: unknown) { this.posted.push(m); }
  disconnect() { this.disconnected = true; }
  onDisconnect = { addListener: (cb: () => void) => { this.listeners.push(cb); } };
  /** The other side dropped the port (the worker stopped, or refused it). */
  drop() { for (const cb of this.listeners) cb(); }
}

function setUp() {
  const ports: FakePort[] = [];
  const clock = { t: 0 };
  let tick: (() => void) | null = null;
  const link = createRecordingLink({
    connect: ({ name }) => { const p = new FakePort(name); ports.push(p); return p; },
    setInterval: (cb, ms) => { expect(ms).toBe(20_000); tick = cb; return 1; },
    clearInterval: () => { tick = null; },
    now: () => clock.t,
  });
  return { link, ports, clock, beat: () => tick?.() };
}

describe('createRecordingLink', () => {
  it('holds a port open with heartbeats while recording, and closes it on stop', () => {
    const { link, ports, beat } = setUp();
    link.start();
    link.start(); // idempotent
    expect(ports.map((p) => p.name)).toEqual([RECORDING_PORT_NAME]);
    beat();
    beat();
    expect(ports[0]!.posted).toEqual([{ type: 'heartbeat' }, { type: 'heartbeat' }]);
    link.stop();
    expect(ports[0]!.disconnected).toBe(true);
    beat();
    expect(ports[0]!.posted).toHaveLength(2);
  });

  it('reopens the port as soon as the worker drops it, which starts the worker again', () => {
    const { link, ports, clock, beat } = setUp();
    link.start();
    clock.t = 30_000;
    ports[0]!.drop();
    expect(ports).toHaveLength(2);
    beat();
    expect(ports[1]!.posted).toEqual([{ type: 'heartbeat' }]);
    // After stop, a drop is not reopened.
    link.stop();
    ports[1]!.drop();
    expect(ports).toHaveLength(2);
  });

  it('gives up after five drops in quick succession (the tab is not recorded any more)', () => {
    const { link, ports } = setUp();
    link.start();
    for (let i = 0; i < 10; i++) ports.at(-1)!.drop();
    expect(ports).toHaveLength(5);
  });
});
