/**
 * Launches Chromium (CHROMIUM_PATH or the usual install paths) under playwright-core, with or without the built
 * extension, using the flags verified in ../shared/BROWSER-TESTING.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { findChromium } from './find-chromium.ts';

let found: string | null = null;
/** CHROMIUM_PATH, else the first usual install path (find-chromium.ts); throws ChromiumNotFoundError with one line on what to do. */
export function chromiumPath(): string {
  found ??= findChromium();
  return found;
}
export const DIST_DIR = resolve(import.meta.dirname, '../../dist');

export const BASE_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export interface ExtensionBrowser {
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
  userDataDir: string;
  close(): Promise<void>;
}

/** Chromium with dist/ loaded (or `distDir`: another build). A persistent profile is required for extensions. */
export async function launchWithExtension(options: { userDataDir?: string; headless?: boolean; distDir?: string } = {}): Promise<ExtensionBrowser> {
  const dist = options.distDir ?? DIST_DIR;
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'apprentice-e2e-')));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: options.headless ?? true,
    args: [`--disable-extensions-except=${dist}`, `--load-extension=${dist}`, ...BASE_ARGS],
  });
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(serviceWorker.url()).host;
  return {
    context,
    serviceWorker,
    extensionId,
    userDataDir,
    close: async () => {
      await context.close();
      if (!options.userDataDir) await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Plain Chromium (no extension): the benchmark and DOM-level tests. */
export async function launchPlain(options: { headless?: boolean } = {}) {
  return chromium.launch({ executablePath: chromiumPath(), headless: options.headless ?? true, args: BASE_ARGS });
}
