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
  /** Nothing at that address (HTTP 404): the base URL's path is wrong (often a missing /v1). */
  | 'not_found'
  | 'aborted'
  /** The server says a parameter we sent is not supported (the adapter drops it and retries). */
  | 'unsupported_parameter'
  /** The prompt does not fit the model's context window (the policy shrinks the page and retries). */
  | 'context_length'
  /** The server does not have the model that was asked for. */
  | 'model_not_found'
  /** The server refused the extension's Origin (Ollama's 403 without OLLAMA_ORIGINS). */
  | 'origin_forbidden'
  /** The provider cannot run on this device or in this browser (Chrome's built-in model). */
  | 'unsupported_device';

/** What a classified provider failure tells the caller beyond its kind. */
export interface ProviderErrorDetail {
  /** For 'unsupported_parameter': the request parameter the server refused. */
  param?: string;
  /** For 'unsupported_parameter': the parameter the server says to use instead. */
  replacement?: string;
  /** For 'context_length': the model's window and the prompt's size, in tokens, when the server says them. */
  contextTokens?: number;
  promptTokens?: number;
  /** For 'model_not_found': the models the server lists. */
  models?: string[];
}

/** The model provider could not give an answer (down, slow, refused, cancelled). */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  readonly detail: ProviderErrorDetail;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; cause?: unknown; detail?: ProviderErrorDetail } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.detail = options.detail ?? {};
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
  not_found: 'The model provider has no chat endpoint at that address. Check the base URL.',
  aborted: 'The request was cancelled.',
  unsupported_parameter: 'The model provider does not support a parameter of the request.',
  context_length: "The prompt is larger than the model's context window.",
  model_not_found: 'The model provider does not have this model.',
  origin_forbidden: "The model server refused requests from this extension's origin.",
  unsupported_device: "Chrome's built-in model is not available here.",
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
    // Say what to do (issue 31): a model that answers in prose needs JSON mode, or another model, or no model at all.
    const said = (err as Error).message.replace(/[.\s]+$/, '');
    return `The model's answer could not be understood, even after a repair and a retry: ${said}. `
      + 'Turn on JSON mode (structured output) for this model, choose another model, or pick the Offline provider in Settings, then Resume.';
  }
  if (err instanceof Error || (typeof err === 'object' && err !== null && 'message' in err)) {
    const e = err as { name?: unknown; message?: unknown };
    const name = typeof e.name === 'string' && e.name !== 'Error' ? `${e.name}: ` : '';
    return `${name}${String(e.message)}`;
  }
  return String(err);
}
