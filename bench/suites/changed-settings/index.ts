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
import { changedSiteSuite } from '../changed-site.ts';
import { settingsTasks } from '../apprentice-sites/tasks/settings-tasks.ts';

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

const PROFILE_TASKS = ['settings.time-zone.tokyo', 'settings.time-zone.berlin', 'settings.time-zone.new-york', 'settings.display-name', 'settings.language', 'settings.bio'];

export default changedSiteSuite({
  name: 'changed-settings',
  site: 'settings',
  change: changeSettingsApp,
  tasks: (origin) => settingsTasks(origin).filter((t) => PROFILE_TASKS.includes(t.id)),
});
