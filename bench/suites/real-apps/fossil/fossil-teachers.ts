/**
 * Teachers of the Fossil tasks: rules over what is on screen (menu links by
 * name, a report row by the ticket's title, form fields by their `name`
 * attribute because Fossil's fields have no labels), first match wins. Each
 * leads back from a wrong page (another ticket, another wiki page) through
 * the main menu. Values come from the task's data, never from the agent.
 */
import type { Page } from 'playwright-core';
import type { TeacherStep } from '../../../suite.ts';
import { firstRule, pathOf, role, sees, selectedLabel, valueIn, when, type Rule } from '../../apprentice-sites/tasks/person.ts';
import { normalize } from './fossil-state.ts';

const TICKETS_LINK: TeacherStep = { do: 'click', selector: role('link', 'Tickets') };
const WIKI_LINK: TeacherStep = { do: 'click', selector: role('link', 'Wiki') };
const PREVIEW: TeacherStep = { do: 'click', selector: role('button', 'Preview') };
const SUBMIT = role('button', 'Submit');
const EDITOR = 'textarea';
const on = (re: RegExp) => async (page: Page): Promise<boolean> => re.test(pathOf(page));
const cssText = (text: string): string => JSON.stringify(text);

/** The value next to a "Label:" cell of a ticket's view ('' when absent). */
async function viewField(page: Page, label: string): Promise<string> {
  return page.evaluate((l) => {
    const cell = [...document.querySelectorAll('td')].find((td) => td.textContent?.trim() === `${l}:`);
    return cell?.nextElementSibling?.textContent?.trim() ?? '';
  }, label);
}

const bodyText = (page: Page): Promise<string> => page.locator('body').innerText().catch(() => '');
const wikiName = (page: Page): string | null => new URL(page.url()).searchParams.get('name');

/** From anywhere to the view of the ticket with this title: Tickets → Reports → All Tickets → the row's link. */
function toTicket(title: string): Rule[] {
  return [
    when(on(/^\/rptview/), async (page) => ((await sees(page, `tr:has-text(${cssText(title)})`))
      ? { do: 'click', selector: `tr:has-text(${cssText(title)}) >> role=link`, nth: 0 }
      : TICKETS_LINK)),
    when(on(/^\/reportlist$/), { do: 'click', selector: role('link', 'All Tickets') }),
    // With ticket search on, /ticket is a search form; its submenu leads to the reports.
    when(on(/^\/ticket$/), { do: 'click', selector: role('link', 'Reports') }),
    async () => TICKETS_LINK,
  ];
}

export interface TicketChange { status?: string; severity?: string; resolution?: string; remark?: string }

/** Edit a ticket's fields and/or append a remark: Edit → fields → Preview → Submit. */
export function ticketEditTeacher(title: string, change: TicketChange) {
  const fields = (['status', 'severity', 'resolution'] as const).filter((f) => change[f] !== undefined);
  const shown = async (page: Page): Promise<boolean> => {
    for (const f of fields) if ((await viewField(page, f[0]!.toUpperCase() + f.slice(1))) !== change[f]) return false;
    return change.remark === undefined || normalize(await bodyText(page)).includes(normalize(change.remark));
  };
  const editing = async (page: Page): Promise<TeacherStep> => {
    for (const f of fields) {
      if ((await selectedLabel(page, `select[name=${f}]`)) !== change[f]) return { do: 'select', selector: `select[name=${f}]`, option: change[f]! };
    }
    if (change.remark !== undefined && normalize(await valueIn(page, 'textarea[name=icomment]')) !== normalize(change.remark)) {
      return { do: 'fill', selector: 'textarea[name=icomment]', text: change.remark };
    }
    return (await sees(page, SUBMIT)) ? { do: 'click', selector: SUBMIT } : PREVIEW;
  };
  return firstRule(
    when(on(/^\/tktview/), async (page) => ((await viewField(page, 'Title')) !== title ? TICKETS_LINK
      : (await shown(page)) ? { do: 'stop' } : { do: 'click', selector: role('link', 'Edit') })),
    when(on(/^\/tktedit/), async (page) => ((await valueIn(page, 'input[name=title]')) !== title ? TICKETS_LINK : editing(page))),
    ...toTicket(title),
  );
}

