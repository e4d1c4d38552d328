// Hearth, a small community forum: threads, votes, comments, new topics.
// Your own votes, comments and topics are kept in localStorage.
import { h, store, mount, slug, go, status, notFound } from '/common/ui.js';
import { CATEGORIES, makeForum, sortPosts } from '/data.js';

const BRAND = 'Hearth forum';
const db = store('forum');
const forum = makeForum(db.get('seed', 1));
const votes = () => db.get('votes', {});
const myComments = () => db.get('comments', []);

function withMine(post) {
  const v = votes()[post.id] ?? 0;
  const extra = myComments().filter((c) => c.postId === post.id).map((c, i) => ({ id: `${post.id}-you-${i}`, author: 'you', text: c.text }));
  return { ...post, votes: post.votes + v, myVote: v, comments: [...post.comments, ...extra] };
}

const allPosts = () => [
  ...forum,
  ...db.get('topics', []).map((t) => ({ id: t.id, title: t.title, author: 'you', category: t.category, body: t.body, votes: 1, ageHours: 0, comments: [] })),
].map(withMine);

function nav() {
  return [h('a', { href: '/' }, 'Latest'), h('a', { href: '/new' }, 'New topic'), h('a', { href: '/u/you' }, 'Your profile')];
}

function sidebar() {
  return [h('h2', {}, 'Categories'), ...CATEGORIES.map((c) => h('a', { href: `/c/${slug(c)}` }, c))];
}

function setVote(id, value) {
  const v = votes();
  // Clicking the same arrow again takes the vote back, as on most forums.
  if (v[id] === value) delete v[id]; else v[id] = value;
  db.set('votes', v);
}

function threadRow(p, rerender) {
  return h('article', { class: 'card row' },
    h('div', {},
      h('button', { type: 'button', 'aria-label': `Upvote “${p.title}”`, 'aria-pressed': String(p.myVote === 1), onClick: () => { setVote(p.id, 1); rerender(); } }, '▲'),
      h('span', { class: 'muted' }, ` ${p.votes} `),
      h('button', { type: 'button', 'aria-label': `Downvote “${p.title}”`, 'aria-pressed': String(p.myVote === -1), onClick: () => { setVote(p.id, -1); rerender(); } }, '▼')),
    h('div', {},
      h('h3', {}, h('a', { href: `/t/${p.id}/${slug(p.title)}` }, p.title)),
      h('p', { class: 'muted' }, `${p.category} · by ${p.author} · ${p.ageHours} hours ago · `,
        h('a', { href: `/t/${p.id}/${slug(p.title)}#comments` }, `${p.comments.length} comments`))));
}

function listPage(category) {
  const params = new URLSearchParams(location.search);
  const sort = params.get('sort') ?? 'hot';
  const render = () => {
    const posts = sortPosts(allPosts().filter((p) => !category || p.category === category), sort);
    const select = h('select', { id: 'sort', onChange: (e) => go(`${location.pathname}?sort=${e.target.value}`) },
      [['hot', 'Hot'], ['new', 'New'], ['top', 'Top']].map(([v, label]) => h('option', { value: v, selected: v === sort }, label)));
    mount({ title: category ?? 'Latest topics', brand: BRAND, nav: nav(), aside: sidebar(), main: [
      h('h1', {}, category ? `${category} topics` : 'Latest topics'),
      h('div', { class: 'row' }, h('label', { for: 'sort' }, 'Sort by'), select),
      ...posts.map((p) => threadRow(p, render)),
    ] });
  };
  render();
}

