// Account settings: the options and the defaults of a new account.
export const TIME_ZONES = [
  ['America/Los_Angeles', '(UTC−08:00) Los Angeles'],
  ['America/New_York', '(UTC−05:00) New York'],
  ['America/Sao_Paulo', '(UTC−03:00) São Paulo'],
  ['Europe/London', '(UTC+00:00) London'],
  ['Europe/Berlin', '(UTC+01:00) Berlin'],
  ['Asia/Kolkata', '(UTC+05:30) Kolkata'],
  ['Asia/Tokyo', '(UTC+09:00) Tokyo'],
  ['Australia/Sydney', '(UTC+10:00) Sydney'],
];
export const LANGUAGES = [
  ['en', 'English'],
  ['de', 'Deutsch (German)'],
  ['fr', 'Français (French)'],
  ['es', 'Español (Spanish)'],
  ['ja', '日本語 (Japanese)'],
];
export const VISIBILITY = [
  ['everyone', 'Everyone'],
  ['members', 'Members only'],
  ['private', 'Only me'],
];
export const NOTIFICATIONS = [
  ['replies', 'Email me about new replies'],
  ['newsletter', 'Weekly newsletter'],
  ['announcements', 'Product announcements'],
  ['security', 'Security alerts'],
];
export const DEFAULTS = {
  profile: { displayName: 'Sam Lee', bio: '', timeZone: 'America/Los_Angeles', language: 'en' },
  notifications: { replies: true, newsletter: true, announcements: false, security: true },
  privacy: { visibility: 'everyone', online: true, searchable: true },
};
