/**
 * A local, deterministic server speaking the OpenAI Chat Completions API
 * (POST /v1/chat/completions, GET /v1/models), for testing the model path
 * without a model. Each test installs a responder: request → reply. Replies
 * are content strings (tokenized into plausible tokens with fabricated but
 * deterministic logprobs) or error modes (HTTP status, hang, no logprobs).
 * With a provider shape (test/support/provider-shapes.ts) the server also
 * behaves as that provider does at the edges: its refusals and error bodies,
 * its logprob support, its context window and what it does on overflow.
 * Test-only: never imported from src/.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ProviderShape } from './provider-shapes.ts';

export interface ChatCompletionBody {
  model?: string;
  messages: { role: string; content: string }[];
  temperature?: number;
  max_tokens?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  response_format?: { type: string };
  [key: string]: unknown;
}

export type TestReply =
  | string
  | {
      content: string;
      /** Return `logprobs: null` even when asked (providers without logprob support). */
      noLogprobs?: boolean;
      /**
       * top_logprobs for the digit tokens that follow a `"best":` key, in
       * order of occurrence: token → logprob. The chosen token's logprob is
       * read from the same map. Unset: a default spread over digits 1–9.
       */
      bestDigitLogprobs?: Record<string, number>[];
    }
  | { status: number; message?: string; type?: string; param?: string }
  | { hang: true };

export interface RequestInfo {
  /** Prompt tokens as this server counts them (after a silent truncation, the kept part). */
  promptTokens: number;
  /** The prompt was longer than the window and the server cut it without saying so (Ollama). */
  truncated: boolean;
}

export type Responder = (body: ChatCompletionBody, callIndex: number, info: RequestInfo) => TestReply;

export interface OpenAiTestServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** Every request body received, in order. */
  requests: ChatCompletionBody[];
  respond(responder: Responder): void;
  /** Reject any request that carries `response_format` with HTTP 400 (as some local servers do). */
  rejectResponseFormat(on: boolean): void;
  close(): Promise<void>;
}

/**
 * Splits text into tokens the way BPE tokenizers roughly do: a leading space
 * sticks to the following word, digits come in groups of up to three, and
 * punctuation in pairs (`{"`, `":`). Concatenating the tokens gives the text.
 */
export function tokenize(text: string): string[] {
  return text.match(/\s?(?:[A-Za-z]+|\d{1,3}|[^\sA-Za-z\d]{1,2})|\s+/g) ?? [];
}

