/**
 * The per-site ask modes, and the migration from the auto-approve setting
 * they replace. Auto-approve trusted a whole site and let a word list decide
 * what was sensitive; a site that had it on now asks "only for what I
 * haven't approved", so nothing runs unasked until the person approved it
 * there (earned-autonomy.ts).
 */
import * as z from 'zod';

export const AskModeSchema = z.enum(['every-step', 'unapproved-only', 'off']);
export type AskMode = z.infer<typeof AskModeSchema>;

export const ASK_MODE_LABELS: Readonly<Record<AskMode, string>> = {
  'every-step': 'Ask every step',
  'unapproved-only': "Ask only for what I haven't approved",
  off: 'Off',
};

export const DEFAULT_ASK_MODE: AskMode = 'every-step';

/** An http(s) origin, exactly as `new URL(url).origin` writes it: a mode is for a web site, never `javascript:` or a path. */
export const HttpOriginSchema = z.string().max(2000).refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === s;
  } catch {
    return false;
  }
}, 'must be an http(s) origin such as https://example.com');

/** The site's mode: what the person chose for the origin, else asking every step. */
export const askModeFor = (askModes: Readonly<Record<string, AskMode>>, origin: string): AskMode => askModes[origin] ?? DEFAULT_ASK_MODE;

/**
 * Stored agent settings of an older version, brought to this one: each origin
 * of `autoApproveOrigins` becomes 'unapproved-only' (a mode already chosen for
 * it wins), and the old key goes. Anything else is left as it was.
 */
export function migrateAgentSettings(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !('autoApproveOrigins' in raw)) return raw;
  const { autoApproveOrigins, ...rest } = raw as Record<string, unknown> & { autoApproveOrigins: unknown };
  const modes: Record<string, unknown> = typeof rest.askModes === 'object' && rest.askModes !== null ? { ...(rest.askModes as Record<string, unknown>) } : {};
  if (Array.isArray(autoApproveOrigins)) {
    for (const origin of autoApproveOrigins) if (typeof origin === 'string' && !(origin in modes)) modes[origin] = 'unapproved-only';
  }
  return { ...rest, askModes: modes };
}
