/**
 * The deterministic content of the benchmark's WordPress site ("Lantern
 * Journal", a small team blog): users with roles, categories, tags, posts
 * with comments and pages, all with fixed dates. wp-seed.php writes it;
 * task instances are drawn from these lists. Nothing here is random.
 */

export const SITE_TITLE = 'Lantern Journal';
export const SITE_TAGLINE = 'Notes from a small team';

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';
export interface SeedUser { login: string; email: string; first: string; last: string; role: Role }
export interface SeedPost {
  type: 'post' | 'page';
  title: string;
  content: string;
  status: 'publish' | 'draft';
  author: string;
  date: string;
  categories: string[];
  tags: string[];
}
export interface SeedComment { post: string; author: string; email: string; text: string; approved: boolean; date: string }

export const USERS: readonly SeedUser[] = [
  { login: 'maria', email: 'maria@lantern.test', first: 'Maria', last: 'Lopez', role: 'editor' },
  { login: 'tomas', email: 'tomas@lantern.test', first: 'Tomas', last: 'Berg', role: 'author' },
  { login: 'aiko', email: 'aiko@lantern.test', first: 'Aiko', last: 'Tanaka', role: 'contributor' },
  { login: 'lee', email: 'lee@lantern.test', first: 'Lee', last: 'Chen', role: 'subscriber' },
  { login: 'priya', email: 'priya@lantern.test', first: 'Priya', last: 'Nair', role: 'author' },
  { login: 'jonas', email: 'jonas@lantern.test', first: 'Jonas', last: 'Weber', role: 'subscriber' },
];

export const CATEGORIES: readonly string[] = ['News', 'Recipes', 'Travel', 'Gardening', 'Reviews'];
export const TAGS: readonly string[] = ['summer', 'quick', 'vegetarian', 'budget', 'family', 'hiking'];

const post = (title: string, author: string, day: number, categories: string[], tags: string[], content: string, status: SeedPost['status'] = 'publish'): SeedPost =>
  ({ type: 'post', title, content, status, author, date: `2026-03-${String(day).padStart(2, '0')} 10:00:00`, categories, tags });
const page = (title: string, day: number, content: string): SeedPost =>
  ({ type: 'page', title, content, status: 'publish', author: 'admin', date: `2026-02-${String(day).padStart(2, '0')} 09:00:00`, categories: [], tags: [] });

export const POSTS: readonly SeedPost[] = [
  post('Welcome to the new journal', 'maria', 1, ['News'], [], 'We moved our notes to this journal.'),
  post('Lentil soup in twenty minutes', 'tomas', 3, ['Recipes'], ['quick', 'vegetarian'], 'Red lentils, onion, cumin and a lemon.'),
  post('A weekend in Lisbon', 'priya', 5, ['Travel'], ['budget'], 'Trams, tiles and custard tarts.'),
  post('Tomatoes on a balcony', 'tomas', 7, ['Gardening'], ['summer'], 'Two pots, one trellis and a lot of water.'),
  post('Review: the Lumen desk lamp', 'maria', 9, ['Reviews'], [], 'Warm light, a heavy base and a short cable.'),
  post('Hiking the ridge trail', 'priya', 11, ['Travel'], ['hiking', 'summer'], 'Seven kilometres with a view of the lake.'),
  post('Pancakes for a crowd', 'tomas', 13, ['Recipes'], ['family'], 'A double batch and a warm oven.'),
  post('Our spring meetup', 'maria', 15, ['News'], ['family'], 'Thanks to everyone who came to the park.'),
  post('Composting in a small flat', 'aiko', 17, ['Gardening'], ['budget'], 'A bucket, some bran and patience.'),
  post('Review: three budget headphones', 'priya', 19, ['Reviews'], ['budget'], 'One of them is worth buying.'),
  post('Ideas for the autumn issue', 'maria', 21, ['News'], [], 'Apples, rain gear and a reading list.', 'draft'),
  page('About us', 2, 'Lantern Journal is written by a small team.'),
  page('Contact', 3, 'Write to hello@lantern.test.'),
  page('Write for us', 4, 'Send us a short pitch first.'),
];

const comment = (postTitle: string, author: string, text: string, approved: boolean, day: number): SeedComment =>
  ({ post: postTitle, author, email: `${author.toLowerCase().replace(/[^a-z]+/g, '.')}@example.test`, text, approved, date: `2026-03-${String(day).padStart(2, '0')} 18:00:00` });

export const COMMENTS: readonly SeedComment[] = [
  comment('Lentil soup in twenty minutes', 'Hannah Ross', 'Made this tonight, lovely.', true, 4),
  comment('Lentil soup in twenty minutes', 'Omar Haddad', 'Can I use green lentils?', false, 5),
  comment('A weekend in Lisbon', 'Grace Kim', 'Which tram line did you take?', false, 6),
  comment('A weekend in Lisbon', 'Cheap Pills Online', 'Buy cheap pills at our shop!!!', false, 6),
  comment('Tomatoes on a balcony', 'Peter Novak', 'Mine split in the rain.', true, 8),
  comment('Hiking the ridge trail', 'Lucia Romano', 'Is the trail open in winter?', false, 12),
  comment('Hiking the ridge trail', 'Best Casino Deals', 'Win big at our casino today', false, 12),
  comment('Pancakes for a crowd', 'Sam Taylor', 'The kids loved them.', true, 14),
  comment('Review: three budget headphones', 'Free Followers Now', 'Get ten thousand followers free', false, 20),
  comment('Review: three budget headphones', 'Daniel Fox', 'Which one has the best battery?', false, 20),
];

/** A fingerprint of the seed: the prepared snapshot is reused only while it matches. */
export function seedFingerprint(versions: string): string {
  return JSON.stringify({ v: 1, versions, SITE_TITLE, SITE_TAGLINE, USERS, CATEGORIES, TAGS, POSTS, COMMENTS });
}

/** The seed as wp-seed.php reads it. */
export const seedJson = (): string => JSON.stringify({ title: SITE_TITLE, tagline: SITE_TAGLINE, users: USERS, categories: CATEGORIES, tags: TAGS, posts: POSTS, comments: COMMENTS });
