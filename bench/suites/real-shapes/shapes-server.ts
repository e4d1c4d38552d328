/**
 * The real-shapes site's server on 127.0.0.1: pages rendered from its state,
 * form posts that change it and redirect (post/redirect/get, as real
 * applications do), and two test-only routes: `POST /__reset` restores the
 * seeded state, `GET /__state` returns it for the rewards.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { confirmRemovePage, inboxPage, invitePage, membersPage, noteEditPage, notesPage, settingsPage, shopPage, signupPage, ticketPage, ticketsPage } from './shapes-pages.ts';
import { MEMBERS, PRODUCTS, seededState, type ShapesState } from './shapes-state.ts';

export interface ShapesServer {
  origin: string;
  close(): Promise<void>;
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const html = (res: ServerResponse, body: string, status = 200) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
};
const redirect = (res: ServerResponse, to: string) => {
  res.writeHead(303, { location: to });
  res.end();
};

type Post = (state: ShapesState, form: URLSearchParams, res: ServerResponse) => void;

const POSTS: Record<string, Post> = {
  '/members/remove': (_s, form, res) => redirect(res, `/members/confirm?id=${encodeURIComponent(form.get('id') ?? '')}`),
  '/members/remove/confirm': (s, form, res) => {
    const id = Number(form.get('id'));
    const m = s.members.find((x) => x.id === id);
    if (m) {
      s.members = s.members.filter((x) => x.id !== id);
      s.effects.push(`remove:${id}`);
    }
    redirect(res, `/members?removed=${encodeURIComponent(m?.name ?? '')}`);
  },
  '/cart/add': (s, form, res) => {
    const sku = form.get('sku') ?? '';
    if (PRODUCTS.some((p) => p.sku === sku)) {
      s.cart.push(sku);
      s.effects.push(`cart:${sku}`);
    }
    redirect(res, '/shop');
  },
  '/inbox/star': (s, form, res) => {
    const m = s.messages.find((x) => x.id === Number(form.get('id')));
    if (m) {
      m.starred = !m.starred;
      s.effects.push(`star:${m.id}`);
    }
    res.writeHead(204);
    res.end();
  },
  '/invite': (s, form, res) => {
    const invite = { name: (form.get('n') ?? '').trim(), email: (form.get('e') ?? '').trim(), team: form.get('t') ?? '' };
    s.invites.push(invite);
    s.effects.push(`invite:${invite.email}`);
    redirect(res, `/invite?sent=${encodeURIComponent(invite.name)}`);
  },
  '/settings/notifications': (s, form, res) => {
    s.settings = { weeklyDigest: form.has('digest'), commentEmails: form.has('comments'), saves: s.settings.saves + 1 };
    s.effects.push('settings');
    redirect(res, '/settings?tab=notifications&saved=1');
  },
  '/signup': (s, form, res) => {
    const signup = { plan: form.get('plan') ?? '', company: (form.get('company') ?? '').trim() };
    s.signups.push(signup);
    s.effects.push(`signup:${signup.company}`);
    redirect(res, `/signup?done=${encodeURIComponent(signup.company)}`);
  },
};

function editTicket(s: ShapesState, id: string, form: URLSearchParams, res: ServerResponse): void {
  const t = s.tickets.find((x) => x.id === id);
  const status = form.get('status') ?? '';
  if (t && t.status !== status) {
    t.status = status;
    s.effects.push(`ticket:${id}:${status}`);
  }
  redirect(res, t ? `/tickets/${id}?saved=1` : '/tickets');
}

function editNote(s: ShapesState, id: number, form: URLSearchParams, res: ServerResponse): void {
  const n = s.notes.find((x) => x.id === id);
  if (n) {
    n.tags = form.getAll('tag').map((t) => t.trim()).filter(Boolean);
    n.saves += 1;
    s.effects.push(`note:${id}:${n.tags.join(',')}`);
  }
  redirect(res, n ? `/notes/${id}/edit?saved=1` : '/notes');
}

function page(state: ShapesState, url: URL): string | null {
  const q = (k: string) => url.searchParams.get(k) ?? '';
  switch (url.pathname) {
    case '/': case '/members': return membersPage(state, q('removed') ? `${q('removed')} was removed.` : '');
    case '/members/confirm': return MEMBERS.some((m) => m.id === Number(q('id'))) ? confirmRemovePage(Number(q('id'))) : null;
    case '/shop': return shopPage(state);
    case '/inbox': return inboxPage(state);
    case '/invite': return invitePage(q('sent'));
    case '/settings': return settingsPage(state, q('tab') || 'profile', q('saved') === '1');
    case '/signup': return signupPage(q('done'));
    case '/tickets': return ticketsPage(state);
    case '/notes': return notesPage(state);
    default: {
      const n = state.notes.find((x) => url.pathname === `/notes/${x.id}/edit`);
      if (n) return noteEditPage(n, q('saved') === '1');
      const t = state.tickets.find((x) => url.pathname === `/tickets/${x.id}`);
      return t ? ticketPage(t, q('saved') === '1') : null;
    }
  }
}

export async function startShapesServer(): Promise<ShapesServer> {
  let state = seededState();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'POST' && url.pathname === '/__reset') {
        state = seededState();
        res.writeHead(204);
        return void res.end();
      }
      if (url.pathname === '/__state') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(state));
      }
      const edit = /^\/tickets\/([0-9a-f]+)\/edit$/.exec(url.pathname);
      if (req.method === 'POST' && edit) return editTicket(state, edit[1]!, await formOf(req), res);
      const note = /^\/notes\/(\d+)\/edit$/.exec(url.pathname);
      if (req.method === 'POST' && note) return editNote(state, Number(note[1]), await formOf(req), res);
      const post = req.method === 'POST' ? POSTS[url.pathname] : undefined;
      if (post) return post(state, await formOf(req), res);
      const body = req.method === 'GET' ? page(state, url) : null;
      if (body === null) return html(res, '<!doctype html><title>Not found</title><h1>Not found</h1>', 404);
      html(res, body);
    })().catch((err: unknown) => html(res, `<!doctype html><title>Error</title><pre>${String(err)}</pre>`, 500));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('real-shapes: the server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
