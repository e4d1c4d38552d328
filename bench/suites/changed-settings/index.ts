/**
 * The changed-site check (issue 25): the suite's settings site, changed at
 * serve time the way a redesign changes a site — the profile form's save
 * button is renamed ("Save changes" → "Update profile") and the "Time zone"
 * field moves to the top of the form. The first attempt of each task and the
 * first instance of each template run on the site as shipped (that is where
 * a procedure is learned); every later one runs on the changed site. Replay
 * must stop at the changed step, act on no wrong element, and succeed as
 * often as without replay:
 *
 *   npm run bench -- --suite bench/suites/changed-settings/index.ts --learners <ids>,<ids>+replay --attempts 3
 *   npm run bench -- --suite bench/suites/changed-settings/index.ts --learners <ids>,<ids>+replay --attempts 1 --memory carry
 *
 * with <ids> the learners that replay builds procedures from (registry ids joined
 * by "+"; docs/replay.md gives the published command).
 */
import { extname, resolve } from 'node:path';
import { startStaticServer, type StaticServer } from '../../../test/support/static-server.ts';
import type { BenchTask, Suite } from '../../suite.ts';
import { settingsTasks } from '../apprentice-sites/tasks/settings-tasks.ts';

const SITES_DIR = resolve(import.meta.dirname, '../apprentice-sites/sites');
const SAVE = "}, 'Save changes'),";
const TIME_ZONE_ROW = "    h('div', { class: 'row' }, h('label', { for: 'time-zone' }, 'Time zone'), tz),\n";
const NAME_ROW = "    h('div', { class: 'row' }, h('label', { for: 'display-name' }, 'Display name'), name),\n";

/** The changed profile form; throws when the shipped site no longer has what it changes (the check would measure nothing). */
export function changeSettingsApp(source: string): string {
  if (!source.includes(SAVE) || !source.includes(TIME_ZONE_ROW) || !source.includes(NAME_ROW)) {
    throw new Error('changed-settings: the shipped settings app changed; update the changes this check makes');
  }
  return source.replace(SAVE, "}, 'Update profile'),").replace(TIME_ZONE_ROW, '').replace(NAME_ROW, TIME_ZONE_ROW + NAME_ROW);
}

let server: StaticServer | null = null;
let changed = false;

const PROFILE_TASKS = ['settings.time-zone.tokyo', 'settings.time-zone.berlin', 'settings.time-zone.new-york', 'settings.display-name', 'settings.language', 'settings.bio'];

const suite: Suite = {
  name: 'changed-settings',
  async start() {
    server ??= await startStaticServer(SITES_DIR, {
      rewrite: (path) => (path.startsWith('/common/') ? path : `/settings${path}`),
      fallback: (path) => (extname(path) === '' || extname(path) === '.html' ? '/settings/index.html' : null),
      transform: (file, body) => (changed && file.endsWith('/settings/app.js') ? changeSettingsApp(body) : body),
    });
    return { baseUrl: server.origin };
  },
  async stop() {
    await server?.close();
    server = null;
  },
  tasks: () => {
    if (!server) throw new Error('changed-settings: start() must run before tasks()');
    const seen = new Set<string>();
    return settingsTasks(server.origin).filter((t) => PROFILE_TASKS.includes(t.id)).map((t): BenchTask => {
      const first = !seen.has(t.template ?? t.id);
      seen.add(t.template ?? t.id);
      return {
        ...t,
        setup: async (page, ctx) => {
          // app.js is served without caching on every navigation, so the flag holds from this attempt on.
          changed = ctx.attempt > 1 || !first;
          return t.setup?.(page, ctx);
        },
      };
    });
  },
};

export default suite;
