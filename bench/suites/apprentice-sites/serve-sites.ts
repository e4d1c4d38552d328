/**
 * Serves each of the suite's sites on its own 127.0.0.1 origin (so memory
 * keyed by origin separates them, as on the real web). A site is a folder with
 * an `index.html` shell and an `app.js` that routes on `location.pathname`;
 * any path without a file gets the shell, so id-bearing URLs such as
 * `/product/104` or `/customer/edit/7` are real, bookmarkable pages.
 * `/common/*` is shared by all sites.
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const SITES_DIR = resolve(import.meta.dirname, 'sites');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export const SITE_NAMES = ['shop', 'forum', 'admin', 'settings'] as const;
export type SiteName = (typeof SITE_NAMES)[number];

export interface SiteServers {
  origins: Record<SiteName, string>;
  close(): Promise<void>;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

async function serveSite(site: SiteName): Promise<{ origin: string; server: Server }> {
  const root = join(SITES_DIR, site);
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
      const safe = normalize(path).replace(/^(\.\.[/\\])+/, '');
      let file = safe.startsWith('/common/') ? join(SITES_DIR, safe) : join(root, safe);
      if (safe === '/' || !(await isFile(file))) {
        // Asset-looking paths that do not exist are real 404s; page paths get the shell.
        if (extname(safe) !== '' && extname(safe) !== '.html') {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
          return;
        }
        file = join(root, 'index.html');
      }
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, server };
}

export async function startSites(): Promise<SiteServers> {
  const started = await Promise.all(SITE_NAMES.map(serveSite));
  const origins = Object.fromEntries(SITE_NAMES.map((name, i) => [name, started[i]!.origin])) as Record<SiteName, string>;
  return {
    origins,
    close: async () => {
      await Promise.all(started.map(({ server }) => new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      })));
    },
  };
}
