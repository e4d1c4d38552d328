/**
 * Tasks on Hearth forum: votes on posts whose titles share words, comments
 * (with a Preview decoy), a new topic, and questions whose answers depend on
 * the seed (comment counts, the top post).
 */
import type { Page } from 'playwright-core';
import type { BenchTask, TaskContext } from '../../../suite.ts';
import { makeForum, postById, sortPosts, type ForumPost } from '../sites/forum/data.js';
import { allTrue, normalizeText, numbersIn, readAnswer, readJson, seedSite } from './page-state.ts';
import { authorTeacher, commentCountTeacher, commentTeacher, newTopicTeacher, upvoteTopTeacher, voteTeacher } from './forum-teachers.ts';

interface MyComment { postId: number; text: string }
interface MyTopic { id: number; title: string; category: string; body: string }

function post(id: number, seed = 1): ForumPost {
  const p = postById(makeForum(seed), id);
  if (!p) throw new Error(`no post ${id}`);
  return p;
}

export function forumTasks(origin: string): BenchTask[] {
  const setup = async (page: Page, ctx: TaskContext) => {
    await seedSite(page, origin, { 'forum.seed': ctx.seed });
  };
  // Seed-dependent truth is computed from the seed the site was given.
  const siteSeed = (page: Page) => readJson<number>(page, origin, 'forum.seed', 1);
  const votes = (page: Page) => readJson<Record<string, number>>(page, origin, 'forum.votes', {});
  const votesAre = (v: Record<string, number>, id: number, value: number) => Object.keys(v).length === 1 && v[String(id)] === value;
  const anyVote = async (page: Page) => Object.keys(await votes(page)).length > 0;
  const comments = (page: Page) => readJson<MyComment[]>(page, origin, 'forum.comments', []);
  const tasks: BenchTask[] = [];

  for (const id of [2, 8, 10]) {
    tasks.push({
      id: `forum.upvote.${id}`,
      template: 'forum.upvote',
      startUrl: `${origin}/`,
      instruction: `Upvote the post "${post(id).title}".`,
      setup,
      reward: async (page) => allTrue(votesAre(await votes(page), id, 1)),
      done: anyVote,
      maxSteps: 6,
      teacher: voteTeacher(post(id).title, 'Upvote'),
    });
  }
  tasks.push({
    id: 'forum.downvote',
    startUrl: `${origin}/`,
    instruction: `Downvote the post "${post(3).title}".`,
    setup,
    reward: async (page) => allTrue(votesAre(await votes(page), 3, -1)),
    done: anyVote,
    maxSteps: 6,
    teacher: voteTeacher(post(3).title, 'Downvote'),
  });
  const replies: [number, string][] = [
    [7, 'Hold the reset button for 30 seconds.'],
    [9, 'Feed it twice a day and keep it warm.'],
  ];
  for (const [id, text] of replies) {
    tasks.push({
      id: `forum.comment.${id}`,
      template: 'forum.comment',
      startUrl: `${origin}/`,
      instruction: `Reply to the post "${post(id).title}" with the comment "${text}"`,
      setup,
      reward: async (page) => {
        const mine = await comments(page);
        return allTrue(mine.length === 1, mine[0]?.postId === id, normalizeText(mine[0]?.text ?? '') === normalizeText(text));
      },
      done: async (page) => (await comments(page)).length > 0,
      maxSteps: 10,
      teacher: commentTeacher(post(id).title, text),
    });
  }
  tasks.push({
    id: 'forum.new-topic',
    startUrl: `${origin}/`,
    instruction: 'Start a new topic in the Help category titled "Printer not found" with the message "My printer disappeared after the last update."',
    setup,
    reward: async (page) => {
      const topics = await readJson<MyTopic[]>(page, origin, 'forum.topics', []);
      const t = topics[0];
      return allTrue(topics.length === 1, normalizeText(t?.title ?? '') === 'printer not found', t?.category === 'Help',
        normalizeText(t?.body ?? '') === normalizeText('My printer disappeared after the last update.'));
    },
    done: async (page) => (await readJson<MyTopic[]>(page, origin, 'forum.topics', [])).length > 0,
    maxSteps: 12,
    teacher: newTopicTeacher({ title: 'Printer not found', category: 'Help', message: 'My printer disappeared after the last update.' }),
  });
  for (const id of [4, 12]) {
    tasks.push({
      id: `forum.count-comments.${id}`,
      template: 'forum.count-comments',
      startUrl: `${origin}/`,
      instruction: `How many comments does the post "${post(id).title}" have?`,
      setup,
      reward: async (page) => {
        const first = numbersIn((await readAnswer(page)) ?? '')[0];
        return allTrue(first === post(id, await siteSeed(page)).comments.length);
      },
      maxSteps: 6,
      teacher: commentCountTeacher(post(id).title),
    });
  }
  tasks.push({
    id: 'forum.upvote-top-post',
    startUrl: `${origin}/`,
    instruction: 'Upvote the post that has the most points.',
    setup,
    reward: async (page) => {
      const top = sortPosts(makeForum(await siteSeed(page)), 'top')[0];
      return allTrue(top !== undefined && votesAre(await votes(page), top.id, 1));
    },
    done: anyVote,
    maxSteps: 6,
    teacher: upvoteTopTeacher(),
  });
  tasks.push({
    id: 'forum.ask-author',
    startUrl: `${origin}/`,
    instruction: `Who started the topic "${post(9).title}"? Tell me the username.`,
    setup,
    reward: async (page) => allTrue(new RegExp(`\\b${post(9).author}\\b`, 'i').test((await readAnswer(page)) ?? '')),
    maxSteps: 6,
    teacher: authorTeacher(post(9).title),
  });
  return tasks;
}
