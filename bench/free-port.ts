/**
 * A free TCP port on loopback, for a server a benchmark or a test starts
 * (the real applications, the team-memory test server): the OS picks one,
 * and it is handed back as soon as it is known.
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}
