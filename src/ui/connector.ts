/**
 * The UI's only line to the background: a validated request client plus a
 * subscription to broadcast events over a long-lived port. It receives a
 * narrow slice of `chrome.runtime`, so components never touch `chrome` and
 * tests pass plain objects.
 */
import { UI_PORT_NAME, UiEventSchema, type UiEvent } from '../protocol/messages.ts';
import { createUiClient, type UiClient } from '../protocol/validate.ts';

interface EventLike<F extends (...args: never[]) => void> {
  addListener(cb: F): void;
  removeListener(cb: F): void;
}

/** The part of `chrome.runtime.Port` we use. */
export interface PortLike {
  onMessage: EventLike<(message: unknown) => void>;
  onDisconnect: EventLike<() => void>;
  disconnect(): void;
}

/** The part of `chrome.runtime` we use. */
export interface RuntimeSlice {
  sendMessage(message: unknown): Promise<unknown>;
  connect(info: { name: string }): PortLike;
}

export interface BackgroundConnector {
  client: UiClient;
  /** Listen to background events; returns the unsubscribe function. */
  subscribe(listener: (event: UiEvent) => void): () => void;
}

export interface ConnectorOptions {
  /** Delay before reconnecting after the port drops (the worker restarted). */
  reconnectDelayMs?: number;
  /** Timer seam for tests. */
  setTimer?: (cb: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Called with events that fail validation (a version mismatch, say). */
  onInvalidEvent?: (raw: unknown) => void;
}

export function createBackgroundConnector(runtime: RuntimeSlice, options: ConnectorOptions = {}): BackgroundConnector {
  const delay = options.reconnectDelayMs ?? 250;
  const setTimer = options.setTimer ?? ((cb: () => void, ms: number) => setTimeout(cb, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const listeners = new Set<(event: UiEvent) => void>();
  let port: PortLike | null = null;
  let timer: unknown = null;

  const onMessage = (raw: unknown) => {
    const parsed = UiEventSchema.safeParse(raw);
    if (!parsed.success) {
      options.onInvalidEvent?.(raw);
      return;
    }
    for (const listener of [...listeners]) listener(parsed.data);
  };

  const onDisconnect = () => {
    detach();
    // The MV3 worker was stopped (idle or crash): reconnect while anyone listens.
    if (listeners.size > 0 && timer === null) {
      timer = setTimer(() => {
        timer = null;
        if (listeners.size > 0) attach();
      }, delay);
    }
  };

  function attach() {
    if (port) return;
    try {
      port = runtime.connect({ name: UI_PORT_NAME });
    } catch {
      port = null;
      onDisconnect();
      return;
    }
    port.onMessage.addListener(onMessage);
    port.onDisconnect.addListener(onDisconnect);
  }

  function detach() {
    if (!port) return;
    port.onMessage.removeListener(onMessage);
    port.onDisconnect.removeListener(onDisconnect);
    port = null;
  }

  return {
    client: createUiClient((message) => runtime.sendMessage(message)),
    subscribe(listener) {
      listeners.add(listener);
      attach();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          if (timer !== null) clearTimer(timer);
          timer = null;
          const p = port;
          detach();
          p?.disconnect();
        }
      };
    },
  };
}