/** File a new ticket with a title and a type: Tickets → New → fields → Preview → Submit. */
export function newTicketTeacher(title: string, type: string) {
  return firstRule(
    when(on(/^\/tktview/), async (page) => ((await viewField(page, 'Title')) === title ? { do: 'stop' } : TICKETS_LINK)),
    when(on(/^\/tktnew/), async (page): Promise<TeacherStep> => {
      if ((await valueIn(page, 'input[name=title]')) !== title) return { do: 'fill', selector: 'input[name=title]', text: title };
      if ((await selectedLabel(page, 'select[name=type]')) !== type) return { do: 'select', selector: 'select[name=type]', option: type };
      return (await sees(page, SUBMIT)) ? { do: 'click', selector: SUBMIT } : PREVIEW;
    }),
    when(on(/^\/(ticket|reportlist)$/), { do: 'click', selector: role('link', 'New') }),
    async () => TICKETS_LINK,
  );
}

/** In the wiki editor of `name`: put `text` in, then Save; stop once saved. */
function editorRule(name: string, text: string): Rule {
  return when(on(/^\/wikiedit/), async (page): Promise<TeacherStep> => {
    if (wikiName(page) !== name) return WIKI_LINK;
    if (normalize(await valueIn(page, EDITOR)) !== normalize(text)) return { do: 'fill', selector: EDITOR, text };
    return (await sees(page, 'text=/Saved page/')) ? { do: 'stop' } : { do: 'click', selector: role('button', 'Save') };
  });
}

/** The view of the page `name`: stop when it shows `expect`, else Edit; another page: back to the wiki. */
function pageViewRule(name: string, expect: string): Rule {
  return when(async (page) => pathOf(page) === '/wiki' && wikiName(page) !== null, async (page): Promise<TeacherStep> => {
    if (wikiName(page) !== name) return WIKI_LINK;
    return normalize(await bodyText(page)).includes(normalize(expect)) ? { do: 'stop' } : { do: 'click', selector: role('link', 'Edit') };
  });
}

/** Create a wiki page: Wiki → List → New → name → Create → text → Save. */
export function newWikiPageTeacher(name: string, text: string) {
  return firstRule(
    editorRule(name, text),
    pageViewRule(name, text),
    when(on(/^\/wikinew/), async (page): Promise<TeacherStep> => ((await valueIn(page, 'input[name=name]')) !== name
      ? { do: 'fill', selector: 'input[name=name]', text: name }
      : { do: 'click', selector: role('button', 'Create') })),
    when(on(/^\/wcontent/), { do: 'click', selector: role('link', 'New') }),
    when(on(/^\/wiki$/), { do: 'click', selector: role('link', 'List') }),
    async () => WIKI_LINK,
  );
}

/** Add a sentence at the end of a wiki page: Wiki → List → the page → Edit → text + sentence → Save. */
export function appendWikiTeacher(name: string, original: string, sentence: string) {
  return firstRule(
    editorRule(name, `${original.trimEnd()}\n\n${sentence}`),
    pageViewRule(name, sentence),
    when(on(/^\/wcontent/), { do: 'click', selector: role('link', name) }),
    when(on(/^\/wiki$/), { do: 'click', selector: role('link', 'List') }),
    async () => WIKI_LINK,
  );
}

/** Which wiki page mentions a word: Wiki → search box → Search Wiki → answer with the page's name. */
export function wikiSearchTeacher(word: string, pageName: string) {
  return firstRule(
    when(on(/^\/wiki$/), async (page): Promise<TeacherStep> => {
      const viewing = wikiName(page);
      if (viewing !== null) return viewing === pageName ? { do: 'answer', text: pageName } : WIKI_LINK;
      if (await sees(page, role('link', `Wiki: ${pageName}`))) return { do: 'answer', text: pageName };
      if ((await valueIn(page, 'input[name=s]')) !== word) return { do: 'fill', selector: 'input[name=s]', text: word };
      return { do: 'click', selector: role('button', 'Search Wiki') };
    }),
    async () => WIKI_LINK,
  );
}
