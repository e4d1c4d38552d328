/**
 * Named errors that survive crossing extension contexts. Messaging carries
 * only `{name, message}`, and `instanceof` fails across realms, so callers
 * match on `name` (see `isProviderError`, `isModelOutputError`).
 */

export type ProviderErrorKind =
  | 'unreachable'
  | 'timeout'
  | 'rate_limited'
  | 'server'
  | 'auth'
  | 'bad_request'
  | 'aborted';

/** The model provider could not give an answer (down, slow, refused, cancelled). */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
  }
}

/** The model answered, but not in the required form, even after repair and one retry. */
export class ModelOutputError extends Error {
  override readonly name = 'ModelOutputError';
  /** The last raw text the model produced (truncated), for the person to inspect. */
  readonly raw: string;

  constructor(message: string, raw = '') {
    super(message);
    this.raw = raw.slice(0, 2000);
  }
}

const hasName = (err: unknown, name: string): boolean =>
  typeof err === 'object' && err !== null && (err as { name?: unknown }).name === name;

export const isProviderError = (err: unknown): err is ProviderError => hasName(err, 'ProviderError');
export const isModelOutputError = (err: unknown): err is ModelOutputError => hasName(err, 'ModelOutputError');
export const isAbortError = (err: unknown): boolean =>
  hasName(err, 'AbortError') || (isProviderError(err) && err.kind === 'aborted');

const KIND_TEXT: Record<ProviderErrorKind, string> = {
  unreachable: 'The model provider could not be reached. Check the base URL and that the server is running.',
  timeout: 'The model provider took too long to answer. Try again, or raise the timeout in the options.',
  rate_limited: 'The model provider is rate-limiting requests. Wait a moment and try again.',
  server: 'The model provider had an internal error. Try again later.',
  auth: 'The model provider refused the API key. Check the key in the options.',
  bad_request: 'The model provider rejected the request. Check the model name.',
  aborted: 'The request was cancelled.',
};

/** One sentence a person can act on, for any thrown value. */
export function describeError(err: unknown): string {
  if (isProviderError(err)) {
    const kind = (err as { kind?: ProviderErrorKind }).kind;
    const base = kind && kind in KIND_TEXT ? KIND_TEXT[kind] : 'The model provider failed.';
    const status = (err as { status?: number }).status;
    const detail = err.message && err.message !== base ? ` (${status ? `HTTP ${status}: ` : ''}${err.message})` : '';
    return base + detail;
  }
  if (isModelOutputError(err)) {
    return `The model's answer could not be understood, even after a repair and a retry: ${(err as Error).message}`;
  }
  if (err instanceof Error || (typeof err === 'object' && err !== null && 'message' in err)) {
    const e = err as { name?: unknown; message?: unknown };
    const name = typeof e.name === 'string' && e.name !== 'Error' ? `${e.name}: ` : '';
    return `${name}${String(e.message)}`;
  }
  return String(err);
}
