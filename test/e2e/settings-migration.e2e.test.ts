/**
 * Settings stored by the version before JitRL and CER became ordinary registry
 * learners, in the built extension: the options page shows them in the new
 * places (JitRL's and CER's sections, the policy group) with the same values,
 * says which bad stored value it replaced, and the next save writes only the
 * new shape.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';

let browser: ExtensionBrowser;
let ui: Page;

/** A previous version's entry: JitRL's group held the policy's temperature and candidate count. */
const OLD_ENTRY = {
  provider: { preset: 'offline', baseUrl: '', apiKey: '', model: '', logitMode: 'auto', timeoutMs: 60_000 },
  jitrl: {
    gamma: 0.25, k: 6, useTopK: true, threshold: 0.8, thresholdFloor: 0.8, thresholdDecaySteps: 10, taskFloor: 0.27,
    stateWeight: 0.7, taskWeight: 0.3, lambda: 0.05, alpha: 1, beta: 1.25, preferSameUrl: true, normalization: 'max-positive',
    advantageFloor: 1, temperature: 0.4, numCandidates: 4, bars: true, exploitSettled: false, widenPool: true, loopBars: true,
    learnCorrections: true, enabled: true,
  },
  rewards: { approve: 0.2, reject: -1, success: 1, failure: -1, partial: 0.3, evaluatorWeight: 0.5 },
  cer: { enabled: false, successOnly: false, topDynamics: 2, topSkills: 5, maxEntriesPerSite: 200 },
  agent: { maxSteps: 0, askModes: { 'https://shop.test': 'off', 'http://127.0.0.1:8080': 'unapproved-only' }, approvalsNeeded: 2, alwaysAsk: [], observationChars: 12_000, seed: 0, selection: 'sampling', samplingTemperature: 1, tokenBudgetPerSite: 0 },
};

beforeAll(async () => {
  browser = await launchWithExtension();
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/options/index.html`);
  await ui.evaluate((entry) => chrome.storage.local.set({ 'apprentice.settings': entry }), OLD_ENTRY);
  await ui.reload();
});

afterAll(async () => {
  await browser?.close();
});

describe('settings from the previous version in the built extension', () => {
  it('show in their new places with the same values; a bad one is named; saving writes the new shape', async () => {
    // The learners' settings sit under Advanced (issue 31).
    await ui.getByText('Advanced: how Apprentice learns', { exact: false }).click();
    const jitrl = ui.getByRole('group', { name: 'JitRL settings' });
    await expect.poll(() => jitrl.getByLabel("How strongly memory moves the model's choice").inputValue()).toBe('1.25');
    expect(await jitrl.getByLabel('Neighbours kept').inputValue()).toBe('6');
    expect(await jitrl.getByLabel('How advantages are scaled').inputValue()).toBe('max-positive');
    expect(await jitrl.getByLabel('Repeat outright what worked in this very state (our addition)').isChecked()).toBe(false);
    const cer = ui.getByRole('group', { name: 'CER settings' });
    expect(await cer.getByLabel('Use CER').isChecked()).toBe(false);
    expect(await cer.getByLabel('Dynamics entries replayed').inputValue()).toBe('2');
    const policy = ui.getByRole('group', { name: 'Policy: how candidates are asked for' });
    expect(await policy.getByLabel('Model temperature').inputValue()).toBe('0.4');
    expect(await policy.getByLabel('Candidates asked of the model').inputValue()).toBe('4');
    // The per-site ask modes load into their table, first on the page (issue 31).
    // (Storage keeps no key order, so neither does this check.)
    const rows: Record<string, string> = {};
    for (const i of [1, 2]) rows[await ui.getByLabel(`Site ${i}`, { exact: true }).inputValue()] = await ui.getByLabel(`Asking on site ${i}`).inputValue();
    expect(rows).toEqual(OLD_ENTRY.agent.askModes);
    expect(await ui.getByLabel('Site 3', { exact: true }).count()).toBe(0);
    // maxSteps 0 was never valid: the default stands in, and the page says so.
    expect(await ui.getByLabel('Max steps per episode').inputValue()).toBe('15');
    expect(await ui.getByRole('list', { name: 'Settings reset on load' }).getByRole('listitem').allTextContents()).toEqual([
      'agent.maxSteps: the stored value 0 is not valid (Too small: expected number to be >0); using the default 15',
      // Sampling at T = 1 was that version's default (issue 31): the panel now proposes the likeliest.
      'agent.selection: proposals are now the likeliest candidate, the new default; the stored sampling at T = 1 was the old default (choose sampling again to explore)',
    ]);

    await ui.getByRole('button', { name: 'Save', exact: true }).click();
    await ui.getByText('Saved.').waitFor();
    const stored = (await ui.evaluate(() => chrome.storage.local.get('apprentice.settings')))['apprentice.settings'] as Record<string, unknown>;
    expect(Object.keys(stored).sort()).toEqual(['agent', 'learners', 'policy', 'provider', 'revision', 'rewards']);
    expect(stored['revision']).toBe(2);
    expect((stored['agent'] as { selection: string }).selection).toBe('likeliest');
    expect(stored['policy']).toEqual({ temperature: 0.4, numCandidates: 4 });
    const learners = stored['learners'] as Record<string, Record<string, unknown>>;
    const { temperature: _t, numCandidates: _n, ...jitrlOwn } = OLD_ENTRY.jitrl;
    expect(learners['jitrl']).toEqual(jitrlOwn);
    expect(learners['cer']).toEqual(OLD_ENTRY.cer);
    expect((stored['agent'] as { maxSteps: number }).maxSteps).toBe(15);
    expect((stored['agent'] as { askModes: unknown }).askModes).toEqual(OLD_ENTRY.agent.askModes);
    expect(await ui.getByRole('list', { name: 'Settings reset on load' }).count()).toBe(0);
  });
});
