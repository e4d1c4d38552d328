/**
 * What the rewards read: the live repository's tickets, ticket remarks and
 * wiki pages, through the fossil CLI (read-only SQL, `wiki list`, `wiki
 * export`). Never the DOM. Any failure to read throws, so the attempt is
 * recorded as an error, not as a failure.
 */
import * as z from 'zod';
import { fossilCli, queryRows, type FossilRepo } from './fossil-app.ts';
import { TICKETS, WIKI_PAGES, type SeedTicket } from './fossil-seed.ts';

const TicketRow = z.object({
  title: z.string().nullable(), type: z.string().nullable(), status: z.string().nullable(),
  severity: z.string().nullable(), priority: z.string().nullable(), resolution: z.string().nullable(),
});
export type TicketRow = z.infer<typeof TicketRow>;

export const tickets = (repo: FossilRepo): Promise<TicketRow[]> =>
  queryRows(repo, 'SELECT title, type, status, severity, priority, resolution FROM ticket ORDER BY tkt_id', TicketRow);

/** The remarks appended to the ticket with this title, oldest first (the seed adds none). */
export async function remarks(repo: FossilRepo, title: string): Promise<string[]> {
  const rows = await queryRows(repo,
    `SELECT c.icomment AS text FROM ticketchng c JOIN ticket t ON t.tkt_id = c.tkt_id WHERE t.title = '${title.replace(/'/g, "''")}' AND coalesce(c.icomment, '') != '' ORDER BY c.tkt_mtime`,
    z.object({ text: z.string() }));
  return rows.map((r) => r.text);
}

export async function wikiNames(repo: FossilRepo): Promise<string[]> {
  return (await fossilCli(repo.dir, ['wiki', 'list', '-R', repo.live])).split('\n').map((s) => s.trim()).filter(Boolean);
}

/** The latest text of a wiki page, or null when there is no such page. */
export async function wikiText(repo: FossilRepo, name: string): Promise<string | null> {
  if (!(await wikiNames(repo)).includes(name)) return null;
  return fossilCli(repo.dir, ['wiki', 'export', name, '-R', repo.live]);
}

const FIELDS = ['type', 'status', 'severity', 'priority', 'resolution'] as const;
const seedResolution = (t: SeedTicket): string => (t.status === 'Closed' ? 'Fixed' : 'Open');

/** Every seeded ticket except `except` is as seeded, and no ticket was added beyond `added`. */
export function othersUnchanged(rows: readonly TicketRow[], except: string | null, added = 0): boolean {
  if (rows.length !== TICKETS.length + added) return false;
  return TICKETS.filter((t) => t.title !== except).every((t) => {
    const row = rows.find((r) => r.title === t.title);
    return row !== undefined && FIELDS.every((f) => row[f] === (f === 'resolution' ? seedResolution(t) : t[f]));
  });
}

/** The row of a seeded ticket with every field as seeded except those in `changed`. */
export function ticketIs(rows: readonly TicketRow[], title: string, changed: Partial<Record<(typeof FIELDS)[number], string>>): boolean {
  const seed = TICKETS.find((t) => t.title === title);
  const row = rows.find((r) => r.title === title);
  if (!seed || !row) return false;
  return FIELDS.every((f) => row[f] === (changed[f] ?? (f === 'resolution' ? seedResolution(seed) : seed[f])));
}

/** Wiki pages other than `except` still hold their seeded text. */
export async function otherPagesUnchanged(repo: FossilRepo, except: string | null, added = 0): Promise<boolean> {
  const names = await wikiNames(repo);
  if (names.length !== WIKI_PAGES.length + added) return false;
  for (const page of WIKI_PAGES) {
    if (page.name === except) continue;
    if (normalize((await wikiText(repo, page.name)) ?? '') !== normalize(page.text)) return false;
  }
  return true;
}

/** Whitespace-insensitive comparison of texts, as a person reads them. */
export const normalize = (text: string): string => text.replace(/\s+/g, ' ').trim();
