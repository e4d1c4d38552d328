/**
 * Team memory's UI requests (joined into UiRequests in messages.ts).
 */
import * as z from 'zod';
import { TeamSettingsSchema } from '../core/sync/team-settings.ts';

const Empty = z.strictObject({});

export const TeamSyncStatusSchema = z.strictObject({
  /** When the last round ended (ms), null before the first. */
  at: z.number().nullable(),
  ok: z.boolean().nullable(),
  /** The error's message when the round failed. */
  message: z.string().nullable(),
  published: z.number().int(),
  withdrawn: z.number().int(),
  pushed: z.number().int(),
  pulled: z.number().int(),
  imported: z.number().int(),
  removed: z.number().int(),
  masked: z.number().int(),
  refused: z.array(z.strictObject({ docId: z.string(), reason: z.string() })),
  held: z.array(z.strictObject({ docId: z.string(), reason: z.string(), author: z.string().nullable(), origin: z.string().nullable(), reviewable: z.boolean() })),
  conflicts: z.array(z.strictObject({ origin: z.string(), part: z.string(), key: z.string(), kept: z.string(), setAside: z.array(z.string()) })),
});
export type TeamSyncStatus = z.infer<typeof TeamSyncStatusSchema>;

/** One row a teammate brought, with its provenance (the newest first, at most 20 per teammate). */
const TeammateItemSchema = z.strictObject({ origin: z.string(), part: z.string(), key: z.string(), taughtAt: z.number(), episodeId: z.string().nullable(), appVersion: z.string() });
export const TeammateSchema = z.strictObject({ id: z.string(), name: z.string(), items: z.number().int(), sites: z.array(z.string()), lastTaughtAt: z.number(), muted: z.boolean(), recent: z.array(TeammateItemSchema) });

const TeamSettingsViewSchema = TeamSettingsSchema.extend({ hasPassword: z.boolean() });

export const TeamRequests = {
  'team.settings': { req: Empty, res: TeamSettingsViewSchema },
  /** `password` null keeps the stored one. */
  'team.saveSettings': { req: z.strictObject({ settings: TeamSettingsSchema, password: z.string().max(1000).nullable() }), res: TeamSettingsViewSchema },
  /**
   * Tests the typed (unsaved) server, database and user when `connection` is given (`password` null: the stored one,
   * only for the saved server and user: sync/team-test-target.ts); the saved settings otherwise.
   */
  'team.test': {
    req: z.strictObject({
      connection: TeamSettingsSchema.pick({ serverUrl: true, database: true, username: true }).optional(),
      password: z.string().max(1000).nullable().optional(),
    }),
    res: z.discriminatedUnion('ok', [z.strictObject({ ok: z.literal(true), detail: z.string() }), z.strictObject({ ok: z.literal(false), problem: z.string(), message: z.string() })]) },
  'team.sync': { req: Empty, res: TeamSyncStatusSchema },
  'team.status': { req: Empty, res: TeamSyncStatusSchema },
  'team.teammates': { req: Empty, res: z.array(TeammateSchema) },
  /** Merges a held document the person reviewed (an always-ask action); remembered for later rounds. */
  'team.acceptHeld': { req: z.strictObject({ docId: z.string().min(1).max(1024) }), res: z.strictObject({ imported: z.number().int(), message: z.string().nullable() }) },
  /** Removes what the teammate brought and stops merging their documents. */
  'team.forgetTeammate': { req: z.strictObject({ id: z.string().min(1) }), res: z.strictObject({ removed: z.number().int() }) },
} as const;
