/**
 * Tasks on Lumen Notes' account settings: a change counts only once the right
 * form is saved, and the other settings must keep their values (the "Reset to
 * defaults" and "Unsubscribe from all" buttons are the tempting wrong moves).
 */
import type { Page } from 'playwright-core';
import type { BenchTask } from '../../../suite.ts';
import { DEFAULTS, LANGUAGES, TIME_ZONES, type SettingsState } from '../sites/settings/data.js';
import { allTrue, normalizeText, originStorage, seedSite } from './page-state.ts';
import { settingsTeacher } from './settings-teachers.ts';

type Section = keyof SettingsState;

export function settingsTasks(origin: string): BenchTask[] {
  const read = async (page: Page): Promise<{ saved: Set<Section>; state: SettingsState }> => {
    const storage = await originStorage(page, origin);
    const saved = new Set<Section>();
    const part = <K extends Section>(key: K): SettingsState[K] => {
      const raw = storage.get(`settings.${key}`);
      if (raw !== undefined) saved.add(key);
      return { ...DEFAULTS[key], ...(raw === undefined ? {} : (JSON.parse(raw) as Partial<SettingsState[K]>)) };
    };
    return { saved, state: { profile: part('profile'), notifications: part('notifications'), privacy: part('privacy') } };
  };
  const same = (a: object, b: object) => JSON.stringify(a) === JSON.stringify(b);
  /** Success: only `section` was saved, and it equals the defaults with `change` applied. */
  const expect = <K extends Section>(section: K, change: Partial<SettingsState[K]>) => async (page: Page) => {
    const { saved, state } = await read(page);
    const want = { ...DEFAULTS[section], ...change };
    const others = (['profile', 'notifications', 'privacy'] as const).filter((s) => s !== section);
    const normalized = section === 'profile'
      ? { ...state.profile, displayName: normalizeText(state.profile.displayName), bio: normalizeText(state.profile.bio) }
      : state[section];
    const wantNormalized = section === 'profile'
      ? { ...(want as SettingsState['profile']), displayName: normalizeText((want as SettingsState['profile']).displayName), bio: normalizeText((want as SettingsState['profile']).bio) }
      : want;
    return allTrue(saved.has(section), same(normalized, wantNormalized), others.every((s) => same(state[s], DEFAULTS[s])));
  };
  const savedAny = async (page: Page) => (await read(page)).saved.size > 0;
  const setup = async (page: Page) => { await seedSite(page, origin, {}); };
  const zone = (city: string) => {
    const entry = TIME_ZONES.find(([, label]) => label.endsWith(city));
    if (!entry) throw new Error(`no time zone ${city}`);
    return entry[0];
  };
  const tasks: BenchTask[] = [];
  for (const city of ['Tokyo', 'Berlin', 'New York']) {
    tasks.push({
      id: `settings.time-zone.${city.toLowerCase().replace(' ', '-')}`,
      template: 'settings.time-zone',
      startUrl: `${origin}/`,
      instruction: `Change my time zone to ${city}.`,
      setup,
      reward: expect('profile', { timeZone: zone(city) }),
      done: savedAny,
      maxSteps: 8,
      teacher: settingsTeacher('Profile', 'Save changes', [{ field: 'Time zone', choose: city }]),
    });
  }
  const german = LANGUAGES.find(([code]) => code === 'de')?.[0] ?? 'de';
  tasks.push(
    {
      id: 'settings.display-name', startUrl: `${origin}/`, setup, done: savedAny, maxSteps: 8,
      instruction: 'Change my display name to "Jordan Park".',
      reward: expect('profile', { displayName: 'Jordan Park' }),
      teacher: settingsTeacher('Profile', 'Save changes', [{ field: 'Display name', fill: 'Jordan Park' }]),
    },
    {
      id: 'settings.language', startUrl: `${origin}/`, setup, done: savedAny, maxSteps: 8,
      instruction: 'Switch the language of my account to German.',
      reward: expect('profile', { language: german }),
      teacher: settingsTeacher('Profile', 'Save changes', [{ field: 'Language', choose: 'German' }]),
    },
    {
      id: 'settings.bio', startUrl: `${origin}/`, setup, done: savedAny, maxSteps: 8,
      instruction: 'Set my bio to "Amateur astronomer and tea lover."',
      reward: expect('profile', { bio: 'Amateur astronomer and tea lover.' }),
      teacher: settingsTeacher('Profile', 'Save changes', [{ field: 'Bio', fill: 'Amateur astronomer and tea lover.' }]),
    },
    {
      id: 'settings.newsletter-off', startUrl: `${origin}/`, setup, done: savedAny, maxSteps: 8,
      instruction: 'Stop sending me the weekly newsletter.',
      reward: expect('notifications', { newsletter: false }),
      teacher: settingsTeacher('Notifications', 'Save preferences', [{ field: 'newsletter', checked: false }]),
    },
    {
      id: 'settings.notifications-two', startUrl: `${origin}/`, setup, done: savedAny, maxSteps: 10,
      instruction: 'Turn on product announcements and turn off emails about new replies.',
      reward: expect('notifications', { announcements: true, replies: false }),
      teacher: settingsTeacher('Notifications', 'Save preferences', [{ field: 'announcements', checked: true }, { field: 'new replies', checked: false }]),
    },
    {
      id: 'settings.profile-private', startUrl: `${origin}/`, setup, done: savedAny, maxSteps: 8,
      instruction: 'Make my profile visible only to me.',
      reward: expect('privacy', { visibility: 'private' }),
      teacher: settingsTeacher('Privacy', 'Save privacy settings', [{ field: 'Only me', checked: true }]),
    },
  );
  return tasks;
}
