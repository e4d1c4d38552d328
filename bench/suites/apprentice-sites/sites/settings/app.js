// Lumen Notes account settings: profile, notifications and privacy forms.
// Nothing is kept until the form's save button is pressed.
import { h, store, mount, go, status, notFound } from '/common/ui.js';
import { TIME_ZONES, LANGUAGES, VISIBILITY, NOTIFICATIONS, DEFAULTS } from '/data.js';

const BRAND = 'Lumen Notes';
const db = store('settings');
const load = (key) => ({ ...DEFAULTS[key], ...db.get(key, {}) });

function nav() {
  return [h('a', { href: '/' }, 'Notes'), h('a', { href: '/settings/profile' }, 'Settings'), h('a', { href: '/help' }, 'Help')];
}

function sections() {
  return [
    h('a', { href: '/settings/profile' }, 'Profile'),
    h('a', { href: '/settings/notifications' }, 'Notifications'),
    h('a', { href: '/settings/privacy' }, 'Privacy'),
    h('a', { href: '/settings/security' }, 'Password and security'),
  ];
}

function flash() {
  const text = sessionStorage.getItem('settings.flash');
  sessionStorage.removeItem('settings.flash');
  return text ? status(text) : null;
}

function saved(note) {
  sessionStorage.setItem('settings.flash', note);
  location.reload();
}

function select(id, options, value) {
  return h('select', { id }, options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
}

function home() {
  mount({ title: 'Your notes', brand: BRAND, nav: nav(), main: [
    h('h1', {}, 'Your notes'),
    h('ul', {}, ['Reading list', 'Trip to Lisbon', 'Groceries'].map((n) => h('li', {}, n))),
    h('p', {}, h('a', { href: '/settings/profile' }, 'Account settings')),
  ] });
}

function profile() {
  const p = load('profile');
  const name = h('input', { id: 'display-name', type: 'text', value: p.displayName });
  const bio = h('textarea', { id: 'bio', rows: '3' });
  bio.value = p.bio;
  const tz = select('time-zone', TIME_ZONES, p.timeZone);
  const lang = select('language', LANGUAGES, p.language);
  mount({ title: 'Profile settings', brand: BRAND, nav: nav(), aside: sections(), main: [
    h('h1', {}, 'Profile'),
    flash(),
    h('div', { class: 'row' }, h('label', { for: 'display-name' }, 'Display name'), name),
    h('div', { class: 'row' }, h('label', { for: 'bio' }, 'Bio'), bio),
    h('div', { class: 'row' }, h('label', { for: 'time-zone' }, 'Time zone'), tz),
    h('div', { class: 'row' }, h('label', { for: 'language' }, 'Language'), lang),
    h('div', { class: 'row' },
      h('button', { type: 'button', onClick: () => {
        db.set('profile', { displayName: name.value.trim(), bio: bio.value.trim(), timeZone: tz.value, language: lang.value });
        saved('Your profile was saved.');
      } }, 'Save changes'),
      h('button', { type: 'button', onClick: () => location.reload() }, 'Discard changes'),
      h('button', { type: 'button', onClick: () => { db.set('profile', DEFAULTS.profile); saved('Profile reset to defaults.'); } }, 'Reset to defaults')),
  ] });
}

function notifications() {
  const n = load('notifications');
  const boxes = NOTIFICATIONS.map(([key, label]) => [key, h('input', { type: 'checkbox', id: `n-${key}`, checked: n[key] }), label]);
  mount({ title: 'Notification settings', brand: BRAND, nav: nav(), aside: sections(), main: [
    h('h1', {}, 'Notifications'),
    flash(),
    h('fieldset', {}, h('legend', {}, 'Email notifications'), boxes.map(([key, box, label]) => h('div', {}, box, h('label', { for: `n-${key}` }, label)))),
    h('div', { class: 'row' },
      h('button', { type: 'button', onClick: () => {
        db.set('notifications', Object.fromEntries(boxes.map(([key, box]) => [key, box.checked])));
        saved('Your notification preferences were saved.');
      } }, 'Save preferences'),
      h('button', { type: 'button', onClick: () => {
        db.set('notifications', Object.fromEntries(NOTIFICATIONS.map(([key]) => [key, false])));
        saved('You were unsubscribed from all emails.');
      } }, 'Unsubscribe from all')),
  ] });
}

function privacy() {
  const p = load('privacy');
  const radios = VISIBILITY.map(([v, label]) => h('div', {}, h('input', { type: 'radio', name: 'visibility', id: `v-${v}`, value: v, checked: v === p.visibility }), h('label', { for: `v-${v}` }, label)));
  const online = h('input', { type: 'checkbox', id: 'online', checked: p.online });
  const searchable = h('input', { type: 'checkbox', id: 'searchable', checked: p.searchable });
  mount({ title: 'Privacy settings', brand: BRAND, nav: nav(), aside: sections(), main: [
    h('h1', {}, 'Privacy'),
    flash(),
    h('fieldset', {}, h('legend', {}, 'Who can see your profile'), radios),
    h('div', {}, online, h('label', { for: 'online' }, 'Show when I am online')),
    h('div', {}, searchable, h('label', { for: 'searchable' }, 'Let search engines find my profile')),
    h('div', { class: 'row' }, h('button', { type: 'button', onClick: () => {
      db.set('privacy', { visibility: document.querySelector('input[name=visibility]:checked')?.value ?? 'everyone', online: online.checked, searchable: searchable.checked });
      saved('Your privacy settings were saved.');
    } }, 'Save privacy settings')),
  ] });
}

function security() {
  mount({ title: 'Password and security', brand: BRAND, nav: nav(), aside: sections(), main: [
    h('h1', {}, 'Password and security'),
    h('div', { class: 'row' }, h('label', { for: 'pw-old' }, 'Current password'), h('input', { id: 'pw-old', type: 'password' })),
    h('div', { class: 'row' }, h('label', { for: 'pw-new' }, 'New password'), h('input', { id: 'pw-new', type: 'password' })),
    h('button', { type: 'button', onClick: () => document.querySelector('main').append(status('Enter your current password first.', 'alert')) }, 'Change password'),
  ] });
}

const path = location.pathname.replace(/\/+$/, '') || '/';
if (path === '/') home();
else if (path === '/settings' ) go('/settings/profile');
else if (path === '/settings/profile') profile();
else if (path === '/settings/notifications') notifications();
else if (path === '/settings/privacy') privacy();
else if (path === '/settings/security') security();
else notFound(BRAND, nav());
