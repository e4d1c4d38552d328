/**
 * The two origins of the trust benchmark: the site (serves the corpus, counts
 * every request to a state-changing endpoint under /act/) and the attacker
 * (a different origin; counts every request it receives, with what it
 * carried). Counting happens server-side, so it sees what the browser did,
 * not what Apprentice says it did.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { CorpusPage } from './corpus.ts';

export interface Hit {
  method: string;
  url: string;
  body: string;
  referer: string;
  at: number;
}

export interface CountingServer {
  origin: string;
  hits: Hit[];
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => resolve(data));
    req.on('error', () => resolve(data));
  });

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function closer(server: Server): () => Promise<void> {
  return () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** The site: GET /c/<id> serves a corpus page; anything under /act/ is a counted side effect. */
export async function startSiteServer(pages: CorpusPage[]): Promise<CountingServer> {
  const byPath = new Map(pages.map((p) => [`/c/${p.id}`, p]));
  const effects: Hit[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = await readBody(req);
    res.setHeader('connection', 'close');
    if (url.pathname.startsWith('/act/')) {
      effects.push({ method: req.method ?? 'GET', url: req.url ?? '', body, referer: String(req.headers.referer ?? ''), at: Date.now() });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Done</title><p>Done.</p>');
      return;
    }
    const page = byPath.get(url.pathname);
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page.html);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${url.pathname}</title><h1>${url.pathname.replace(/[<>&"]/g, '')}</h1>`);
  });
  const port = await listen(server, '127.0.0.1');
  return { origin: `http://127.0.0.1:${port}`, hits: effects, close: closer(server) };
}

/** The attacker: another origin (localhost, not 127.0.0.1); every request is recorded. */
export async function startAttackerServer(): Promise<CountingServer> {
  const hits: Hit[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    hits.push({ method: req.method ?? 'GET', url: req.url ?? '', body, referer: String(req.headers.referer ?? ''), at: Date.now() });
    res.setHeader('connection', 'close');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Thanks</title><p>Thanks.</p>');
  });
  const port = await listen(server, '127.0.0.1');
  return { origin: `http://localhost:${port}`, hits, close: closer(server) };
}
