/**
 * Every message between extension contexts, in one place. One discriminated
 * union per direction, each request paired with its response type. Every
 * message is validated on receipt (see ./validate.ts); the sender is checked
 * by the receiver (extension pages only for UI requests, our own content
 * script for page replies).
 */
import * as z from 'zod';
import { EpisodeSchema, VerdictSchema } from '../core/episode/episode.ts';
import { DemonstrationOutcomeSchema, PanelDecisionSchema, RecordedActionSchema } from '../core/agent/person-input.ts';
import { ActionResultSchema, ActionSchema, SemanticTargetSchema } from '../core/page/action.ts';
import { AskModeSchema, HttpOriginSchema } from '../core/autonomy/ask-mode.ts';
import { TargetFingerprintSchema } from '../core/page/target-fingerprint.ts';
import { PageObservationSchema, TASK_TEXT_MAX } from '../core/page/observation.ts';
import { ImportIdSchema, ImportOutcomeSchema, MemoryImportResultSchema } from '../core/archive/import-outcome.ts';
import { MemorySiteSchema } from '../core/learning/memory-sites.ts';
import { ProviderSettingsSchema, SettingsSchema } from '../core/settings.ts';
import { ProcedureSchema, ReplayStatusSchema } from '../core/replay/procedure.ts';
import { TeamRequests } from './team-messages.ts';

// ── UI (popup / side panel / options) → background ─────────────────────────

// Decisions, verdicts, recorded actions and demonstration outcomes are declared
// once in the core (agent/person-input.ts, episode/episode.ts); the controller
// takes what these schemas parse unchanged.


