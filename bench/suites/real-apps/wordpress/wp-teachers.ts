/**
 * Teachers of the WordPress tasks: rules over what is on screen, first match
 * wins. The admin menu is reached by its links (a submenu link is used once
 * its menu is open), list rows by the item's name, fields by their label or
 * `name`. A row's actions (Trash, Approve, Spam) appear only while the row is
 * hovered, so the teacher hovers the row first, as a person does. Each
 * teacher leads back from a wrong screen (another post, another user)
 * through the menu. Values come from the task's data, never from the agent.
 */
import type { Page } from 'playwright-core';
import type { TeacherContext, TeacherStep } from '../../../suite.ts';
import { firstRule, pathOf, role, sees, selectedLabel, valueIn, when, type Rule } from '../../apprentice-sites/tasks/person.ts';
import { normalize } from './wp-state.ts';

const css = (text: string): string => JSON.stringify(text);
/** An admin menu link by its target; top-level items are always shown, submenu items once their menu is open. */
const menuLink = (href: string): string => `#adminmenu a[href=${css(href)}]`;
const click = (selector: string, nth = 0): TeacherStep => ({ do: 'click', selector, nth });
const at = (path: string, params: Record<string, string> = {}) => async (page: Page): Promise<boolean> => {
  if (pathOf(page) !== `/wp-admin/${path}`) return false;
  const q = new URL(page.url()).searchParams;
  return Object.entries(params).every(([k, v]) => q.get(k) === v);
};
const notice = (page: Page, text: string): Promise<boolean> => sees(page, `#message:has-text(${css(text)}), .notice:has-text(${css(text)}), .updated:has-text(${css(text)})`);

/** A submenu link of the menu that is open (the current screen's); other menus' submenus are fly-outs shown on hover. */
const openSubmenuLink = (href: string): string => `#adminmenu li.wp-has-current-submenu a[href=${css(href)}]`;

/** To a screen under a menu: the submenu link when its menu is open, else the top-level item that opens it. */
function toScreen(top: string, sub?: string): Rule {
  return async (page) => (sub && (await sees(page, openSubmenuLink(sub))) ? click(openSubmenuLink(sub)) : click(menuLink(top)));
}

/** A row action: hover the row (its actions show only then), then click the action. */
function rowAction(row: string, hoverOn: string, action: string) {
  return (_page: Page, ctx: TeacherContext): TeacherStep => {
    const justHovered = (ctx.done.at(-1) ?? '').includes('hover');
    return justHovered ? click(`${row} >> ${action}`) : { do: 'hover', selector: `${row} >> ${hoverOn}` };
  };
}

const postRow = (title: string): string => `#the-list tr:has(a.row-title:text-is(${css(title)}))`;
const editLink = (title: string): string => role('link', `“${title}” (Edit)`);
/** The title in the classic editor's title field. */
const editorTitle = (page: Page): Promise<string> => valueIn(page, 'input[name=post_title]');
const onEditor = async (page: Page): Promise<boolean> => (await at('post.php')(page)) || (await at('post-new.php')(page));

/** Move a post to the trash: Posts → hover its row → Trash. */
export function postTrashTeacher(title: string) {
  return firstRule(
    when(at('edit.php'), async (page, ctx) => {
      if (await notice(page, 'moved to the Trash')) return { do: 'stop' };
      if (await sees(page, postRow(title))) return rowAction(postRow(title), 'a.row-title', role('link', `Move “${title}” to the Trash`))(page, ctx);
      return click(menuLink('edit.php'));
    }),
    toScreen('edit.php'),
  );
}

/** In the classic editor of `title` (else back to the posts list); `fix` gives the next change or null when the form is right. */
function editPost(title: string, fix: (page: Page) => Promise<TeacherStep | null>, savedNotice = 'Post updated.'): Rule[] {
  return [
    when(onEditor, async (page) => {
      if ((await editorTitle(page)) !== title) return click(menuLink('edit.php'));
      const next = await fix(page);
      if (next) return next;
      return (await notice(page, savedNotice)) ? { do: 'stop' } : click(role('button', 'Update'));
    }),
    when(at('edit.php'), async (page) => ((await sees(page, editLink(title))) ? click(editLink(title)) : click(menuLink('edit.php')))),
    toScreen('edit.php'),
  ];
}

const categoryBox = (name: string): string => `#categorychecklist >> role=checkbox[name=${css(name)} s]`;

/** Move a post from one category to another: its editor → tick the new one, untick the old one → Update. */
export function postCategoryTeacher(title: string, from: string, to: string) {
  return firstRule(...editPost(title, async (page) => {
    if (!(await page.locator(categoryBox(to)).first().isChecked().catch(() => true))) return { do: 'check', selector: categoryBox(to) };
    if (await page.locator(categoryBox(from)).first().isChecked().catch(() => false)) return { do: 'uncheck', selector: categoryBox(from) };
    return null;
  }));
}

/** The tags shown in the editor's Tags box. */
async function editorTags(page: Page): Promise<string[]> {
  return page.locator('#tagsdiv-post_tag .tagchecklist li').evaluateAll((items) => items.map((li) => (li.lastChild?.textContent ?? '').trim()));
}

