/**
 * Protocol messages sent from an extension page (the side panel opened in a
 * tab), as the UI sends them: the raw reply, or the value with a named error.
 */
import type { Page } from 'playwright-core';

export type Reply = { ok: true; value: unknown } | { ok: false; error: { name: string; message: string } };

export function messagesFrom(extensionPage: () => Page) {
  const send = (message: Record<string, unknown>): Promise<Reply> =>
    extensionPage().evaluate((m) => chrome.runtime.sendMessage(m), message) as Promise<Reply>;
  const request = async <T>(message: Record<string, unknown>): Promise<T> => {
    const reply = await send(message);
    if (!reply.ok) throw new Error(`${reply.error.name}: ${reply.error.message}`);
    return reply.value as T;
  };
  return { send, request };
}
