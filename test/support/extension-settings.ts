/**
 * Pins JitRL's exploration off (λ = 0) through the real settings messages,
 * for e2e tests that assert the direction of a logit adjustment: with the
 * default λ = 0.05 an unseen candidate is occasionally made optimistic
 * (Eq. 6), which is correct behaviour but not what such a test checks.
 */
import type { Page } from 'playwright-core';

export async function disableExploration(extensionPage: Page): Promise<void> {
  await extensionPage.evaluate(async () => {
    const got = (await chrome.runtime.sendMessage({ type: 'settings.get' })) as { ok: boolean; value: { jitrl: Record<string, unknown> } };
    if (!got.ok) throw new Error('settings.get failed');
    const settings = { ...got.value, jitrl: { ...got.value.jitrl, lambda: 0 } };
    const set = (await chrome.runtime.sendMessage({ type: 'settings.set', settings })) as { ok: boolean };
    if (!set.ok) throw new Error('settings.set failed');
  });
}
