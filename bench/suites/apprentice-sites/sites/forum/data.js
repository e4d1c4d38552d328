// The forum's threads. Votes, ages and comment counts come from the seed, so
// each seed is a different but reproducible snapshot of the community.
import { seeded } from '../common/seeded.js';

export const CATEGORIES = ['General', 'Help', 'Show and tell', 'Announcements'];

const THREADS = [
  [1, 'Tips for a first vegetable garden', 'marigold', 'General', 'Start small: two raised beds are plenty for the first year.'],
  [2, 'First vegetable garden: what went wrong', 'tomatofan', 'Help', 'My tomatoes split and the beans never came up. Ideas?'],
  [3, 'Best budget mechanical keyboard?', 'clicky', 'Help', 'Looking for something under $60 with hot-swap switches.'],
  [4, 'Show and tell: my mechanical keyboard build', 'lubedswitch', 'Show and tell', 'Finally finished my 65% board with hand-lubed switches.'],
  [5, 'Weekly meetup thread', 'moderator', 'General', 'Say hello and tell us what you are working on this week.'],
  [6, 'Forum rules and etiquette', 'moderator', 'Announcements', 'Be kind, stay on topic, and search before you post.'],
  [7, 'How do I reset my router?', 'netnovice', 'Help', 'The admin page does not load any more. How do I get back in?'],
  [8, 'Router keeps dropping Wi-Fi', 'packetloss', 'Help', 'Every evening the connection drops for a few minutes.'],
  [9, 'Sourdough starter troubles', 'breadhead', 'General', 'My starter smells like nail polish remover. Is it dead?'],
  [10, 'My first sourdough loaf', 'crumbshot', 'Show and tell', 'Open crumb on the first try! Recipe in the comments.'],
  [11, 'Moving the meetup to Thursday', 'moderator', 'Announcements', 'Starting next month, meetups move to Thursday evenings.'],
  [12, 'Which e-reader for long trips?', 'wanderer', 'Help', 'Battery life matters most; I read about two books a week.'],
];

const REPLIES = [
  ['sprout', 'Great question, following.'],
  ['marigold', 'Same thing happened to me last year.'],
  ['clicky', 'Check the pinned guide first.'],
  ['breadhead', 'Thanks for sharing this!'],
  ['packetloss', 'Try the simplest fix before anything else.'],
  ['wanderer', 'I would go with the cheaper option.'],
  ['crumbshot', 'Photos please!'],
];

export function makeForum(seed) {
  const rand = seeded(seed);
  return THREADS.map(([id, title, author, category, body]) => {
    const n = Math.floor(rand() * 6);
    const comments = Array.from({ length: n }, (_, i) => {
      const [by, text] = REPLIES[Math.floor(rand() * REPLIES.length)];
      return { id: `${id}-${i + 1}`, author: by, text };
    });
    return { id, title, author, category, body, votes: 3 + Math.floor(rand() * 90), ageHours: 1 + Math.floor(rand() * 120), comments };
  });
}

export function postById(forum, id) {
  return forum.find((p) => p.id === id) ?? null;
}

export function sortPosts(posts, sort) {
  const list = [...posts];
  if (sort === 'new') return list.sort((a, b) => a.ageHours - b.ageHours);
  if (sort === 'top') return list.sort((a, b) => b.votes - a.votes || a.id - b.id);
  return list.sort((a, b) => b.votes / (a.ageHours + 2) ** 1.2 - a.votes / (b.ageHours + 2) ** 1.2 || a.id - b.id);
}
