/**
 * The real-shapes suite: one server-rendered site with the shapes the web has
 * and our first suite lacked — a Remove on every table row with the row's id
 * in a hidden input, identical "Add to cart" on every card, an icon-only star
 * on every message, three unlabelled fields, tabs wrapping links, a two-step
 * form on one URL. Rewards read the server's state, never the page.
 *
 * Development and test sets: `--profile dev` tunes, `--profile test` reports.
 * The test templates (inbox.star, invite, signup) were written with the
 * others but never looked at while changing a rule or a weight.
 */
import type { Page } from 'playwright-core';
import type { BenchTask, Suite, TeacherStep } from '../../suite.ts';
import { startShapesServer, type ShapesServer } from './shapes-server.ts';
import { MEMBERS, MESSAGES, NOTES, PRODUCTS, TICKETS, type ShapesState } from './shapes-state.ts';

let server: ShapesServer | null = null;

async function stateOf(origin: string): Promise<ShapesState> {
  const res = await fetch(`${origin}/__state`);
  if (!res.ok) throw new Error(`real-shapes: the state could not be read (${res.status})`);
  return (await res.json()) as ShapesState;
}
const reset = async (origin: string) => {
  const res = await fetch(`${origin}/__reset`, { method: 'POST' });
  if (!res.ok) throw new Error(`real-shapes: reset failed (${res.status})`);
};
const pathOf = (page: Page) => new URL(page.url()).pathname;
const one = (ok: boolean) => (ok ? 1 : 0);
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const q = JSON.stringify;

function task(origin: string, t: Omit<BenchTask, 'setup' | 'done' | 'reward' | 'startUrl'> & { path: string; reward(s: ShapesState): boolean }): BenchTask {
  return {
    ...t,
    startUrl: `${origin}${t.path}`,
    setup: async (page) => {
      await reset(origin);
      await page.reload();
    },
    reward: async () => one(t.reward(await stateOf(origin))),
    done: async () => (await stateOf(origin)).effects.length > 0,
  };
}

function removeTasks(origin: string): BenchTask[] {
  return ['Alan Turing', 'Grace Hopper', 'Linus Pauling'].map((name) => {
    const m = MEMBERS.find((x) => x.name === name)!;
    return task(origin, {
      id: `members.remove.${m.id}`, template: 'members.remove', path: '/members', maxSteps: 6,
      instruction: `Remove ${name} from the workspace.`,
      reward: (s) => sameList(s.effects, [`remove:${m.id}`]),
      teacher: async (page): Promise<TeacherStep | null> => {
        if (pathOf(page) === '/members/confirm') return { do: 'click', selector: '[role=dialog] button:has-text("Remove")' };
        if (new URL(page.url()).searchParams.get('removed')) return { do: 'stop' };
        return { do: 'click', selector: `tr:has(td:text-is(${q(name)})) button:has-text("Remove")` };
      },
    });
  });
}

function shopTasks(origin: string): BenchTask[] {
  return ['Teapot', 'Grinder', 'Mug'].map((title) => {
    const p = PRODUCTS.find((x) => x.title === title)!;
    return task(origin, {
      id: `shop.add.${p.sku}`, template: 'shop.add', path: '/shop', maxSteps: 4,
      instruction: `Put the ${title.toLowerCase()} in my cart.`,
      reward: (s) => sameList(s.cart, [p.sku]) && s.effects.length === 1,
      teacher: async (page): Promise<TeacherStep> => {
        if (await page.isVisible('text=Cart: 1 item(s)')) return { do: 'stop' };
        return { do: 'click', selector: `.card:has(h3:text-is(${q(title)})) button` };
      },
    });
  });
}

function starTasks(origin: string): BenchTask[] {
  return ['Ada Lovelace', 'Linus Pauling', 'Grace Hopper'].map((from) => {
    const m = MESSAGES.find((x) => x.from === from)!;
    return task(origin, {
      id: `inbox.star.${m.id}`, template: 'inbox.star', path: '/inbox', maxSteps: 4,
      instruction: `Star the message from ${from}.`,
      reward: (s) => sameList(s.effects, [`star:${m.id}`]),
      teacher: async (page): Promise<TeacherStep> => {
        const star = `li.msg:has(strong:text-is(${q(from)})) .icon-star`;
        if (await page.isVisible(`${star}.on`)) return { do: 'stop' };
        return { do: 'click', selector: star };
      },
    });
  });
}

