/**
 * Typed clients and handler maps over the message schemas. A client validates
 * the reply; a handler map validates the request before dispatch and turns
 * every failure into a named error payload, so nothing crosses a context as
 * an untyped exception.
 */
import * as z from 'zod';
import {
  ContentRequests, type ContentRequest, type ContentRequestType, type ContentResponse,
  ErrorPayloadSchema, PageRequests, UiRequests,
  type ErrorPayload, type PageRequest, type PageRequestType, type PageResponse, type Reply,
  type UiRequest, type UiRequestType, type UiResponse,
} from './messages.ts';

/** Named errors: matched by `name`, since `instanceof` fails across realms. */
export class ProtocolError extends Error {
  override name = 'ProtocolError';
}
export class RemoteError extends Error {
  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = payload.name;
  }
}

export function toErrorPayload(err: unknown): ErrorPayload {
  if (err instanceof Error) return { name: err.name || 'Error', message: err.message };
  return { name: 'Error', message: String(err) };
}

type Table = Record<string, { req: z.ZodType; res: z.ZodType }>;

function parseRequest<T extends Table>(table: T, raw: unknown): { type: keyof T & string; payload: unknown } {
  if (typeof raw !== 'object' || raw === null || !('type' in raw) || typeof raw.type !== 'string') {
    throw new ProtocolError('message has no type');
  }
  const { type, ...rest } = raw as { type: string } & Record<string, unknown>;
  const entry = table[type];
  if (!entry) throw new ProtocolError(`unknown message type "${type}"`);
  const parsed = entry.req.safeParse(rest);
  if (!parsed.success) throw new ProtocolError(`invalid "${type}" message: ${z.prettifyError(parsed.error)}`);
  return { type, payload: parsed.data };
}

function parseReply<S extends z.ZodType>(schema: S, type: string, raw: unknown): z.infer<S> {
  const shape = z.union([
    z.strictObject({ ok: z.literal(true), value: z.unknown() }),
    z.strictObject({ ok: z.literal(false), error: ErrorPayloadSchema }),
  ]).safeParse(raw);
  if (!shape.success) throw new ProtocolError(`malformed reply to "${type}"`);
  if (!shape.data.ok) throw new RemoteError(shape.data.error);
  const value = schema.safeParse(shape.data.value);
  if (!value.success) throw new ProtocolError(`invalid reply to "${type}": ${z.prettifyError(value.error)}`);
  return value.data;
}

export type Send = (message: unknown) => Promise<unknown>;

export function createUiClient(send: Send) {
  return {
    async request<T extends UiRequestType>(type: T, payload: Omit<UiRequest<T>, 'type'>): Promise<UiResponse<T>> {
      const raw = await send({ type, ...payload });
      return parseReply(UiRequests[type].res, type, raw) as UiResponse<T>;
    },
  };
}
export type UiClient = ReturnType<typeof createUiClient>;

export function createPageClient(send: Send) {
  return {
    async request<T extends PageRequestType>(type: T, payload: Omit<PageRequest<T>, 'type'>): Promise<PageResponse<T>> {
      const raw = await send({ type, ...payload });
      return parseReply(PageRequests[type].res, type, raw) as PageResponse<T>;
    },
  };
}
export type PageClient = ReturnType<typeof createPageClient>;

export function createContentClient(send: Send) {
  return {
    async request<T extends ContentRequestType>(type: T, payload: Omit<ContentRequest<T>, 'type'>): Promise<ContentResponse<T>> {
      const raw = await send({ type, ...payload });
      return parseReply(ContentRequests[type].res, type, raw) as ContentResponse<T>;
    },
  };
}
export type ContentClient = ReturnType<typeof createContentClient>;

export type ContentHandlers<Ctx> = {
  [K in ContentRequestType]: (request: Omit<ContentRequest<K>, 'type'>, ctx: Ctx) => Promise<ContentResponse<K>>;
};

export type UiHandlers<Ctx> = {
  [K in UiRequestType]: (request: Omit<UiRequest<K>, 'type'>, ctx: Ctx) => Promise<UiResponse<K>>;
};
export type PageHandlers<Ctx> = {
  [K in PageRequestType]: (request: Omit<PageRequest<K>, 'type'>, ctx: Ctx) => Promise<PageResponse<K>>;
};

async function dispatch<Ctx>(
  table: Table,
  handlers: Record<string, (request: never, ctx: Ctx) => Promise<unknown>>,
  raw: unknown,
  ctx: Ctx,
): Promise<Reply<unknown>> {
  try {
    const { type, payload } = parseRequest(table, raw);
    const handler = handlers[type];
    if (!handler) throw new ProtocolError(`no handler for "${type}"`);
    return { ok: true, value: await handler(payload as never, ctx) };
  } catch (err) {
    return { ok: false, error: toErrorPayload(err) };
  }
}

export const dispatchUiRequest = <Ctx>(handlers: UiHandlers<Ctx>, raw: unknown, ctx: Ctx) =>
  dispatch(UiRequests, handlers as unknown as Record<string, (r: never, c: Ctx) => Promise<unknown>>, raw, ctx);
export const dispatchPageRequest = <Ctx>(handlers: PageHandlers<Ctx>, raw: unknown, ctx: Ctx) =>
  dispatch(PageRequests, handlers as unknown as Record<string, (r: never, c: Ctx) => Promise<unknown>>, raw, ctx);
export const dispatchContentRequest = <Ctx>(handlers: ContentHandlers<Ctx>, raw: unknown, ctx: Ctx) =>
  dispatch(ContentRequests, handlers as unknown as Record<string, (r: never, c: Ctx) => Promise<unknown>>, raw, ctx);

/** Is this message one of ours by shape? Lets listeners ignore foreign messages cheaply. */
export const isUiRequestType = (t: unknown): t is UiRequestType => typeof t === 'string' && t in UiRequests;
export const isPageRequestType = (t: unknown): t is PageRequestType => typeof t === 'string' && t in PageRequests;
export const isContentRequestType = (t: unknown): t is ContentRequestType => typeof t === 'string' && t in ContentRequests;