/** Add a tag to a post: its editor → type the tag → Add → Update. */
export function postTagTeacher(title: string, tag: string) {
  const input = role('combobox', 'Add New Tag');
  return firstRule(...editPost(title, async (page) => {
    if ((await editorTags(page)).includes(tag)) return null;
    if ((await valueIn(page, input)) !== tag) return { do: 'fill', selector: input, text: tag };
    return click(role('button', 'Add'));
  }));
}

/** Write a draft post: Posts → Add New → title → the Text tab → text → Save Draft. */
export function draftPostTeacher(title: string, text: string) {
  return firstRule(
    when(onEditor, async (page) => {
      const saved = (await at('post.php')(page)) && (await notice(page, 'Post draft updated.'));
      const current = await editorTitle(page);
      if (current !== title && (await at('post.php')(page))) return click(menuLink('edit.php'));
      if (current !== title) return { do: 'fill', selector: role('textbox', 'Add title'), text: title };
      if (!(await sees(page, 'textarea#content'))) return click(role('button', 'Text'));
      if (normalize(await valueIn(page, 'textarea#content')) !== normalize(text)) return { do: 'fill', selector: 'textarea#content', text };
      return saved ? { do: 'stop' } : click(role('button', 'Save Draft'));
    }),
    toScreen('edit.php', 'post-new.php'),
  );
}

const termRow = (name: string): string => `#the-list tr:has(a.row-title:text-is(${css(name)}))`;

/** Add a category: Posts → Categories → Name → Add New Category. */
export function categoryNewTeacher(name: string) {
  const screen = 'edit-tags.php?taxonomy=category';
  return firstRule(
    when(at('edit-tags.php', { taxonomy: 'category' }), async (page) => {
      if (await sees(page, termRow(name))) return { do: 'stop' };
      if ((await valueIn(page, 'input[name=tag-name]')) !== name) return { do: 'fill', selector: 'input[name=tag-name]', text: name };
      return click(role('button', 'Add New Category'));
    }),
    toScreen('edit.php', screen),
  );
}

/** Rename a tag: Posts → Tags → the tag → Name → Update. The slug stays. */
export function tagRenameTeacher(oldName: string, newName: string, slug: string) {
  const screen = 'edit-tags.php?taxonomy=post_tag';
  return firstRule(
    when(at('term.php', { taxonomy: 'post_tag' }), async (page) => {
      if ((await valueIn(page, 'input[name=slug]')) !== slug) return click(menuLink('edit.php'));
      if ((await valueIn(page, 'input[name=name]')) !== newName) return { do: 'fill', selector: 'input[name=name]', text: newName };
      return (await notice(page, 'Tag updated.')) ? { do: 'stop' } : click(role('button', 'Update'));
    }),
    when(at('edit-tags.php', { taxonomy: 'post_tag' }), async (page) => {
      if (await sees(page, termRow(newName))) return { do: 'stop' };
      return (await sees(page, editLink(oldName))) ? click(editLink(oldName)) : click(menuLink('edit.php'));
    }),
    toScreen('edit.php', screen),
  );
}

const commentRow = (author: string): string => `#the-comment-list tr:has(td.column-author:has-text(${css(author)}))`;

/** Approve or spam a comment: Comments → hover its row → Approve / Spam. The list changes in place. */
export function commentTeacher(author: string, action: 'approve' | 'spam') {
  return firstRule(
    when(at('edit-comments.php'), async (page, ctx) => {
      const row = commentRow(author);
      if (action === 'spam' && (await sees(page, `tr:has-text("marked as spam"):has-text(${css(author)})`))) return { do: 'stop' };
      if (action === 'approve' && (await sees(page, `${row}.approved`))) return { do: 'stop' };
      if (!(await sees(page, row))) return click(menuLink('edit-comments.php'));
      // WordPress's script turns these links into buttons (role=button).
      const link = action === 'approve' ? role('button', 'Approve this comment') : role('button', 'Mark this comment as spam');
      return rowAction(row, 'input[type=checkbox]', link)(page, ctx);
    }),
    toScreen('edit-comments.php'),
  );
}

/** Change a user's role: Users → the username → Role → Update User. */
export function userRoleTeacher(login: string, roleLabel: string) {
  return firstRule(
    when(at('user-edit.php'), async (page) => {
      if ((await valueIn(page, 'input[name=user_login]')) !== login) return click(menuLink('users.php'));
      if ((await selectedLabel(page, 'select[name=role]')) !== roleLabel) return { do: 'select', selector: role('combobox', 'Role'), option: roleLabel };
      return (await notice(page, 'User updated.')) ? { do: 'stop' } : click(role('button', 'Update User'));
    }),
    when(at('users.php'), async (page) => {
      const link = `#the-list >> ${role('link', login)}`;
      return (await sees(page, link)) ? click(link) : click(menuLink('users.php'));
    }),
    toScreen('users.php'),
  );
}

/** Change the tagline: Settings → General → Tagline → Save Changes. */
export function taglineTeacher(text: string) {
  return firstRule(
    when(at('options-general.php'), async (page) => {
      if ((await valueIn(page, 'input[name=blogdescription]')) !== text) return { do: 'fill', selector: role('textbox', 'Tagline'), text };
      return (await notice(page, 'Settings saved.')) ? { do: 'stop' } : click(role('button', 'Save Changes'));
    }),
    toScreen('options-general.php'),
  );
}
