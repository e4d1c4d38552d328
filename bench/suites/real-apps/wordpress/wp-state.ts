/**
 * What the WordPress rewards read: the site's state as one value (posts and
 * pages with their categories and tags, terms, comments, users with their
 * roles, a few options), read from the database with SQL, never from the DOM.
 * A reward compares the state after the attempt with the seeded state changed
 * exactly as asked. Visiting a screen changes nothing here (auto-drafts,
 * revisions, edit locks and caches are left out). Any failure to read throws:
 * the attempt is an error, not a failure.
 */
import { query, type WpSite } from './wp-app.ts';

export interface PostState { type: string; title: string; status: string; author: string; content: string; categories: string[]; tags: string[] }
export interface TermState { taxonomy: string; name: string; slug: string }
export interface CommentState { author: string; post: string; approved: string }
export interface UserState { login: string; email: string; name: string; role: string }
export interface WpState { posts: PostState[]; terms: TermState[]; comments: CommentState[]; users: UserState[]; options: Record<string, string> }

export const OPTIONS = ['blogname', 'blogdescription', 'posts_per_page', 'default_category', 'default_comment_status', 'start_of_week'] as const;

const byKey = <T>(key: (x: T) => string) => (a: T, b: T): number => key(a).localeCompare(key(b));
/** Text as a person reads it: whitespace-insensitive, paragraph tags of the visual editor dropped. */
export const normalize = (text: string): string => text.replace(/<\/?p>/g, ' ').replace(/\s+/g, ' ').trim();

export async function readState(site: Pick<WpSite, 'socket'>): Promise<WpState> {
  const postRows = await query(site,
    `SELECT p.ID, p.post_type, p.post_title, p.post_status, coalesce(u.user_login, ''), p.post_content FROM wp_posts p LEFT JOIN wp_users u ON u.ID = p.post_author
     WHERE p.post_type IN ('post', 'page') AND p.post_status NOT IN ('auto-draft', 'inherit') ORDER BY p.ID`);
  const termOf = await query(site,
    `SELECT r.object_id, tt.taxonomy, t.name FROM wp_term_relationships r JOIN wp_term_taxonomy tt USING (term_taxonomy_id) JOIN wp_terms t USING (term_id)
     WHERE tt.taxonomy IN ('category', 'post_tag') ORDER BY t.name`);
  const posts = postRows.map(([id, type, title, status, author, content]): PostState => ({
    type: type!, title: title!, status: status!, author: author!, content: normalize(content ?? ''),
    categories: termOf.filter((r) => r[0] === id && r[1] === 'category').map((r) => r[2]!),
    tags: termOf.filter((r) => r[0] === id && r[1] === 'post_tag').map((r) => r[2]!),
  })).sort(byKey((p) => `${p.type}\u0000${p.title}\u0000${p.status}`));
  const terms = (await query(site, `SELECT tt.taxonomy, t.name, t.slug FROM wp_terms t JOIN wp_term_taxonomy tt USING (term_id) WHERE tt.taxonomy IN ('category', 'post_tag')`))
    .map(([taxonomy, name, slug]) => ({ taxonomy: taxonomy!, name: name!, slug: slug! })).sort(byKey((t) => `${t.taxonomy}\u0000${t.name}`));
  const comments = (await query(site, 'SELECT c.comment_author, p.post_title, c.comment_approved FROM wp_comments c LEFT JOIN wp_posts p ON p.ID = c.comment_post_ID ORDER BY c.comment_ID'))
    .map(([author, post, approved]) => ({ author: author!, post: post!, approved: approved! }));
  const users = (await query(site, `SELECT u.user_login, u.user_email, u.display_name, coalesce(m.meta_value, '') FROM wp_users u
     LEFT JOIN wp_usermeta m ON m.user_id = u.ID AND m.meta_key = 'wp_capabilities' ORDER BY u.user_login`))
    .map(([login, email, name, caps]) => ({ login: login!, email: email!, name: name!, role: rolesIn(caps ?? '').join(',') }));
  const optionRows = await query(site, `SELECT option_name, option_value FROM wp_options WHERE option_name IN (${OPTIONS.map((o) => `'${o}'`).join(', ')})`);
  const options = Object.fromEntries(OPTIONS.map((o) => [o, optionRows.find((r) => r[0] === o)?.[1] ?? '']));
  return { posts, terms, comments, users, options };
}

/** The roles in a serialized capabilities array (`a:1:{s:6:"editor";b:1;}` → editor). */
export function rolesIn(serialized: string): string[] {
  return [...serialized.matchAll(/s:\d+:"([a-z_]+)";b:1;/g)].map((m) => m[1]!).sort();
}

/** A deep copy to change into the expected state. */
export const copyState = (s: WpState): WpState => structuredClone(s);

/** The same state, compared as a canonical JSON text. */
export const sameState = (a: WpState, b: WpState): boolean => canonical(a) === canonical(b);
export const canonical = (s: WpState): string => JSON.stringify({
  ...s,
  posts: [...s.posts].map((p) => ({ ...p, content: normalize(p.content), categories: [...p.categories].sort(), tags: [...p.tags].sort() }))
    .sort(byKey((p) => `${p.type}\u0000${p.title}\u0000${p.status}`)),
  terms: [...s.terms].sort(byKey((t) => `${t.taxonomy}\u0000${t.name}`)),
});
