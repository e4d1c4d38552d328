/**
 * Serves each of the suite's sites on its own 127.0.0.1 origin (so memory
 * keyed by origin separates them, as on the real web). A site is a folder with
 * an `index.html` shell and an `app.js` that routes on `location.pathname`;
 * any path without a file gets the shell, so id-bearing URLs such as
 * `/product/104` or `/customer/edit/7` are real, bookmarkable pages.
 * `/common/*` is shared by all sites.
 */
import { extname, resolve } from 'node:path';
import { startStaticServer } from '../../../test/support/static-server.ts';

const SITES_DIR = resolve(import.meta.dirname, 'sites');

export const SITE_NAMES = ['shop', 'forum', 'admin', 'settings'] as const;
export type SiteName = (typeof SITE_NAMES)[number];

export interface SiteServers {
  origins: Record<SiteName, string>;
  close(): Promise<void>;
}

const serveSite = (site: SiteName) =>
  startStaticServer(SITES_DIR, {
    rewrite: (path) => (path.startsWith('/common/') ? path : `/${site}${path}`),
    // Asset-looking paths that do not exist are real 404s; page paths get the shell.
    fallback: (path) => (extname(path) === '' || extname(path) === '.html' ? `/${site}/index.html` : null),
  });

export async function startSites(): Promise<SiteServers> {
  const started = await Promise.all(SITE_NAMES.map(serveSite));
  const origins = Object.fromEntries(SITE_NAMES.map((name, i) => [name, started[i]!.origin])) as Record<SiteName, string>;
  return { origins, close: async () => void (await Promise.all(started.map((s) => s.close()))) };
}
