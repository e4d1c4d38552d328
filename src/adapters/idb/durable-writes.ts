/**
 * Write rules every IndexedDB store follows:
 * - checkpoints and memory rows are committed with durability 'strict', so a
 *   write the agent relied on survives a crash or power loss, not just a
 *   worker restart (Chrome's default is 'relaxed');
 * - a full disk surfaces as StorageFullError with a sentence a person can
 *   act on, so the episode can pause and say why.
 */
export const STRICT = { durability: 'strict' } as const;

export class StorageFullError extends Error {
  override name = 'StorageFullError';
}

export function isQuotaError(error: unknown): boolean {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : '';
  return name === 'QuotaExceededError' || /quota/i.test(String(error));
}

/** Runs a write; a quota failure becomes StorageFullError. */
export async function writing<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isQuotaError(error)) {
      throw new StorageFullError(`the browser's storage for Apprentice is full, so ${what} was not saved: free space, or forget sites in the Memory tab`, { cause: error });
    }
    throw error;
  }
}

/**
 * Runs a transaction's writes without awaiting between them (`push` each
 * request as it is issued). The first failure aborts the transaction, which
 * rolls back every write in it, and is thrown once.
 */
export async function allOrNothing(
  tx: { done: Promise<void>; abort(): void },
  issue: (push: (request: Promise<unknown>) => void) => Promise<void>,
): Promise<void> {
  const requests: Promise<unknown>[] = [];
  // After an abort every pending request rejects; the failure is reported once, below.
  const push = (request: Promise<unknown>) => {
    request.catch(() => undefined);
    requests.push(request);
  };
  const work = (async () => {
    await issue(push);
    await Promise.all(requests);
  })();
  try {
    await Promise.all([work, tx.done]);
  } catch (error) {
    try { tx.abort(); } catch { /* already aborted */ }
    await tx.done.catch(() => undefined);
    throw error;
  }
}