const INVITES = [
  { name: 'Mary Jackson', email: 'mary@example.com', team: 'Research' },
  { name: 'Katherine Johnson', email: 'kj@example.com', team: 'Support' },
  { name: 'Dorothy Vaughan', email: 'dv@example.com', team: 'Design' },
];

function inviteTasks(origin: string): BenchTask[] {
  return INVITES.map((v, i) => task(origin, {
    id: `invite.${i + 1}`, template: 'invite', path: '/invite', maxSteps: 8,
    instruction: `Invite ${v.name} (${v.email}) to the ${v.team} team.`,
    reward: (s) => s.invites.length === 1 && q(s.invites[0]) === q(v),
    teacher: async (page): Promise<TeacherStep | null> => {
      if (new URL(page.url()).searchParams.get('sent')) return { do: 'stop' };
      const field = (label: string) => `.field:has(div:text-is(${q(label)})) input`;
      if ((await page.inputValue(field('Full name'))) !== v.name) return { do: 'fill', selector: field('Full name'), text: v.name };
      if ((await page.inputValue(field('Email address'))) !== v.email) return { do: 'fill', selector: field('Email address'), text: v.email };
      if ((await page.inputValue('select[name=t]')) !== v.team) return { do: 'select', selector: 'select[name=t]', option: v.team };
      return { do: 'click', selector: 'button:has-text("Send invite")' };
    },
  }));
}

function settingsTasks(origin: string): BenchTask[] {
  const make = (id: string, instruction: string, box: 'Weekly digest' | 'Comment emails', on: boolean): BenchTask => task(origin, {
    id, template: id, path: '/settings', maxSteps: 6, instruction,
    reward: (s) => s.settings.saves === 1 && s.settings.weeklyDigest === (box === 'Weekly digest' ? on : false) &&
      s.settings.commentEmails === (box === 'Comment emails' ? on : true),
    teacher: async (page): Promise<TeacherStep | null> => {
      if (new URL(page.url()).searchParams.get('saved')) return { do: 'stop' };
      if (new URL(page.url()).searchParams.get('tab') !== 'notifications') return { do: 'click', selector: 'a:text-is("Notifications")' };
      const selector = `label:has-text(${q(box)}) input`;
      if ((await page.isChecked(selector)) !== on) return { do: on ? 'check' : 'uncheck', selector };
      return { do: 'click', selector: 'button:has-text("Save")' };
    },
  });
  return [
    make('settings.digest-on', 'Turn on the weekly digest emails.', 'Weekly digest', true),
    make('settings.comments-off', 'Stop sending me comment emails.', 'Comment emails', false),
  ];
}

const SIGNUPS = [{ plan: 'Pro', company: 'Acme' }, { plan: 'Team', company: 'Globex' }, { plan: 'Free', company: 'Initech' }];

function signupTasks(origin: string): BenchTask[] {
  return SIGNUPS.map((v) => task(origin, {
    id: `signup.${v.company.toLowerCase()}`, template: 'signup', path: '/signup', maxSteps: 8,
    instruction: `Create a workspace for ${v.company} on the ${v.plan} plan.`,
    reward: (s) => s.signups.length === 1 && q(s.signups[0]) === q(v),
    teacher: async (page): Promise<TeacherStep | null> => {
      if (new URL(page.url()).searchParams.get('done')) return { do: 'stop' };
      const radio = `input[type=radio][value=${q(v.plan)}]`;
      if (!(await page.isChecked(radio))) return { do: 'check', selector: radio };
      if (await page.isHidden('#s2')) return { do: 'click', selector: '#next' };
      if ((await page.inputValue('input[name=company]')) !== v.company) return { do: 'fill', selector: 'input[name=company]', text: v.company };
      return { do: 'click', selector: 'button:has-text("Create workspace")' };
    },
  }));
}

