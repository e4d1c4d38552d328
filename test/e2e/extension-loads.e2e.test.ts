/** Meta-test of the build itself: the built manifest is valid MV3 and the extension loads in Chromium. */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST_DIR, launchWithExtension } from '../support/chromium.ts';

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

  it('asks only for the permissions the README justifies', () => {
    expect([...manifest.permissions].sort()).toEqual(['scripting', 'sidePanel', 'storage', 'tabs', 'unlimitedStorage']);
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
