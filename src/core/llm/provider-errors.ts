/**
 * Classifies an HTTP failure of an OpenAI-compatible server from its status
 * and raw body. Servers disagree on the body: OpenAI and Ollama send
 * `{error: {message, type, param, code}}`, OpenRouter `{error: {code, message,
 * metadata}}`, vLLM `{error: {...}}` or (older) the error object at the top
 * level, llama.cpp adds `n_prompt_tokens`/`n_ctx`, LM Studio sends
 * `{error: "<text>"}`, and Ollama's Origin refusal has no body at all. So the
 * rules read the text of every field, not one schema.
 *
 * The distinction that matters to the caller: a 400 that says a parameter is
 * unsupported lets the adapter drop that parameter for the rest of the session;
 * a context-length error lets the policy shrink the page; anything else fails
 * this call only and changes nothing for the next one.
 */
import { ProviderError, type ProviderErrorDetail } from '../errors.ts';

export interface HttpFailure {
  status: number;
  /** The response body as text ('' when there was none). */
  body: string;
  /** Names of the request parameters that were sent (top-level keys of the body). */
  sentParams: readonly string[];
  /** The extension's origin, for the exact OLLAMA_ORIGINS value. */
  origin?: string;
}

interface ErrorFields {
  text: string;
  param: string | null;
  code: string | null;
  type: string | null;
  numbers: Record<string, number>;
}

const asRecord = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** The fields of whichever error shape the server used. */
function readFields(body: string): ErrorFields {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { text: body, param: null, code: null, type: null, numbers: {} };
  }
  const top = asRecord(parsed);
  const inner = top?.['error'];
  const err = asRecord(inner) ?? (typeof inner === 'string' ? { message: inner } : top) ?? {};
  const metadata = asRecord(err['metadata']);
  const texts = [err['message'], metadata?.['raw'], typeof inner === 'string' ? null : top?.['message']]
    .map((t) => (typeof t === 'string' ? t : t === undefined || t === null ? '' : JSON.stringify(t)))
    .filter((t) => t !== '');
  const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  const numbers: Record<string, number> = {};
  for (const key of ['n_ctx', 'n_prompt_tokens']) {
    const v = err[key];
    if (typeof v === 'number') numbers[key] = v;
  }
  return {
    text: [...new Set(texts)].join(' — ') || body,
    param: str(err['param']),
    code: typeof err['code'] === 'number' ? String(err['code']) : str(err['code']),
    type: str(err['type']),
    numbers,
  };
}

const CONTEXT_TEXT =
  /maximum context length|context length of only|context length is only|exceeds? the available context size|context size has been exceeded|context_length_exceeded|input tokens exceed|prompt is too long|greater than the context length/i;

/** The first integer captured by any of the patterns. */
function firstNumber(text: string, patterns: readonly RegExp[]): number | undefined {
  for (const re of patterns) {
    const m = re.exec(text);
    if (m?.[1]) return Number(m[1]);
  }
  return undefined;
}

function contextDetail(f: ErrorFields): ProviderErrorDetail {
  const contextTokens =
    f.numbers['n_ctx'] ??
    firstNumber(f.text, [/maximum context length is (\d+)/i, /context length of only (\d+)/i, /context length is only (\d+)/i, /configured limit of (\d+)/i]);
  const promptTokens =
    f.numbers['n_prompt_tokens'] ??
    firstNumber(f.text, [
      /\((\d+) in the messages/i,
      /\((\d+) of text input/i,
      /resulted in (\d+) tokens/i,
      /keep the first (\d+) tokens/i,
      /you passed (\d+) input tokens/i,
    ]);
  return { ...(contextTokens !== undefined ? { contextTokens } : {}), ...(promptTokens !== undefined ? { promptTokens } : {}) };
}

const UNSUPPORTED_TEXT =
  /unsupported|not supported|unrecognized|unknown (?:parameter|field|argument|key)|not permitted|not allowed|extra (?:inputs|fields)|does not support|response_format[^\n]*must be/i;

/** The sent parameter the error names: its `param` field, else the first one its text mentions. */
function namedParam(f: ErrorFields, sent: readonly string[]): string | null {
  if (f.param) {
    const root = f.param.split(/[.[]/)[0] ?? f.param;
    if (sent.includes(root)) return root;
  }
  // Longest names first, so 'top_logprobs' wins over 'logprobs' and 'max_completion_tokens' over 'max_tokens'.
  for (const name of [...sent].sort((a, b) => b.length - a.length)) {
    if (name === 'model' || name === 'messages') continue;
    if (new RegExp(`(^|[^a-z_])${name}([^a-z_]|$)`, 'i').test(f.text)) return name;
  }
  return null;
}

const MODEL_MISSING_TEXT = /model[^\n]{0,80}(?:not found|does not exist)|not a valid model|no such model|model_not_found|pull(?:ing)? it first/i;

export function classifyHttpFailure(failure: HttpFailure): ProviderError {
  const { status } = failure;
  const f = readFields(failure.body);
  const said = f.text.trim() || `HTTP ${status}`;
  if (status === 403 && failure.body.trim() === '') {
    const origin = failure.origin ?? 'chrome-extension://<extension id>';
    return new ProviderError(
      'origin_forbidden',
      `the server refused the Origin ${origin} with an empty 403. For Ollama, set OLLAMA_ORIGINS=${origin} in Ollama's environment and restart it.`,
      { status },
    );
  }
  if (f.type === 'exceed_context_size_error' || f.code === 'context_length_exceeded' || CONTEXT_TEXT.test(f.text)) {
    return new ProviderError('context_length', said, { status, detail: contextDetail(f) });
  }
  if (status === 400 || status === 422) {
    const param = namedParam(f, failure.sentParams);
    const saysUnsupported = f.code === 'unsupported_parameter' || f.code === 'unsupported_value' || UNSUPPORTED_TEXT.test(f.text);
    if (param && saysUnsupported) {
      const replacement = /use '([a-z_]+)' instead/i.exec(f.text)?.[1];
      return new ProviderError('unsupported_parameter', said, { status, detail: { param, ...(replacement ? { replacement } : {}) } });
    }
  }
  if (f.code === 'model_not_found' || MODEL_MISSING_TEXT.test(f.text)) {
    return new ProviderError('model_not_found', said, { status });
  }
  const kind = status === 429 ? 'rate_limited' : status === 401 || status === 403 || status === 402 ? 'auth' : status >= 500 ? 'server' : status === 404 ? 'not_found' : 'bad_request';
  return new ProviderError(kind, said, { status });
}