function threadPage(id) {
  const render = () => {
    const p = allPosts().find((x) => x.id === id);
    if (!p) return notFound(BRAND, nav());
    const text = h('textarea', { id: 'comment', rows: '3' });
    const preview = h('div', { 'aria-live': 'polite' });
    mount({ title: p.title, brand: BRAND, nav: nav(), aside: sidebar(), main: [
      h('p', { class: 'muted' }, h('a', { href: `/c/${slug(p.category)}` }, p.category)),
      h('h1', {}, p.title),
      h('p', { class: 'muted' }, `Posted by ${p.author} · ${p.ageHours} hours ago · ${p.votes} points`),
      h('p', {}, p.body),
      h('div', { class: 'row' },
        h('button', { type: 'button', 'aria-pressed': String(p.myVote === 1), onClick: () => { setVote(p.id, 1); render(); } }, 'Upvote'),
        h('button', { type: 'button', 'aria-pressed': String(p.myVote === -1), onClick: () => { setVote(p.id, -1); render(); } }, 'Downvote'),
        h('button', { type: 'button', onClick: () => preview.replaceChildren(status('Saved to your bookmarks.')) }, 'Save'),
        h('button', { type: 'button', onClick: () => preview.replaceChildren(status('Thanks, a moderator will take a look.')) }, 'Report')),
      h('h2', { id: 'comments' }, `${p.comments.length} comments`),
      h('ul', {}, p.comments.map((c) => h('li', {}, h('strong', {}, c.author), `: ${c.text}`))),
      h('h2', {}, 'Add a comment'),
      h('label', { for: 'comment' }, 'Your comment'), text,
      preview,
      h('div', { class: 'row' },
        h('button', { type: 'button', onClick: () => preview.replaceChildren(h('p', { class: 'muted' }, `Preview: ${text.value}`)) }, 'Preview'),
        h('button', { type: 'button', onClick: () => {
          const value = text.value.trim();
          if (!value) { preview.replaceChildren(status('A comment cannot be empty.', 'alert')); return; }
          db.set('comments', [...myComments(), { postId: p.id, text: value }]);
          render();
        } }, 'Post comment')),
    ] });
  };
  render();
}

function newTopicPage() {
  const title = h('input', { id: 'title', type: 'text' });
  const category = h('select', { id: 'category' }, h('option', { value: '' }, 'Choose a category'), CATEGORIES.map((c) => h('option', { value: c }, c)));
  const body = h('textarea', { id: 'body', rows: '5' });
  const msg = h('div', { 'aria-live': 'assertive' });
  mount({ title: 'New topic', brand: BRAND, nav: nav(), aside: sidebar(), main: [
    h('h1', {}, 'Start a new topic'),
    h('div', { class: 'row' }, h('label', { for: 'title' }, 'Title'), title),
    h('div', { class: 'row' }, h('label', { for: 'category' }, 'Category'), category),
    h('div', { class: 'row' }, h('label', { for: 'body' }, 'Message'), body),
    msg,
    h('div', { class: 'row' },
      h('button', { type: 'button', onClick: () => msg.replaceChildren(status('Draft saved.')) }, 'Save draft'),
      h('button', { type: 'button', onClick: () => {
        if (!title.value.trim() || !category.value || !body.value.trim()) {
          msg.replaceChildren(status('Title, category and message are all required.', 'alert'));
          return;
        }
        const topics = db.get('topics', []);
        const id = 100 + topics.length + 1;
        topics.push({ id, title: title.value.trim(), category: category.value, body: body.value.trim() });
        db.set('topics', topics);
        go(`/t/${id}/${slug(title.value)}`);
      } }, 'Post topic')),
  ] });
}

function profilePage() {
  const mine = db.get('topics', []);
  mount({ title: 'Your profile', brand: BRAND, nav: nav(), aside: sidebar(), main: [
    h('h1', {}, 'Your profile'),
    h('p', {}, `Topics: ${mine.length} · Comments: ${myComments().length}`),
  ] });
}

const path = location.pathname.replace(/\/+$/, '') || '/';
let m;
if (path === '/') listPage(null);
else if ((m = path.match(/^\/c\/([a-z-]+)$/))) {
  const category = CATEGORIES.find((c) => slug(c) === m[1]);
  if (category) listPage(category); else notFound(BRAND, nav());
} else if ((m = path.match(/^\/t\/(\d+)(\/[a-z0-9-]*)?$/))) threadPage(Number(m[1]));
else if (path === '/new') newTopicPage();
else if (path === '/u/you') profilePage();
else notFound(BRAND, nav());
