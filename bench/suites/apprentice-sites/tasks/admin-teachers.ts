/** Teachers for the back office's tasks: a person finding a customer or an order and acting on it. */
import type { Page } from 'playwright-core';
import type { TeacherContext, TeacherStep } from '../../../suite.ts';
import { firstRule, holding, hashNumber, onPath, role, seeing, selectedLabel, sees, textOf, valueIn, when, type Rule } from './person.ts';

const CUSTOMER_SEARCH = role('searchbox', 'Search customers');

/** Edits one customer: Customers → search their name → Edit → change → Save customer. */
export function customerEditTeacher(name: string, change: { group?: string; email?: string }) {
  return firstRule(
    when(onPath(/^\/customer\/edit\//), async (page: Page): Promise<TeacherStep> => {
      if (change.group && (await selectedLabel(page, role('combobox', 'Customer group'))) !== change.group) {
        return { do: 'select', selector: role('combobox', 'Customer group'), option: change.group };
      }
      if (change.email && (await valueIn(page, role('textbox', 'Email'))) !== change.email) return { do: 'fill', selector: role('textbox', 'Email'), text: change.email };
      return { do: 'click', selector: role('button', 'Save customer') };
    }),
    when(async (page) => (await onPath(/^\/customers$/)(page)) && (await valueIn(page, CUSTOMER_SEARCH)) === name && new URL(page.url()).searchParams.get('q') === name,
      { do: 'click', selector: `${holding('tr', role('link', name))} >> ${role('link', 'Edit')}` }),
    when(async (page) => (await sees(page, CUSTOMER_SEARCH)) && (await valueIn(page, CUSTOMER_SEARCH)) !== name, { do: 'fill', selector: CUSTOMER_SEARCH, text: name }),
    when(seeing(CUSTOMER_SEARCH), { do: 'click', selector: role('button', 'Search') }),
    when(seeing(role('link', 'Customers')), { do: 'click', selector: role('link', 'Customers') }),
  );
}

/** On the orders list: the order's row when on this page, else the next page; from elsewhere, the Orders link. */
function findOrder(onRow: (page: Page, id: string) => Promise<TeacherStep>): Rule[] {
  const idOf = (ctx: TeacherContext) => hashNumber(ctx.instruction) ?? '';
  return [
    when(async (page, ctx) => (await onPath(/^\/orders$/)(page)) && (await sees(page, role('link', `#${idOf(ctx)}`))), (page, ctx) => onRow(page, idOf(ctx))),
    when(async (page) => (await onPath(/^\/orders$/)(page)) && (await sees(page, role('link', 'Next page'))), { do: 'click', selector: role('link', 'Next page') }),
    when(async (page) => !(await onPath(/^\/orders$/)(page)) && (await sees(page, role('link', 'Orders'))), { do: 'click', selector: role('link', 'Orders') }),
  ];
}

/** Reads the order's status in its row of the list. */
export const orderStatusTeacher = (statuses: readonly string[]) => firstRule(...findOrder(async (page, id) => {
  const row = await textOf(page, holding('tr', role('link', `#${id}`)));
  const said = statuses.find((s) => new RegExp(`\\b${s}\\b`).test(row));
  return said ? { do: 'answer', text: said } : { do: 'stop' };
}));

/** Opens the order, then presses the button (and confirms when a dialog asks). */
export const orderActionTeacher = (button: string, confirm?: string) => firstRule(
  ...(confirm ? [when(seeing(role('button', confirm)), { do: 'click', selector: role('button', confirm) })] : []),
  when(seeing(role('button', button)), { do: 'click', selector: role('button', button) }),
  ...findOrder(async (_page, id) => ({ do: 'click', selector: role('link', `#${id}`) })),
);

/** Filters the orders by status and reads the count the list shows. */
export const countStatusTeacher = (status: string) => firstRule(
  when(async (page) => (await onPath(/^\/orders$/)(page)) && new URL(page.url()).searchParams.get('status') === status, async (page: Page): Promise<TeacherStep> => {
    const count = /of (\d+) orders/.exec(await textOf(page, 'text=/^Showing /'))?.[1] ?? (await sees(page, 'text=No orders match') ? '0' : null);
    return count === null ? { do: 'stop' } : { do: 'answer', text: count };
  }),
  when(async (page) => (await onPath(/^\/orders$/)(page)) && (await selectedLabel(page, role('combobox', 'Status'))) !== status,
    { do: 'select', selector: role('combobox', 'Status'), option: status }),
  when(onPath(/^\/orders$/), { do: 'click', selector: role('button', 'Apply filters') }),
  when(seeing(role('link', 'Orders')), { do: 'click', selector: role('link', 'Orders') }),
);
