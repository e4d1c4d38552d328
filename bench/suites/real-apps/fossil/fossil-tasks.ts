/**
 * The Fossil task templates, several instances each, drawn from the seed.
 * Rewards read the live repository through the CLI (fossil-state.ts): 1 only
 * for exactly the requested change, everything else as seeded. The templates
 * in TEST_TEMPLATES are the frozen test set (docs/benchmarks.md).
 */
import type { Page } from 'playwright-core';
import * as z from 'zod';
import type { BenchTask } from '../../../suite.ts';
import { allTrue, readAnswer } from '../../apprentice-sites/tasks/page-state.ts';
import { queryRows, restoreRepository, type FossilRepo } from './fossil-app.ts';
import { TICKETS, WIKI_PAGES } from './fossil-seed.ts';
import { normalize, otherPagesUnchanged, othersUnchanged, remarks, ticketIs, tickets, wikiNames, wikiText } from './fossil-state.ts';
import { appendWikiTeacher, newTicketTeacher, newWikiPageTeacher, ticketEditTeacher, wikiSearchTeacher, type TicketChange } from './fossil-teachers.ts';

/** Never tuned on: their figures are printed apart from the development templates'. */
export const TEST_TEMPLATES: readonly string[] = ['fossil.ticket-comment', 'fossil.ticket-close', 'fossil.wiki-append'];

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const Count = z.object({ n: z.number() });
const count = async (repo: FossilRepo, sql: string): Promise<number> => (await queryRows(repo, sql, Count))[0]?.n ?? 0;
/** Something was saved: a ticket change or a wiki version beyond the seed's. */
const ticketSaved = async (repo: FossilRepo): Promise<boolean> => (await count(repo, 'SELECT count(*) AS n FROM ticketchng')) > TICKETS.length;
const wikiSaved = async (repo: FossilRepo): Promise<boolean> =>
  (await count(repo, "SELECT count(*) AS n FROM tagxref JOIN tag USING(tagid) WHERE tagname GLOB 'wiki-*'")) > WIKI_PAGES.length;

function seedText(name: string): string {
  const page = WIKI_PAGES.find((p) => p.name === name);
  if (!page) throw new Error(`no seeded wiki page ${name}`);
  return page.text;
}

interface Template { template: string; maxSteps: number; start: string; instances: Omit<BenchTask, 'startUrl' | 'template' | 'maxSteps' | 'setup'>[] }

function ticketTemplates(repo: FossilRepo): Template[] {
  const edit = (id: string, title: string, instruction: string, change: TicketChange): Template['instances'][number] => ({
    id, instruction,
    reward: async () => {
      const rows = await tickets(repo);
      const { remark, ...fields } = change;
      const notes = await remarks(repo, title);
      const remarkOk = remark === undefined ? notes.length === 0 : notes.length === 1 && normalize(notes[0]!) === normalize(remark);
      return allTrue(othersUnchanged(rows, title), ticketIs(rows, title, fields), remarkOk);
    },
    done: () => ticketSaved(repo),
    teacher: ticketEditTeacher(title, change),
  });
  const statuses: [string, string][] = [['Crash when saving an empty note', 'Fixed'], ['Toolbar icons are blurry', 'Review'], ['Search ignores accented letters', 'Verified']];
  const severities: [string, string][] = [['Dark theme for the editor', 'Cosmetic'], ['Sync stalls on large notebooks', 'Critical'], ['Typo in the install guide', 'Minor']];
  const comments: [string, string][] = [
    ['Build fails with newer zlib', 'Confirmed on Debian 12 with zlib 1.3.'],
    ['Export notes to PDF', 'A print stylesheet might be enough for now.'],
    ['Shortcut list is out of date', 'Ctrl+N is listed twice as well.'],
  ];
  const closes: [string, string, string][] = [['Dark theme for the editor', 'Rejected', 'rejected'], ['Toolbar icons are blurry', 'Duplicate', 'a duplicate'], ['Typo in the install guide', 'Not_A_Bug', 'not a bug']];
  const creates: [string, string, string][] = [
    ['Import notes from Markdown files', 'Feature_Request', 'feature request'],
    ['Help page links are broken', 'Documentation', 'documentation'],
    ['App freezes when pasting images', 'Code_Defect', 'code defect'],
  ];
  return [
    { template: 'fossil.ticket-status', maxSteps: 10, start: '/home', instances: statuses.map(([title, status]) =>
      edit(`fossil.ticket-status.${slug(title)}`, title, `Set the status of the ticket "${title}" to ${status}.`, { status })) },
    { template: 'fossil.ticket-severity', maxSteps: 10, start: '/home', instances: severities.map(([title, severity]) =>
      edit(`fossil.ticket-severity.${slug(title)}`, title, `Change the severity of the ticket "${title}" to ${severity}.`, { severity })) },
    { template: 'fossil.ticket-comment', maxSteps: 10, start: '/home', instances: comments.map(([title, remark]) =>
      edit(`fossil.ticket-comment.${slug(title)}`, title, `Add the comment "${remark}" to the ticket "${title}".`, { remark })) },
    { template: 'fossil.ticket-close', maxSteps: 12, start: '/home', instances: closes.map(([title, resolution, said]) =>
      edit(`fossil.ticket-close.${slug(title)}`, title, `Close the ticket "${title}" as ${said}.`, { status: 'Closed', resolution })) },
    { template: 'fossil.ticket-new', maxSteps: 10, start: '/home', instances: creates.map(([title, type, said]) => ({
      id: `fossil.ticket-new.${slug(title)}`,
      instruction: `File a new ${said} ticket titled "${title}".`,
      reward: async () => {
        const rows = await tickets(repo);
        const mine = rows.filter((r) => r.title === title);
        return allTrue(othersUnchanged(rows, null, 1), mine.length === 1, mine[0]?.type === type);
      },
      done: () => ticketSaved(repo),
      teacher: newTicketTeacher(title, type),
    })) },
  ];
}

