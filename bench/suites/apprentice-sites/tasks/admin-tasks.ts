/**
 * Tasks on the Backoffice admin panel: edits behind a search (two customers
 * share a first name), order actions with a confirmation step, and questions
 * answered from a filtered, paginated grid. Order ids depend on the seed, so
 * `setup` returns the instruction.
 */
import type { Page } from 'playwright-core';
import type { BenchTask, TaskContext } from '../../../suite.ts';
import { CUSTOMERS, STATUSES, makeOrders, type Customer, type Order } from '../sites/admin/data.js';
import { allTrue, numbersIn, readAnswer, readJson, seedSite } from './page-state.ts';
import { countStatusTeacher, customerEditTeacher, orderActionTeacher, orderStatusTeacher } from './admin-teachers.ts';

type Edits = Record<string, Partial<Customer>>;

function customer(name: string): Customer {
  const c = CUSTOMERS.find((x) => x.name === name);
  if (!c) throw new Error(`no customer ${name}`);
  return c;
}

/** Orders a task refers to, chosen from the seed's data so every seed has a valid instance. */
function openOrders(seed: number): Order[] {
  return makeOrders(seed).filter((o) => o.status === 'Pending' || o.status === 'Processing');
}
function pick<T>(list: T[], index: number): T {
  const item = list[index % list.length];
  if (item === undefined) throw new Error('nothing to pick from');
  return item;
}

export function adminTasks(origin: string): BenchTask[] {
  const seedSiteFor = async (page: Page, ctx: TaskContext) => seedSite(page, origin, { 'admin.seed': ctx.seed });
  const siteSeed = (page: Page) => readJson<number>(page, origin, 'admin.seed', 1);
  const edits = (page: Page) => readJson<Edits>(page, origin, 'admin.customerEdits', {});
  const deleted = (page: Page) => readJson<number[]>(page, origin, 'admin.deleted', []);
  const statusChanges = (page: Page) => readJson<Record<string, string>>(page, origin, 'admin.orderStatus', {});
  const anyCustomerChange = async (page: Page) => Object.keys(await edits(page)).length > 0 || (await deleted(page)).length > 0;
  const anyStatusChange = async (page: Page) => Object.keys(await statusChanges(page)).length > 0;
  /** Only customer `c` was saved, with `change` applied and nothing else altered. */
  const customerIs = (c: Customer, change: Partial<Customer>) => async (page: Page) => {
    const all = await edits(page);
    const mine = all[String(c.id)];
    const want = { ...c, ...change };
    const fieldsOk = mine !== undefined && (['name', 'email', 'phone', 'group', 'newsletter'] as const).every((k) => mine[k] === want[k]);
    return allTrue(Object.keys(all).length === 1, fieldsOk, (await deleted(page)).length === 0);
  };
  const tasks: BenchTask[] = [];

  const groups: [string, string][] = [['Priya Natarajan', 'Wholesale'], ['Hannah Becker', 'Retailer'], ['Tomás Ortega', 'VIP']];
  for (const [name, group] of groups) {
    const c = customer(name);
    tasks.push({
      id: `admin.customer-group.${c.id}`,
      template: 'admin.customer-group',
      startUrl: `${origin}/`,
      instruction: `Change the customer group of ${name} to ${group}.`,
      setup: seedSiteFor,
      reward: customerIs(c, { group }),
      done: anyCustomerChange,
      maxSteps: 10,
      teacher: customerEditTeacher(name, { group }),
    });
  }
  const omar = customer('Omar Haddad');
  tasks.push({
    id: 'admin.customer-email',
    startUrl: `${origin}/`,
    instruction: 'Change the email address of Omar Haddad to "omar.haddad@example.org".',
    setup: seedSiteFor,
    reward: customerIs(omar, { email: 'omar.haddad@example.org' }),
    done: anyCustomerChange,
    maxSteps: 10,
    teacher: customerEditTeacher('Omar Haddad', { email: 'omar.haddad@example.org' }),
  });
  // Status questions ×2.
  for (const k of [0, 1]) {
    const order = (seed: number) => pick(makeOrders(seed), 4 + seed * 5 + k * 13);
    tasks.push({
      id: `admin.order-status.${k + 1}`,
      template: 'admin.order-status',
      startUrl: `${origin}/`,
      setup: async (page, ctx) => {
        await seedSiteFor(page, ctx);
        return `What is the status of order #${order(ctx.seed).id}?`;
      },
      reward: async (page) => {
        const answer = (await readAnswer(page)) ?? '';
        const said = STATUSES.filter((s) => new RegExp(`\\b${s}\\b`, 'i').test(answer));
        return allTrue(said.length === 1 && said[0] === order(await siteSeed(page)).status);
      },
      maxSteps: 8,
      teacher: orderStatusTeacher(STATUSES),
    });
  }
  tasks.push({
    id: 'admin.count-pending',
    startUrl: `${origin}/`,
    instruction: 'How many orders have the status Pending? Tell me the number.',
    setup: seedSiteFor,
    reward: async (page) => {
      const want = makeOrders(await siteSeed(page)).filter((o) => o.status === 'Pending').length;
      return allTrue(numbersIn((await readAnswer(page)) ?? '')[0] === want);
    },
    maxSteps: 8,
    teacher: countStatusTeacher('Pending'),
  });
  // Order actions: ship ×2 and cancel (with its confirmation dialog).
  const actions: [string, number, string, string][] = [
    ['admin.ship-order.1', 0, 'Shipped', 'Mark order #{id} as shipped.'],
    ['admin.ship-order.2', 1, 'Shipped', 'Mark order #{id} as shipped.'],
    ['admin.cancel-order', 2, 'Cancelled', 'Cancel order #{id}.'],
  ];
  for (const [id, index, status, text] of actions) {
    const target = (seed: number) => pick(openOrders(seed), index + seed);
    tasks.push({
      id,
      ...(status === 'Shipped' ? { template: 'admin.ship-order' } : {}),
      startUrl: `${origin}/`,
      setup: async (page, ctx) => {
        await seedSiteFor(page, ctx);
        return text.replace('{id}', String(target(ctx.seed).id));
      },
      reward: async (page) => {
        const changes = await statusChanges(page);
        const order = target(await siteSeed(page));
        return allTrue(Object.keys(changes).length === 1, changes[String(order.id)] === status);
      },
      done: anyStatusChange,
      maxSteps: 10,
      teacher: status === 'Shipped' ? orderActionTeacher('Mark as shipped') : orderActionTeacher('Cancel order', 'Yes, cancel the order'),
    });
  }
  return tasks;
}