/** A ticket opened by its id link: the task names the title, which is plain text in the id's row. */
function ticketTasks(origin: string): BenchTask[] {
  return ([['Crash when saving an empty note', 'Fixed'], ['Toolbar icons are blurry', 'Review'], ['Search ignores accented letters', 'Verified']] as const).map(([title, status]) => {
    const t = TICKETS.find((x) => x.title === title)!;
    return task(origin, {
      id: `tickets.status.${t.id}`, template: 'tickets.status', path: '/tickets', maxSteps: 6,
      instruction: `Mark ticket "${title}" as ${status}.`,
      reward: (s) => sameList(s.effects, [`ticket:${t.id}:${status}`]),
      teacher: async (page): Promise<TeacherStep | null> => {
        if (new URL(page.url()).searchParams.get('saved')) return { do: 'stop' };
        if (pathOf(page) !== `/tickets/${t.id}`) {
          if (pathOf(page) !== '/tickets') return { do: 'click', selector: 'a:text-is("Back to all tickets")' };
          return { do: 'click', selector: `tr:has(td:text-is(${q(title)})) a` };
        }
        if ((await page.inputValue('select[name=status]')) !== status) return { do: 'select', selector: 'select[name=status]', option: status };
        return { do: 'click', selector: 'button:has-text("Save")' };
      },
    });
  });
}

/** A tag added on a one-URL editor: typed, added as a chip (the box empties), then the note is saved. */
function noteTagTasks(origin: string): BenchTask[] {
  return ([['Weekend plans', 'groceries'], ['Reading list', 'novels'], ['Garden ideas', 'tomatoes']] as const).map(([title, tag]) => {
    const n = NOTES.find((x) => x.title === title)!;
    return task(origin, {
      id: `notes.tag.${n.id}`, template: 'notes.tag', path: '/notes', maxSteps: 8,
      instruction: `Tag my note "${title}" with "${tag}".`,
      reward: (s) => sameList(s.effects, [`note:${n.id}:${[...n.tags, tag].join(',')}`]),
      teacher: async (page): Promise<TeacherStep | null> => {
        if (new URL(page.url()).searchParams.get('saved')) return { do: 'stop' };
        if (pathOf(page) !== `/notes/${n.id}/edit`) {
          if (pathOf(page) !== '/notes') return { do: 'click', selector: 'a:text-is("All notes")' };
          return { do: 'click', selector: `tr:has(td:text-is(${q(title)})) a:text-is("Edit")` };
        }
        if ((await page.locator(`#chips input[value=${q(tag)}]`).count()) > 0) {
          return { do: 'click', selector: 'button:text-is("Update")' };
        }
        if ((await page.inputValue('#tag')) !== tag) return { do: 'fill', selector: '#tag', text: tag };
        return { do: 'click', selector: '#add' };
      },
    });
  });
}

const DEV = ['members.remove.7', 'members.remove.9', 'members.remove.12', 'shop.add.teapot', 'shop.add.grinder', 'shop.add.mug', 'settings.digest-on', 'settings.comments-off',
  'tickets.status.0ba033313b', 'tickets.status.5e21c0d7aa', 'tickets.status.91f4b2e6c3', 'notes.tag.21', 'notes.tag.22', 'notes.tag.23'];
const TEST = ['inbox.star.1', 'inbox.star.2', 'inbox.star.3', 'invite.1', 'invite.2', 'invite.3', 'signup.acme', 'signup.globex', 'signup.initech'];

const suite: Suite = {
  name: 'real-shapes',
  async start() {
    server ??= await startShapesServer();
    return { baseUrl: server.origin };
  },
  async stop() {
    await server?.close();
    server = null;
  },
  tasks: () => {
    if (!server) throw new Error('real-shapes: start() must run before tasks()');
    const o = server.origin;
    const all = [...removeTasks(o), ...shopTasks(o), ...settingsTasks(o), ...starTasks(o), ...inviteTasks(o), ...signupTasks(o), ...ticketTasks(o), ...noteTagTasks(o)];
    return all.map((t) => (TEST.includes(t.id) ? { ...t, set: 'test' as const } : t));
  },
  profiles: {
    dev: DEV,
    test: TEST,
    // CI-sized: one template of each set.
    quick: ['members.remove.7', 'members.remove.9', 'invite.1', 'invite.2'],
  },
};

export default suite;