function wikiTemplates(repo: FossilRepo): Template[] {
  const creates: [string, string][] = [
    ['Release Checklist', 'Tag the trunk, build the packages and update the news page.'],
    ['Meeting Notes', 'We agreed to ship encrypted notebooks in the next release.'],
    ['Troubleshooting', 'If sync stalls, restart the app and check the server log.'],
  ];
  const appends: [string, string][] = [
    ['Coding Style', 'Every public function needs a comment.'],
    ['Roadmap', 'Someday: a web clipper.'],
    ['Contributors', 'Patches are reviewed within a week.'],
  ];
  const searches: [string, string][] = [['tombstone', 'Sync Protocol'], ['zlib', 'Build Instructions'], ['companion', 'Roadmap']];
  return [
    { template: 'fossil.wiki-create', maxSteps: 10, start: '/home', instances: creates.map(([name, text]) => ({
      id: `fossil.wiki-create.${slug(name)}`,
      instruction: `Create a wiki page called "${name}" with the text "${text}"`,
      reward: async () => allTrue(normalize((await wikiText(repo, name)) ?? '') === normalize(text), await otherPagesUnchanged(repo, name, 1)),
      done: () => wikiSaved(repo),
      teacher: newWikiPageTeacher(name, text),
    })) },
    { template: 'fossil.wiki-append', maxSteps: 10, start: '/home', instances: appends.map(([name, sentence]) => ({
      id: `fossil.wiki-append.${slug(name)}`,
      instruction: `Add the sentence "${sentence}" at the end of the wiki page "${name}".`,
      reward: async () => allTrue(normalize((await wikiText(repo, name)) ?? '') === normalize(`${seedText(name)} ${sentence}`), await otherPagesUnchanged(repo, name)),
      done: () => wikiSaved(repo),
      teacher: appendWikiTeacher(name, seedText(name), sentence),
    })) },
    { template: 'fossil.wiki-search', maxSteps: 8, start: '/home', instances: searches.map(([word, pageName]) => ({
      id: `fossil.wiki-search.${word}`,
      instruction: `Which wiki page mentions "${word}"? Tell me its name.`,
      reward: async (page: Page) => {
        // The truth is read from the repository: the one page whose text has the word.
        const names = await wikiNames(repo);
        const having: string[] = [];
        for (const n of names) if (((await wikiText(repo, n)) ?? '').toLowerCase().includes(word)) having.push(n);
        if (having.length !== 1) throw new Error(`fossil.wiki-search.${word}: ${having.length} pages mention the word; the seed promised one`);
        return allTrue(normalize(await readAnswer(page) ?? '').toLowerCase().includes(having[0]!.toLowerCase()));
      },
      teacher: wikiSearchTeacher(word, pageName),
    })) },
  ];
}

/** Every Fossil task; setup restores the seeded repository and reloads the start page. */
export function fossilTasks(repo: FossilRepo, baseUrl: string): BenchTask[] {
  return [...ticketTemplates(repo), ...wikiTemplates(repo)].flatMap((t) => t.instances.map((instance) => ({
    ...instance,
    template: t.template,
    startUrl: `${baseUrl}${t.start}`,
    maxSteps: t.maxSteps,
    ...(TEST_TEMPLATES.includes(t.template) ? { set: 'test' as const } : { set: 'development' as const }),
    async setup(page: Page) {
      await restoreRepository(repo);
      await page.goto(`${baseUrl}${t.start}`);
    },
  })));
}