/** A small deterministic hash for fabricating logprobs. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

const bytesOf = (s: string): number[] => [...Buffer.from(s, 'utf8')];

interface FabricatedToken {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

/** Logprobs for a content string; exported so tests can compute expected values. */
export function fabricateLogprobs(
  content: string,
  topN: number,
  bestDigitLogprobs: Record<string, number>[] = [],
): FabricatedToken[] {
  const tokens = tokenize(content);
  let text = '';
  let bestIndex = 0;
  return tokens.map((token) => {
    const before = text;
    text += token;
    const trimmed = token.trim();
    const lead = token.slice(0, token.length - token.trimStart().length);
    let top: { token: string; logprob: number }[];
    let logprob: number;
    if (/^\d$/.test(trimmed) && /"best"\s*:\s*$/.test(before)) {
      const table =
        bestDigitLogprobs[bestIndex] ??
        Object.fromEntries(
          Array.from({ length: 9 }, (_, i) => [String(i + 1), String(i + 1) === trimmed ? -0.05 : -(3 + Math.abs(i + 1 - Number(trimmed)))]),
        );
      bestIndex++;
      logprob = table[trimmed] ?? -9999;
      top = Object.entries(table)
        .map(([t, lp]) => ({ token: lead + t, logprob: lp }))
        .sort((a, b) => b.logprob - a.logprob);
      if (!top.some((t) => t.token === token)) top.unshift({ token, logprob });
    } else {
      logprob = -((hash(before + token) % 200) / 1000);
      top = [
        { token, logprob },
        { token: token.toUpperCase() === token ? token.toLowerCase() + '_' : token.toUpperCase(), logprob: logprob - 2.5 },
        { token: token + '_', logprob: logprob - 4 },
      ];
    }
    return {
      token,
      logprob,
      bytes: bytesOf(token),
      top_logprobs: top.slice(0, topN).map((t) => ({ ...t, bytes: bytesOf(t.token) })),
    };
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = body === '' ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export interface TestServerOptions {
  /** Behave as this provider does (refusals, error bodies, logprobs, context window). */
  shape?: ProviderShape;
}

/** Prompt tokens as the test server counts them: its tokenizer plus 4 per message. */
export const countPromptTokens = (messages: { content: string }[]): number =>
  messages.reduce((n, m) => n + tokenize(m.content).length + 4, 0);

export async function startOpenAiTestServer(options: TestServerOptions = {}): Promise<OpenAiTestServer> {
  const shape = options.shape;
  let responder: Responder = () => ({ status: 500, message: 'no responder installed' });
  let rejectFormat = false;
  const requests: ChatCompletionBody[] = [];
  const hanging = new Set<ServerResponse>();
  let counter = 0;

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      const ids = shape ? shape.models : ['test-model'];
      sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: shape?.name ?? 'test' })) });
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${url.pathname}`, type: 'invalid_request_error' } });
      return;
    }
    let body: ChatCompletionBody;
    try {
      body = JSON.parse(await readBody(req)) as ChatCompletionBody;
    } catch {
      sendJson(res, 400, { error: { message: 'invalid JSON body', type: 'invalid_request_error' } });
      return;
    }
    requests.push(body);
    const callIndex = requests.length - 1;
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    const refusal = shape?.refuse({ body, origin }) ?? null;
    if (refusal) {
      sendJson(res, refusal.status, refusal.body);
      return;
    }
    const maxCompletion = Number(body.max_tokens ?? body['max_completion_tokens'] ?? 0);
    let promptTokens = countPromptTokens(body.messages);
    let truncated = false;
    if (shape && promptTokens + (shape.countsCompletion ? maxCompletion : 0) > shape.contextTokens) {
      if (shape.overflow === 'refuse') {
        const overflow = shape.overflowError(promptTokens, maxCompletion, shape.contextTokens);
        sendJson(res, overflow.status, overflow.body);
        return;
      }
      promptTokens = shape.contextTokens;
      truncated = true;
    }
    if (rejectFormat && body.response_format !== undefined) {
      sendJson(res, 400, {
        error: { message: "Unrecognized request argument supplied: response_format", type: 'invalid_request_error', param: 'response_format' },
      });
      return;
    }
    const reply = responder(body, callIndex, { promptTokens, truncated });
    if (typeof reply === 'object' && 'hang' in reply) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      return;
    }
    if (typeof reply === 'object' && 'status' in reply) {
      const message = reply.message ?? `error ${reply.status}`;
      sendJson(
        res,
        reply.status,
        shape
          ? shape.errorBody(reply.status, message)
          : { error: { message, type: reply.type ?? 'server_error', param: reply.param ?? null, code: null } },
      );
      return;
    }
    const content = typeof reply === 'string' ? reply : reply.content;
    const withLogprobs = (shape ? shape.returnsLogprobs(body) : body.logprobs === true) && !(typeof reply === 'object' && reply.noLogprobs);
    const completionTokens = tokenize(content).length;
    counter++;
    sendJson(res, 200, {
      id: `chatcmpl-test-${counter}`,
      object: 'chat.completion',
      created: 1_700_000_000 + counter,
      model: body.model ?? 'test-model',
      system_fingerprint: 'fp_test',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          logprobs: withLogprobs
            ? {
                content: fabricateLogprobs(content, body.top_logprobs ?? 0, typeof reply === 'object' ? reply.bestDigitLogprobs : undefined),
                refusal: null,
              }
            : null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('test server has no port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}/v1`,
    requests,
    respond: (r) => {
      responder = r;
    },
    rejectResponseFormat: (on) => {
      rejectFormat = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
