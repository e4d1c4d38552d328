/**
 * What the suite's teachers use to read a page as a person does: what is on
 * screen, by role and accessible name or label (never by id or class), and
 * the path of the current page. A teacher is a list of rules, in order: the
 * first whose situation holds says the next step (`firstRule`). The values
 * come from the task's own instruction and data, never from the agent.
 */
import type { Page } from 'playwright-core';
import type { TeacherContext, TeacherStep } from '../../../suite.ts';

const quoted = (name: string): string => `"${name.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** A Playwright role selector with an exact, case-sensitive name. */
export const role = (kind: string, name: string): string => `role=${kind}[name=${quoted(name)} s]`;
/** A role selector whose name contains `part` (case-insensitive). */
export const roleContaining = (kind: string, part: string): string => `role=${kind}[name=/${part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/i]`;
/** The elements matching `outer` that hold an element matching `inner` (a row, a card). */
export const holding = (outer: string, inner: string): string => `${outer} >> internal:has=${JSON.stringify(inner)}`;

export const pathOf = (page: Page): string => new URL(page.url()).pathname.replace(/\/+$/, '') || '/';

/** Whether an element matching the selector is on screen. */
export async function sees(page: Page, selector: string): Promise<boolean> {
  const first = page.locator(selector).first();
  return (await first.count()) > 0 && (await first.isVisible().catch(() => false));
}

/** The value a field holds now ('' when there is no such field). */
export async function valueIn(page: Page, selector: string): Promise<string> {
  const first = page.locator(selector).first();
  return (await first.count()) > 0 ? await first.inputValue().catch(() => '') : '';
}

export async function isChecked(page: Page, selector: string): Promise<boolean> {
  const first = page.locator(selector).first();
  return (await first.count()) > 0 && (await first.isChecked().catch(() => false));
}

/** The visible text of the first match ('' when none). */
export async function textOf(page: Page, selector: string): Promise<string> {
  const first = page.locator(selector).first();
  return (await first.count()) > 0 ? ((await first.innerText().catch(() => '')) ?? '') : '';
}

/** The label of the selected option of a drop-down ('' when none). */
export async function selectedLabel(page: Page, selector: string): Promise<string> {
  const first = page.locator(selector).first();
  if ((await first.count()) === 0) return '';
  return first.evaluate((el) => (el instanceof HTMLSelectElement ? el.selectedOptions[0]?.textContent?.trim() ?? '' : ''));
}

/** The option labels of a drop-down, as a person reads them. */
export async function optionLabels(page: Page, selector: string): Promise<string[]> {
  const first = page.locator(selector).first();
  if ((await first.count()) === 0) return [];
  return first.evaluate((el) => (el instanceof HTMLSelectElement ? [...el.options].map((o) => o.textContent?.trim() ?? '') : []));
}

export type Rule = (page: Page, ctx: TeacherContext) => Promise<TeacherStep | null | undefined>;

/** The first rule with an opinion gives the step; when none has one, the teacher stops. */
export function firstRule(...rules: Rule[]) {
  return async (page: Page, ctx: TeacherContext): Promise<TeacherStep | null> => {
    for (const rule of rules) {
      const step = await rule(page, ctx);
      if (step !== undefined) return step;
    }
    return { do: 'stop' };
  };
}

/** A rule: when `when` holds, `then`. */
export const when = (cond: (page: Page, ctx: TeacherContext) => Promise<boolean>, then: TeacherStep | ((page: Page, ctx: TeacherContext) => Promise<TeacherStep>)): Rule =>
  async (page, ctx) => ((await cond(page, ctx)) ? (typeof then === 'function' ? then(page, ctx) : then) : undefined);

export const onPath = (re: RegExp) => async (page: Page): Promise<boolean> => re.test(pathOf(page));
export const seeing = (selector: string) => (page: Page): Promise<boolean> => sees(page, selector);
/** The task's own number after "#" in the instruction ("order #1042"). */
export const hashNumber = (instruction: string): string | null => /#(\d+)/.exec(instruction)?.[1] ?? null;
