/**
 * Stored data from the previous build loads unchanged (issue 32): a profile is
 * filled by the previous build (APPRENTICE_PREVIOUS_DIST, e.g. main's `dist/`;
 * this build when unset) through the panel's import, exported, and the same
 * profile is then opened by this build, whose export must be the same
 * archive: every transition, CER experience, learner record and episode, as
 * the previous build had them. The extension's pinned key keeps one id, so
 * both builds open the same IndexedDB.
 */
import { readFileSync } from 'node:fs';
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIST_DIR, launchWithExtension } from '../support/chromium.ts';
import { messagesFrom } from '../support/extension-messaging.ts';

const PREVIOUS = process.env.APPRENTICE_PREVIOUS_DIST ? resolve(process.env.APPRENTICE_PREVIOUS_DIST) : DIST_DIR;
const FIXTURE = readFileSync(new URL('../fixtures/archives/export-before-registry-memory.json', import.meta.url), 'utf8');

type Archive = { exportedAt?: number; transitions: unknown[]; experiences: unknown[]; episodes: unknown[]; learners?: Record<string, unknown> };

/**
 * A copy of a build that says which one it is, in its pages and in its worker, so the test checks
 * which build the profile really runs. The later build gets a higher version: Chromium keeps an
 * installed extension's worker until the version changes, as the store's update does.
 */
async function markedCopy(distDir: string, marker: string, versionSuffix: string, dir: string): Promise<string> {
  await rm(dir, { recursive: true, force: true });
  await cp(distDir, dir, { recursive: true });
  await writeFile(join(dir, 'build-marker.txt'), marker);
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { version: string; background: { service_worker: string } };
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, version: `${manifest.version}${versionSuffix}` }));
  await appendFile(join(dir, manifest.background.service_worker), `\nself.buildMarker = ${JSON.stringify(marker)};\n`);
  return dir;
}

async function exportWith(distDir: string, userDataDir: string, fill: boolean, marker: string, versionSuffix: string): Promise<Archive> {
  // One install path for both builds: an update replaces the files where they are.
  const copy = await markedCopy(distDir, marker, versionSuffix, `${userDataDir}-extension`);
  const browser = await launchWithExtension({ userDataDir, distDir: copy });
  try {
    // Chromium may first start the worker it had registered; the update's worker replaces it.
    const markers = async () => Promise.all(browser.context.serviceWorkers().map((w) => w.evaluate(() => (self as unknown as { buildMarker?: string }).buildMarker).catch(() => null)));
    for (let i = 0; i < 40 && !(await markers()).includes(marker); i++) await new Promise((r) => setTimeout(r, 250));
    expect(await markers()).toContain(marker);
    const ui = await browser.context.newPage();
    await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
    expect(await ui.evaluate(async () => (await fetch(chrome.runtime.getURL('build-marker.txt'))).text())).toBe(marker);
    const { request } = messagesFrom(() => ui);
    if (fill) await request({ type: 'memory.import', json: FIXTURE });
    const { json } = await request<{ json: string }>({ type: 'memory.export' });
    const { exportedAt: _at, ...archive } = JSON.parse(json) as Archive;
    return archive;
  } finally {
    await browser.close();
    await rm(copy, { recursive: true, force: true });
  }
}

let profile = '';
afterAll(async () => {
  if (profile) for (const dir of [profile, `${profile}-extension`, `${profile}-next-extension`]) await rm(dir, { recursive: true, force: true });
});

describe('a profile made by the previous build', () => {
  it(`loads unchanged in this build (previous: ${PREVIOUS === DIST_DIR ? 'this build' : PREVIOUS})`, async () => {
    profile = await mkdtemp(join(tmpdir(), 'apprentice-upgrade-'));
    const before = await exportWith(PREVIOUS, profile, true, 'previous', '');
    // The profile holds every kind of learned data the fixture carries.
    const given = JSON.parse(FIXTURE) as Archive;
    expect([before.transitions.length, before.experiences.length, before.episodes.length]).toEqual([given.transitions.length, given.experiences.length, given.episodes.length]);
    expect(Object.keys(before.learners ?? {}).length).toBeGreaterThan(0);
    // Chromium keeps an unpacked extension's registered worker whatever the files say, so this build opens
    // the previous build's stores (IndexedDB, chrome.storage) in a profile of its own.
    const next = `${profile}-next`;
    for (const part of ['IndexedDB', 'Local Extension Settings']) {
      await cp(join(profile, 'Default', part), join(next, 'Default', part), { recursive: true });
    }
    const after = await exportWith(DIST_DIR, next, false, 'current', '.1').finally(() => rm(next, { recursive: true, force: true }));
    expect(after).toEqual(before);
  }, 180_000);
});
