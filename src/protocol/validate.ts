/**
 * Typed clients and handler maps over the message schemas. A client validates
 * the reply; a handler map validates the request before dispatch and turns
 * every failure into a named error payload, so nothing crosses a context as
 * an untyped exception.
 */
import * as z from 'zod';
import {
  ContentRequests, type ContentRequestType,
  ErrorPayloadSchema, PageRequests, UiRequests,
  type ErrorPayload, type PageRequestType, type Reply,
  type UiRequestType,
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

/**
 * The table's entry for a type, own properties only: `{type: "constructor"}`
 * from a page must be an unknown type, not Object.prototype's constructor.
 */
function entryOf<T extends Table>(table: T, type: string): T[keyof T] | undefined {
  return Object.hasOwn(table, type) ? (table[type] as T[keyof T]) : undefined;
}

function parseRequest<T extends Table>(table: T, raw: unknown): { type: keyof T & string; payload: unknown } {
  if (typeof raw !== 'object' || raw === null || !('type' in raw) || typeof raw.type !== 'string') {
    throw new ProtocolError('message has no type');
  }
  const { type, ...rest } = raw as { type: string } & Record<string, unknown>;
  const entry = entryOf(table, type);
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

/** Any one direction's table: message type → request and response schemas. */
type Table = Record<string, { req: z.ZodType; res: z.ZodType }>;
type RequestOf<T extends Table, K extends keyof T> = z.infer<T[K]['req']>;
type ResponseOf<T extends Table, K extends keyof T> = z.infer<T[K]['res']>;

/** A typed client over one direction's table: validates every reply. */
export interface Client<T extends Table> {
  request<K extends keyof T & string>(type: K, payload: RequestOf<T, K>): Promise<ResponseOf<T, K>>;
}

/** A handler per message type of one direction's table. */
export type Handlers<T extends Table, Ctx> = {
  [K in keyof T]: (request: RequestOf<T, K>, ctx: Ctx) => Promise<ResponseOf<T, K>>;
};

function createClient<T extends Table>(table: T, send: Send): Client<T> {
  return {
    async request(type, payload) {
      const entry = entryOf(table, type);
      if (!entry) throw new ProtocolError(`unknown message type "${type}"`);
      return parseReply(entry.res, type, await send({ type, ...(payload as object) })) as ResponseOf<T, typeof type>;
    },
  };
}

export const createUiClient = (send: Send): UiClient => createClient(UiRequests, send);
export const createPageClient = (send: Send): PageClient => createClient(PageRequests, send);
export const createContentClient = (send: Send): ContentClient => createClient(ContentRequests, send);
export type UiClient = Client<typeof UiRequests>;
export type PageClient = Client<typeof PageRequests>;
export type ContentClient = Client<typeof ContentRequests>;
export type UiHandlers<Ctx> = Handlers<typeof UiRequests, Ctx>;
export type PageHandlers<Ctx> = Handlers<typeof PageRequests, Ctx>;
export type ContentHandlers<Ctx> = Handlers<typeof ContentRequests, Ctx>;

async function dispatch<Ctx>(
  table: Table,
  handlers: Record<string, (request: never, ctx: Ctx) => Promise<unknown>>,
  raw: unknown,
  ctx: Ctx,
): Promise<Reply<unknown>> {
  try {
    const { type, payload } = parseRequest(table, raw);
    const handler = Object.hasOwn(handlers, type) ? handlers[type] : undefined;
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
export const isUiRequestType = (t: unknown): t is UiRequestType => typeof t === 'string' && Object.hasOwn(UiRequests, t);
export const isPageRequestType = (t: unknown): t is PageRequestType => typeof t === 'string' && Object.hasOwn(PageRequests, t);
export const isContentRequestType = (t: unknown): t is ContentRequestType => typeof t === 'string' && Object.hasOwn(ContentRequests, t);
