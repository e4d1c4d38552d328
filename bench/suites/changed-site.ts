/**
 * A changed-site suite (issues 25 and 35): one of the shipped sites served
 * with a change made at serve time to its app.js. The first attempt of each
 * task and the first instance of each template run on the site as shipped
 * (where a procedure is learned); every later one on the changed site.
 */
import { extname, resolve } from 'node:path';
import { startStaticServer, type StaticServer } from '../../test/support/static-server.ts';
import type { BenchTask, Suite } from '../suite.ts';

const SITES_DIR = resolve(import.meta.dirname, 'apprentice-sites/sites');

export function changedSiteSuite(options: {
  name: string;
  /** The shipped site's folder under apprentice-sites/sites ("shop", "settings"). */
  site: string;
  /** The changed app.js, from the shipped one. */
  change: (source: string) => string;
  tasks: (origin: string) => BenchTask[];
}): Suite {
  const { name, site } = options;
  let server: StaticServer | null = null;
  let changed = false;
  return {
    name,
    async start() {
      server ??= await startStaticServer(SITES_DIR, {
        rewrite: (path) => (path.startsWith('/common/') ? path : `/${site}${path}`),
        fallback: (path) => (extname(path) === '' || extname(path) === '.html' ? `/${site}/index.html` : null),
        transform: (file, body) => (changed && file.endsWith(`/${site}/app.js`) ? options.change(body) : body),
      });
      return { baseUrl: server.origin };
    },
    async stop() {
      await server?.close();
      server = null;
    },
    tasks: () => {
      if (!server) throw new Error(`${name}: start() must run before tasks()`);
      const seen = new Set<string>();
      return options.tasks(server.origin).map((t): BenchTask => {
        const first = !seen.has(t.template ?? t.id);
        seen.add(t.template ?? t.id);
        return {
          ...t,
          setup: async (page, ctx) => {
            // app.js is served without caching on every navigation, so the flag holds from this attempt on.
            changed = ctx.attempt > 1 || !first;
            return t.setup?.(page, ctx);
          },
        };
      });
    },
  };
}
