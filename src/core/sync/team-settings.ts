/**
 * Team memory's settings: where the team database is, who this member is
 * to teammates, which sites are shared, and which teammates were forgotten.
 * The password is not here: it is stored apart, like the API key
 * (src/adapters/sync/team-settings-store.ts).
 */
import * as z from 'zod';
import { MemberSchema } from './shared-doc.ts';

export const TeamSettingsSchema = z.strictObject({
  /** The CouchDB server, e.g. https://couch.example.com (no database in it). */
  serverUrl: z.string().max(2000),
  /** The team's database on it. */
  database: z.string().max(238),
  username: z.string().max(200),
  /** A random id for this browser profile, made once; the name is what teammates see. */
  memberId: z.string().max(64),
  memberName: z.string().max(80),
  /** Origins whose memory is shared (and pulled). */
  sharedSites: z.array(z.string().url()).max(1000),
  /** Sync by itself every few minutes (otherwise only on "Sync now"). */
  live: z.boolean(),
  /** Teammates forgotten: their documents are not merged. */
  muted: z.array(MemberSchema).max(1000),
  /** Held documents the person accepted after review. */
  reviewed: z.array(z.string().max(1024)).max(10_000),
});
export type TeamSettings = z.infer<typeof TeamSettingsSchema>;

export const DEFAULT_TEAM_SETTINGS: TeamSettings = {
  serverUrl: '', database: '', username: '', memberId: '', memberName: '', sharedSites: [], live: false, muted: [], reviewed: [],
};

/** Why team sync cannot run with these settings, or null. */
export function teamSettingsProblem(s: TeamSettings): string | null {
  if (s.serverUrl === '') return 'no team server is set';
  if (s.database === '') return 'no team database is set';
  if (s.memberName.trim() === '') return 'set the name teammates will see';
  if (s.sharedSites.length === 0) return 'no site is shared';
  return null;
}
