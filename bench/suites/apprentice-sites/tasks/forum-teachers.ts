/** Teachers for the forum's tasks: a person on Hearth forum, reading the topic list and the thread page. */
import type { Page } from 'playwright-core';
import type { TeacherStep } from '../../../suite.ts';
import { firstRule, holding, onPath, role, seeing, selectedLabel, sees, textOf, valueIn, when } from './person.ts';

/** The list row (card) of the topic with this title. */
const rowOf = (title: string): string => holding('article', role('link', title));

export const voteTeacher = (title: string, direction: 'Upvote' | 'Downvote') => firstRule(
  when(seeing(role('button', `${direction} “${title}”`)), { do: 'click', selector: role('button', `${direction} “${title}”`) }),
  when(seeing(role('link', 'Latest')), { do: 'click', selector: role('link', 'Latest') }),
);

export const commentTeacher = (title: string, text: string) => firstRule(
  when(async (page) => (await sees(page, role('textbox', 'Your comment'))) && (await valueIn(page, role('textbox', 'Your comment'))) !== text,
    { do: 'fill', selector: role('textbox', 'Your comment'), text }),
  when(seeing(role('button', 'Post comment')), { do: 'click', selector: role('button', 'Post comment') }),
  when(seeing(role('link', title)), { do: 'click', selector: role('link', title) }),
);

export const newTopicTeacher = (topic: { title: string; category: string; message: string }) => firstRule(
  when(onPath(/^\/new$/), async (page: Page): Promise<TeacherStep> => {
    if ((await valueIn(page, role('textbox', 'Title'))) !== topic.title) return { do: 'fill', selector: role('textbox', 'Title'), text: topic.title };
    if ((await selectedLabel(page, role('combobox', 'Category'))) !== topic.category) return { do: 'select', selector: role('combobox', 'Category'), option: topic.category };
    if ((await valueIn(page, role('textbox', 'Message'))) !== topic.message) return { do: 'fill', selector: role('textbox', 'Message'), text: topic.message };
    return { do: 'click', selector: role('button', 'Post topic') };
  }),
  when(seeing(role('link', 'New topic')), { do: 'click', selector: role('link', 'New topic') }),
);

/** Reads the topic's row in the list ("… · by author · … · N comments") and answers from it. */
export const readRowTeacher = (title: string, read: (rowText: string) => string | null) => firstRule(
  when(seeing(rowOf(title)), async (page: Page): Promise<TeacherStep> => {
    const answer = read(await textOf(page, rowOf(title)));
    return answer === null ? { do: 'stop' } : { do: 'answer', text: answer };
  }),
);

export const commentCountTeacher = (title: string) => readRowTeacher(title, (row) => /(\d+) comments?/.exec(row)?.[1] ?? null);
export const authorTeacher = (title: string) => readRowTeacher(title, (row) => /by (\S+)/.exec(row)?.[1] ?? null);

/** Sorts the list by Top, then upvotes the first topic. */
export const upvoteTopTeacher = () => firstRule(
  when(async (page) => (await selectedLabel(page, role('combobox', 'Sort by'))) !== 'Top', { do: 'select', selector: role('combobox', 'Sort by'), option: 'Top' }),
  when(seeing('role=button[name=/^Upvote “/]'), { do: 'click', selector: 'role=button[name=/^Upvote “/]', nth: 0 }),
);
