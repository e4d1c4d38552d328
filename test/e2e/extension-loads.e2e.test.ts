/** Meta-test of the build itself: the built manifest is valid MV3 and the extension loads in Chromium. */
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST_DIR, launchWithExtension } from '../support/chromium.ts';
import { startStaticServer } from '../support/static-server.ts';

const manifest = JSON.parse(readFileSync(join(DIST_DIR, 'manifest.json'), 'utf8')) as Record<string, unknown> & {
  background: { service_worker: string; type: string };
  content_scripts: { matches: string[]; js: string[] }[];
  permissions: string[];
  host_permissions: string[];
  side_panel: { default_path: string };
  action: { default_popup: string };
  options_page: string;
  commands: Record<string, unknown>;
  key: string;
  web_accessible_resources?: { resources: string[]; matches: string[] }[];
};

describe('built manifest', () => {
  it('is Manifest V3 with a module service worker, content script, popup, side panel and options', () => {
    expect(manifest['manifest_version']).toBe(3);
    expect(manifest.background.type).toBe('module');
    for (const path of [manifest.background.service_worker, manifest.side_panel.default_path, manifest.action.default_popup, manifest.options_page]) {
      expect(existsSync(join(DIST_DIR, path)), path).toBe(true);
    }
    expect(manifest.content_scripts[0]?.matches).toEqual(['http://*/*', 'https://*/*']);
    for (const js of manifest.content_scripts[0]?.js ?? []) expect(existsSync(join(DIST_DIR, js))).toBe(true);
    expect(Object.keys(manifest.commands)).toContain('open-side-panel');
    expect(manifest.key.length).toBeGreaterThan(100);
  });

  it('asks only for the permissions docs/security.md justifies', () => {
    expect([...manifest.permissions].sort()).toEqual(['alarms', 'scripting', 'sidePanel', 'storage', 'tabs', 'unlimitedStorage']);
    expect(manifest.permissions).not.toContain('<all_urls>');
    expect(manifest.permissions).not.toContain('debugger');
    expect(manifest.permissions).not.toContain('webRequest');
  });

  it('loads into Chromium with a stable extension id', async () => {
    const a = await launchWithExtension();
    const id1 = a.extensionId;
    await a.close();
    const b = await launchWithExtension();
    expect(b.extensionId).toBe(id1);
    expect(b.serviceWorker.url()).toContain(manifest.background.service_worker.replace(/^\//, ''));
    await b.close();
  });
});

describe('exposure: what a page can learn about Apprentice', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [relative(DIST_DIR, join(dir, f))]));

  it('lists no web-accessible resource, and the content scripts are classic scripts that load nothing', () => {
    expect(manifest.web_accessible_resources).toBeUndefined();
    for (const script of manifest.content_scripts) {
      for (const js of script.js) {
        const src = readFileSync(join(DIST_DIR, js), 'utf8');
        expect(src, js).not.toMatch(/\bimport\s*\(|chrome\.runtime\.getURL\(/);
      }
    }
  });

  it('a page fetches no file of the extension, while the content script still answers', async () => {
    const server = await startStaticServer(resolve(import.meta.dirname, '../fixtures/sites'));
    const ext = await launchWithExtension();
    try {
      const page = await ext.context.newPage();
      await page.goto(`${server.origin}/form.html`);
      const tabId = await ext.serviceWorker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]?.id ?? -1, `${server.origin}/form.html`);
      const ping = (await ext.serviceWorker.evaluate((id) => chrome.tabs.sendMessage(id, { type: 'page.ping' }), tabId)) as { ok: boolean; value: { url: string } };
      expect(ping.ok).toBe(true);
      expect(ping.value.url).toBe(`${server.origin}/form.html`);
      // Every built file, probed the way a fingerprinting script would.
      const probes = files(DIST_DIR).map((f) => `chrome-extension://${ext.extensionId}/${f.split('\\').join('/')}`);
      expect(probes.length).toBeGreaterThan(10);
      const reachable = await page.evaluate(async (urls) => {
        const out: string[] = [];
        for (const url of urls) {
          try {
            await fetch(url);
            out.push(url);
          } catch {
            /* blocked: not web-accessible */
          }
        }
        return out;
      }, probes);
      expect(reachable).toEqual([]);
    } finally {
      await ext.close();
      await server.close();
    }
  });
});