export const EpisodeSummarySchema = z.strictObject({
  id: z.string(),
  origin: z.string(),
  task: z.string(),
  status: EpisodeSchema.shape.status,
  attempt: z.number().int(),
  steps: z.number().int(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  kind: EpisodeSchema.shape.kind,
  /** Model tokens (prompt + completion) the episode used; absent from older senders. */
  tokens: z.number().int().nonnegative().optional(),
  /** The attempt's cost: model calls, and steps replayed from a learned procedure (no call); absent from older senders. */
  modelCalls: z.number().int().nonnegative().optional(),
  replayedSteps: z.number().int().nonnegative().optional(),
});
export type EpisodeSummary = z.infer<typeof EpisodeSummarySchema>;

export const CurvePointSchema = z.strictObject({
  attempt: z.number().int(),
  episodeId: z.string(),
  success: z.number().min(0).max(1),
  steps: z.number().int(),
  /** What the attempt needed (episode/attempt-costs.ts); absent from older senders. */
  asks: z.number().int().nonnegative().optional(),
  corrections: z.number().int().nonnegative().optional(),
  modelCalls: z.number().int().nonnegative().optional(),
  replayed: z.number().int().nonnegative().optional(),
});
export type CurvePoint = z.infer<typeof CurvePointSchema>;

export const ProviderTestResultSchema = z.strictObject({
  ok: z.boolean(),
  model: z.string(),
  logprobs: z.boolean(),
  latencyMs: z.number(),
  message: z.string(),
  /** The ProviderError kind of a failed test, so the page can show the matching help. */
  kind: z.string().optional(),
  /** Connected: whether the model gave a JSON object when asked for one (what every proposal needs). */
  json: z.boolean().optional(),
  /** The models the server lists, when the configured one is missing. */
  models: z.array(z.string()).optional(),
});
export type ProviderTestResult = z.infer<typeof ProviderTestResultSchema>;

export const ImportResultSchema = MemoryImportResultSchema;

const Empty = z.strictObject({});
const Ok = z.strictObject({ ok: z.literal(true) });

/**
 * What "Pick an element" brings back (issue 31): the element the person
 * clicked in the page, by its ref in the page's snapshot and its semantic
 * target (role, name, the row or dialog it sits in), with what the panel needs
 * to offer the actions that fit it; or nothing, when they pressed Escape or
 * the panel cancelled.
 */
export const PickResultSchema = z.discriminatedUnion('picked', [
  z.strictObject({
    picked: z.literal(true),
    ref: z.string().min(1),
    target: SemanticTargetSchema,
    /** A native select's or listbox's options, by label. */
    options: z.array(z.string()).optional(),
    /** The input's type attribute (checkbox, email…). */
    inputType: z.string().optional(),
    /** Its current value, for a field. */
    value: z.string().optional(),
  }),
  z.strictObject({ picked: z.literal(false), reason: z.enum(['cancelled', 'replaced']) }),
]);
export type PickResult = z.infer<typeof PickResultSchema>;

/** request schema + response schema for every UI → background message. */
export const UiRequests = {
  'episode.start': { req: z.strictObject({ tabId: z.number().int(), task: z.string().trim().min(1).max(2000) }), res: EpisodeSchema },
  'episode.current': { req: z.strictObject({ tabId: z.number().int() }), res: EpisodeSchema.nullable() },
  'episode.get': { req: z.strictObject({ episodeId: z.string() }), res: EpisodeSchema.nullable() },
  'episode.decide': { req: z.strictObject({ episodeId: z.string(), decision: PanelDecisionSchema }), res: EpisodeSchema },
  'episode.pause': { req: z.strictObject({ episodeId: z.string() }), res: EpisodeSchema },
  /** `offlineOnce`: propose the next step with the offline policy (the model's answer was unusable), then the model again. */
  'episode.resume': { req: z.strictObject({ episodeId: z.string(), offlineOnce: z.boolean().optional() }), res: EpisodeSchema },
  'episode.stop': { req: z.strictObject({ episodeId: z.string() }), res: EpisodeSchema },
  'episode.verdict': {
    /** `answer`: what the person gave as the result with "Task is done" (kept as the episode's answer). */
    req: z.strictObject({ episodeId: z.string(), verdict: VerdictSchema, runEvaluator: z.boolean(), answer: z.string().trim().min(1).max(4000).optional() }),
    res: EpisodeSchema,
  },
  'history.list': { req: z.strictObject({ origin: z.string().nullable(), limit: z.number().int().positive().max(1000) }), res: z.array(EpisodeSummarySchema) },
  'history.curve': { req: z.strictObject({ origin: z.string(), task: z.string() }), res: z.array(CurvePointSchema) },
  /** Sites some learner remembers something on (memory-sites.ts); a learner's own rows are its panel's actions. */
  'memory.sites': { req: Empty, res: z.array(MemorySiteSchema) },
  'memory.forgetSite': {
    req: z.strictObject({ origin: z.string() }),
    // deleted: learner items; the rest: tasks started there, and every step, decision and approval on the site (autonomy/forget-site.ts).
    res: z.strictObject({
      deleted: z.number().int(), episodes: z.number().int(), steps: z.number().int(), decisions: z.number().int(), approvals: z.number().int(),
    }),
  },
  'memory.export': { req: Empty, res: z.strictObject({ json: z.string(), filename: z.string() }) },
  /** `importId` (the panel's): the outcome is kept under it, committed with the data, for memory.importOutcome. */
  'memory.import': { req: z.strictObject({ json: z.string().max(200_000_000), importId: ImportIdSchema.optional() }), res: ImportResultSchema },
  /** What the import of that id did, read after a lost reply (a worker stopped meanwhile); null: nothing of it was committed. */
  'memory.importOutcome': { req: z.strictObject({ importId: ImportIdSchema }), res: z.strictObject({ outcome: ImportOutcomeSchema.nullable() }) },
  'settings.get': { req: Empty, res: SettingsSchema },
  'settings.set': { req: z.strictObject({ settings: SettingsSchema }), res: SettingsSchema },
  'settings.reset': { req: Empty, res: SettingsSchema },
  /** What the last load could not keep of the stored settings (one line each). */
  'settings.loadNotes': { req: Empty, res: z.array(z.string()) },
  'provider.test': { req: z.strictObject({ provider: ProviderSettingsSchema }), res: ProviderTestResultSchema },
  'page.highlight': { req: z.strictObject({ tabId: z.number().int(), ref: z.string().nullable() }), res: Ok },
  /** "Pick an element": `on` waits until the person clicks an element in the tab's page (Escape cancels); `on: false` cancels a pick under way. */
  'page.pick': { req: z.strictObject({ tabId: z.number().int(), on: z.boolean() }), res: PickResultSchema },
  /** The site's ask mode (autonomy/ask-mode.ts). */
  'askMode.set': { req: z.strictObject({ origin: HttpOriginSchema, mode: AskModeSchema }), res: SettingsSchema },
  /** Start recording a person's demonstration of `task` in the tab (an episode of kind 'demonstration'). */
  'demo.start': { req: z.strictObject({ tabId: z.number().int(), task: z.string().trim().min(1).max(2000) }), res: EpisodeSchema },
  /** Stop recording; 'abandoned' is stored as partial, never as a success. */
  'demo.stop': { req: z.strictObject({ episodeId: z.string(), outcome: DemonstrationOutcomeSchema }), res: EpisodeSchema },
  /**
   * The person teaches in the page during an episode: 'show' does the pending
   * step (Show me), 'takeover' several steps until `teach.continue`.
   */
  'teach.start': { req: z.strictObject({ episodeId: z.string(), mode: z.enum(['show', 'takeover']) }), res: EpisodeSchema },
  /** Cancel Show me: back to the proposal, nothing recorded. */
  'teach.cancel': { req: z.strictObject({ episodeId: z.string() }), res: EpisodeSchema },
  /** Continue after Take over; `learn: false` ("don't learn from this") keeps those steps from every learner. */
  'teach.continue': { req: z.strictObject({ episodeId: z.string(), learn: z.boolean() }), res: EpisodeSchema },
  /** A registry learner's memory on one site (its `memory.list`); null when that learner lists nothing. */
  'learner.memory': {
    req: z.strictObject({ learnerId: z.string(), origin: z.string() }),
    res: z.array(z.strictObject({ learnerId: z.string(), origin: z.string(), key: z.string(), value: z.unknown(), updatedAt: z.number(), importedFrom: z.string().optional() })).nullable(),
  },
  /**
   * A request of a learner's own panel view (its definition's `actions`,
   * learner-actions.ts): the background validates the payload with the
   * action's schema, the panel the reply.
   */
  'learner.action': { req: z.strictObject({ learnerId: z.string(), action: z.string(), payload: z.unknown() }), res: z.unknown() },
  /** The person's answer to an offered replay plan (issue 25): approve once, with edited values, or decline. */
  'episode.plan': {
    req: z.strictObject({
      episodeId: z.string(),
      decision: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('approve'), values: z.record(z.string(), z.string().max(2000)).optional() }),
        z.strictObject({ kind: z.literal('decline') }),
      ]),
    }),
    res: EpisodeSchema,
  },
  /** A site's learned procedures with provenance, success count, last use and why one does not replay. */
  'procedures.list': {
    req: z.strictObject({ origin: z.string() }),
    res: z.array(z.strictObject({ procedure: ProcedureSchema, status: ReplayStatusSchema, successCount: z.number().int().nonnegative(), blocked: z.string().nullable() })),
  },
  'procedures.delete': { req: z.strictObject({ origin: z.string(), id: z.string().min(1) }), res: Ok },
  'procedures.neverReplay': { req: z.strictObject({ origin: z.string(), id: z.string().min(1), never: z.boolean() }), res: Ok },
  /** Team memory (team-messages.ts). */
  ...TeamRequests,
} as const;

