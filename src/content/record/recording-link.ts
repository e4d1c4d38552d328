/**
 * Keeps the service worker awake while this page records a demonstration.
 * An MV3 worker stops after ~30 s without events, and a message sent to a
 * stopped worker by a page that navigates away at once (a link click) is
 * lost before the worker starts. So while recording, the page holds a port
 * open with a heartbeat (port messages keep the worker alive), and opens it
 * again as soon as it drops (which starts the worker again).
 */
import { RECORDING_PORT_NAME } from '../../protocol/messages.ts';

interface PortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onDisconnect: { addListener(cb: () => void): void };
}

export interface RecordingLinkOptions {
  connect(info: { name: string }): PortLike;
  setInterval(cb: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  now(): number;
  heartbeatMs?: number;
}

export interface RecordingLink {
  start(): void;
  stop(): void;
}

/** A port refused again and again (the tab is not recorded any more) is not reopened forever. */
const MAX_QUICK_DROPS = 5;
const QUICK_DROP_MS = 1000;

export function createRecordingLink(options: RecordingLinkOptions): RecordingLink {
  const heartbeatMs = options.heartbeatMs ?? 20_000;
  let on = false;
  let port: PortLike | null = null;
  let timer: unknown = null;
  let quickDrops = 0;

  const open = () => {
    const openedAt = options.now();
    let current: PortLike;
    try {
      current = options.connect({ name: RECORDING_PORT_NAME });
    } catch {
      return; // the extension was reloaded: this content script is orphaned
    }
    port = current;
    current.onDisconnect.addListener(() => {
      if (port !== current) return;
      port = null;
      if (!on) return;
      quickDrops = options.now() - openedAt < QUICK_DROP_MS ? quickDrops + 1 : 0;
      if (quickDrops < MAX_QUICK_DROPS) open();
    });
  };

  return {
    start() {
      if (on) return;
      on = true;
      quickDrops = 0;
      open();
      timer = options.setInterval(() => {
        try {
          port?.postMessage({ type: 'heartbeat' });
        } catch {
          /* dropped: onDisconnect reopens it */
        }
      }, heartbeatMs);
    },
    stop() {
      on = false;
      if (timer !== null) options.clearInterval(timer);
      timer = null;
      const p = port;
      port = null;
      p?.disconnect();
    },
  };
}
