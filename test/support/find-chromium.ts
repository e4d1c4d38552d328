/**
 * Which Chromium or Chrome the benchmark, the demo (`npm start`) and the
 * e2e tests drive: CHROMIUM_PATH when set, else the first of the usual
 * install paths that exists. None: one line that says how to get one.
 */
import { existsSync } from 'node:fs';

export const USUAL_CHROMIUM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
] as const;

/** No browser to drive; its message is the one line to print (no stack trace). */
export class ChromiumNotFoundError extends Error {
  override name = 'ChromiumNotFoundError';
}

const HOW = 'install one (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH=/path/to/chrome';

export function findChromium(env: Readonly<Record<string, string | undefined>> = process.env, exists: (path: string) => boolean = existsSync): string {
  const chosen = env['CHROMIUM_PATH'];
  if (chosen !== undefined && chosen !== '') {
    if (exists(chosen)) return chosen;
    throw new ChromiumNotFoundError(`CHROMIUM_PATH=${chosen} does not exist: ${HOW}.`);
  }
  const found = USUAL_CHROMIUM_PATHS.find((p) => exists(p));
  if (found !== undefined) return found;
  throw new ChromiumNotFoundError(`No Chromium or Chrome found (CHROMIUM_PATH is not set; looked in ${USUAL_CHROMIUM_PATHS.join(', ')}): ${HOW}.`);
}

/** The browser a CLI's error handler prints in one line, by name (instanceof fails across module copies). */
export const isChromiumNotFound = (err: unknown): err is ChromiumNotFoundError => err instanceof Error && err.name === 'ChromiumNotFoundError';