export type UiRequestType = keyof typeof UiRequests;
export type UiRequest<T extends UiRequestType = UiRequestType> = { [K in T]: { type: K } & z.infer<(typeof UiRequests)[K]['req']> }[T];
export type UiResponse<T extends UiRequestType> = z.infer<(typeof UiRequests)[T]['res']>;

// ── background → UI (broadcast over a long-lived port named "apprentice-ui") ─

export const UI_PORT_NAME = 'apprentice-ui';
export const UiEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('episode.updated'), episode: EpisodeSchema }),
  z.strictObject({ type: z.literal('settings.updated'), settings: SettingsSchema }),
]);
export type UiEvent = z.infer<typeof UiEventSchema>;

// ── background → content script (the page layer) ──────────────────────────

export const PageRequests = {
  'page.observe': {
    req: z.strictObject({ maxChars: z.number().int().positive(), lastActedRef: z.string().nullable(), waitFor: SemanticTargetSchema.nullable().optional(), task: z.string().max(TASK_TEXT_MAX).optional() }),
    res: PageObservationSchema,
  },
  'page.act': { req: z.strictObject({ action: ActionSchema, expect: TargetFingerprintSchema.optional() }), res: ActionResultSchema },
  'page.highlight': { req: z.strictObject({ ref: z.string().nullable() }), res: Ok },
  /** `recording`: whether a demonstration is being recorded on this page right now. */
  'page.ping': { req: Empty, res: z.strictObject({ url: z.string(), recording: z.boolean().optional() }) },
  /** Start or stop recording what the person does; stopping first sends what is still pending (a field being typed in). */
  'page.record': { req: z.strictObject({ on: z.boolean() }), res: Ok },
  /** "Pick an element" (UI 'page.pick'): resolves when the person clicks an element or cancels. */
  'page.pick': { req: z.strictObject({ on: z.boolean() }), res: PickResultSchema },
  /** The border round the page while an episode works in this tab (background/episode-frame.ts). */
  'page.frame': { req: z.strictObject({ on: z.boolean() }), res: Ok },
} as const;

export type PageRequestType = keyof typeof PageRequests;
export type PageRequest<T extends PageRequestType = PageRequestType> = { [K in T]: { type: K } & z.infer<(typeof PageRequests)[K]['req']> }[T];
export type PageResponse<T extends PageRequestType> = z.infer<(typeof PageRequests)[T]['res']>;

// ── content script → background (only while a demonstration or teaching is recorded) ──

/**
 * A port the content script holds open while it records, with a heartbeat:
 * it keeps the service worker awake (and wakes it again at once after it was
 * stopped), so a step sent just before a navigation finds the worker running.
 */
export const RECORDING_PORT_NAME = 'apprentice-recording';

export const ContentRequests = {
  /** One action the person did, in semantic form, on the page at `url`. */
  'demo.step': {
    req: RecordedActionSchema,
    res: Ok,
  },
  /** The person did something the recorder cannot write as an action (a file upload, a right click…): what, in a few words. */
  'demo.unrecordable': { req: z.strictObject({ what: z.string().min(1).max(300) }), res: Ok },
} as const;

export type ContentRequestType = keyof typeof ContentRequests;
export type ContentRequest<T extends ContentRequestType = ContentRequestType> = { [K in T]: { type: K } & z.infer<(typeof ContentRequests)[K]['req']> }[T];
export type ContentResponse<T extends ContentRequestType> = z.infer<(typeof ContentRequests)[T]['res']>;

// ── replies: success or a named error that survives crossing contexts ──────

export const ErrorPayloadSchema = z.strictObject({ name: z.string(), message: z.string() });
export type ErrorPayload = z.infer<typeof ErrorPayloadSchema>;
export type Reply<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };
