/**
 * The WordPress task templates, several instances each, drawn from the seed.
 * A reward reads the whole site state from the database (wp-state.ts) and is
 * 1 only when it equals the seeded state changed exactly as asked. `done`
 * (the runner's early stop) is any change of that state. The templates in
 * WP_TEST_TEMPLATES are the frozen test set (docs/benchmarks.md).
 */
import type { Page } from 'playwright-core';
import type { BenchTask } from '../../../suite.ts';
import { restoreSite, type WpSite } from './wp-app.ts';
import { COMMENTS, POSTS, USERS } from './wp-seed.ts';
import { canonical, copyState, readState, sameState, type WpState } from './wp-state.ts';
import {
  categoryNewTeacher, commentTeacher, draftPostTeacher, postCategoryTeacher, postTagTeacher, postTrashTeacher,
  tagRenameTeacher, taglineTeacher, userRoleTeacher,
} from './wp-teachers.ts';

/** Never tuned on: chosen before any agent ran on WordPress; their figures are printed apart. */
export const WP_TEST_TEMPLATES: readonly string[] = ['wp.comment-spam', 'wp.tag-rename', 'wp.post-tag'];

const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

type Instance = {
  id: string; instruction: string; expect: (s: WpState) => void; teacher: NonNullable<BenchTask['teacher']>;
  /** Early stop at the goal only: the editor autosaves a new post's title as a draft on its own. */
  stopAtGoalOnly?: true;
};
interface Template { template: string; maxSteps: number; start: string; instances: Instance[] }

const postIn = (s: WpState, title: string) => {
  const p = s.posts.find((x) => x.title === title);
  if (!p) throw new Error(`the seed has no post "${title}"`);
  return p;
};
const must = <T>(v: T | undefined, what: string): T => { if (v === undefined) throw new Error(`the seed has no ${what}`); return v; };
const fullName = (login: string): string => { const u = must(USERS.find((x) => x.login === login), `user ${login}`); return `${u.first} ${u.last}`; };
const ROLE_LABEL: Record<string, string> = { administrator: 'Administrator', editor: 'Editor', author: 'Author', contributor: 'Contributor', subscriber: 'Subscriber' };

function postTemplates(): Template[] {
  const trash = ['Our spring meetup', 'Review: the Lumen desk lamp', 'Composting in a small flat'];
  const moves: [string, string, string][] = [['Welcome to the new journal', 'News', 'Reviews'], ['Tomatoes on a balcony', 'Gardening', 'Recipes'], ['A weekend in Lisbon', 'Travel', 'News']];
  const tags: [string, string][] = [['Pancakes for a crowd', 'summer'], ['Tomatoes on a balcony', 'vegetarian'], ['Our spring meetup', 'quick']];
  const drafts: [string, string][] = [
    ['Packing list for the coast', 'Sun cream, a rain jacket and a good book.'],
    ['Five soups for cold evenings', 'Leek and potato comes first.'],
    ['Notes from the book club', 'We read a short novel about a lighthouse.'],
  ];
  for (const [title, from] of moves) if (!POSTS.find((p) => p.title === title)?.categories.includes(from)) throw new Error(`seed: ${title} is not in ${from}`);
  return [
    { template: 'wp.post-trash', maxSteps: 8, start: '/wp-admin/', instances: trash.map((title) => ({
      id: `wp.post-trash.${slug(title)}`, instruction: `Move the post "${title}" to the trash.`,
      expect: (s) => { postIn(s, title).status = 'trash'; }, teacher: postTrashTeacher(title),
    })) },
    { template: 'wp.post-category', maxSteps: 10, start: '/wp-admin/', instances: moves.map(([title, from, to]) => ({
      id: `wp.post-category.${slug(title)}`, instruction: `Move the post "${title}" from the ${from} category to ${to}.`,
      expect: (s) => { postIn(s, title).categories = [to]; }, teacher: postCategoryTeacher(title, from, to),
    })) },
    { template: 'wp.post-tag', maxSteps: 10, start: '/wp-admin/', instances: tags.map(([title, tag]) => ({
      id: `wp.post-tag.${slug(title)}`, instruction: `Tag the post "${title}" with "${tag}".`,
      expect: (s) => { postIn(s, title).tags.push(tag); }, teacher: postTagTeacher(title, tag),
    })) },
    { template: 'wp.draft-post', maxSteps: 10, start: '/wp-admin/', instances: drafts.map(([title, text]) => ({
      id: `wp.draft-post.${slug(title)}`, instruction: `Write a new post titled "${title}" with the text "${text}" and save it as a draft.`,
      expect: (s) => { s.posts.push({ type: 'post', title, status: 'draft', author: 'admin', content: text, categories: ['Uncategorized'], tags: [] }); },
      teacher: draftPostTeacher(title, text), stopAtGoalOnly: true,
    })) },
  ];
}

function termTemplates(): Template[] {
  const news = ['Events', 'Interviews', 'Crafts'];
  const renames: [string, string][] = [['quick', 'quick meals'], ['family', 'family life'], ['hiking', 'walking']];
  return [
    { template: 'wp.category-new', maxSteps: 8, start: '/wp-admin/', instances: news.map((name) => ({
      id: `wp.category-new.${slug(name)}`, instruction: `Add a new post category called "${name}".`,
      expect: (s) => { s.terms.push({ taxonomy: 'category', name, slug: slug(name) }); }, teacher: categoryNewTeacher(name),
    })) },
    { template: 'wp.tag-rename', maxSteps: 8, start: '/wp-admin/', instances: renames.map(([from, to]) => ({
      id: `wp.tag-rename.${slug(from)}`, instruction: `Rename the tag "${from}" to "${to}".`,
      expect: (s) => {
        must(s.terms.find((t) => t.taxonomy === 'post_tag' && t.name === from), `tag ${from}`).name = to;
        for (const p of s.posts) p.tags = p.tags.map((t) => (t === from ? to : t));
      },
      teacher: tagRenameTeacher(from, to, slug(from)),
    })) },
  ];
}

function peopleTemplates(): Template[] {
  const pending = (author: string): void => { if (must(COMMENTS.find((c) => c.author === author), `comment by ${author}`).approved) throw new Error(`seed: ${author}'s comment is approved`); };
  const approvals = ['Omar Haddad', 'Grace Kim', 'Lucia Romano'];
  const spam = ['Cheap Pills Online', 'Best Casino Deals', 'Free Followers Now'];
  [...approvals, ...spam].forEach(pending);
  const roles: [string, string][] = [['lee', 'author'], ['aiko', 'author'], ['jonas', 'contributor']];
  const taglines = ['Recipes, trips and gardens', 'Written by a small team in Lisbon', 'Stories worth a second cup'];
  const comment = (s: WpState, author: string) => must(s.comments.find((c) => c.author === author), `comment by ${author}`);
  return [
    { template: 'wp.comment-approve', maxSteps: 8, start: '/wp-admin/', instances: approvals.map((author) => ({
      id: `wp.comment-approve.${slug(author)}`, instruction: `Approve the comment from ${author}.`,
      expect: (s) => { comment(s, author).approved = '1'; }, teacher: commentTeacher(author, 'approve'),
    })) },
    { template: 'wp.comment-spam', maxSteps: 8, start: '/wp-admin/', instances: spam.map((author) => ({
      id: `wp.comment-spam.${slug(author)}`, instruction: `Mark the comment from "${author}" as spam.`,
      expect: (s) => { comment(s, author).approved = 'spam'; }, teacher: commentTeacher(author, 'spam'),
    })) },
    { template: 'wp.user-role', maxSteps: 8, start: '/wp-admin/', instances: roles.map(([login, role]) => ({
      id: `wp.user-role.${login}`, instruction: `Change ${fullName(login)}'s role to ${ROLE_LABEL[role]}.`,
      expect: (s) => { must(s.users.find((u) => u.login === login), `user ${login}`).role = role; }, teacher: userRoleTeacher(login, ROLE_LABEL[role]!),
    })) },
    { template: 'wp.tagline', maxSteps: 8, start: '/wp-admin/', instances: taglines.map((text) => ({
      id: `wp.tagline.${slug(text)}`, instruction: `Change the site's tagline to "${text}".`,
      expect: (s) => { s.options['blogdescription'] = text; }, teacher: taglineTeacher(text),
    })) },
  ];
}

/** Every WordPress task; setup restores the seeded database and reloads the start page. */
export function wordpressTasks(site: WpSite, baseUrl: string): BenchTask[] {
  let seeded: WpState | null = null;
  const seedState = async (): Promise<WpState> => (seeded ??= await readState(site));
  return [...postTemplates(), ...termTemplates(), ...peopleTemplates()].flatMap((t) => t.instances.map((instance): BenchTask => {
    const expected = async (): Promise<WpState> => {
      const state = copyState(await seedState());
      instance.expect(state);
      return state;
    };
    return {
      id: instance.id,
      instruction: instance.instruction,
      template: t.template,
      set: WP_TEST_TEMPLATES.includes(t.template) ? 'test' : 'development',
      startUrl: `${baseUrl}${t.start}`,
      maxSteps: t.maxSteps,
      teacher: instance.teacher,
      async setup(page: Page) {
        await restoreSite(site);
        await seedState();
        await page.goto(`${baseUrl}${t.start}`);
      },
      async reward() {
        return sameState(await readState(site), await expected()) ? 1 : 0;
      },
      async done() {
        const now = await readState(site);
        return instance.stopAtGoalOnly ? sameState(now, await expected()) : canonical(now) !== canonical(await seedState());
      },
    };
  }));
}
