/**
 * Serves a directory on 127.0.0.1 with an ephemeral port (content scripts do
 * not run on file://). Used by e2e tests, the demo and the benchmark suite.
 */
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticServer {
  origin: string;
  port: number;
  close(): Promise<void>;
}

/**
 * `rewrite` maps a request path to a path under `rootDir` (several sites in
 * one folder); `fallback` maps a path that has no file to one that does, so
 * SPA-style and id-bearing routes (`/product/123`) can serve one template.
 */
export async function startStaticServer(
  rootDir: string,
  options: {
    port?: number;
    rewrite?: (path: string) => string;
    fallback?: (path: string) => string | null;
    /** Changes a served file's text (a changed copy of a site, made at serve time). */
    transform?: (file: string, body: string) => string;
  } = {},
): Promise<StaticServer> {
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let path = decodeURIComponent(url.pathname);
      if (path.endsWith('/')) path += 'index.html';
      if (options.rewrite) path = options.rewrite(path);
      const resolve = (p: string) => join(rootDir, normalize(p).replace(/^(\.\.[/\\])+/, ''));
      let file = resolve(path);
      const exists = await stat(file).then((s) => s.isFile(), () => false);
      if (!exists) {
        const alt = options.fallback?.(path) ?? null;
        if (alt === null) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          res.end('not found');
          return;
        }
        file = resolve(alt);
      }
      const raw = await readFile(file);
      const body = options.transform ? options.transform(file, raw.toString('utf8')) : raw;
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(body);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((ok) => server.listen(options.port ?? 0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    // Browsers keep connections alive; close them, or close() waits for their timeout.
    close: () => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}
