/**
 * Pins exploration off through the real settings messages — JitRL's λ = 0
 * and the proposal by argmax instead of a Softmax(z′/T) draw — for e2e tests
 * that script the top candidate's path or assert the direction of a logit
 * adjustment: with the defaults an unseen candidate is occasionally made
 * optimistic (Eq. 6) and the proposal is sampled, which is correct behaviour
 * but not what such a test checks.
 */
import type { Page } from 'playwright-core';

export async function disableExploration(extensionPage: Page): Promise<void> {
  await extensionPage.evaluate(async () => {
    const got = (await chrome.runtime.sendMessage({ type: 'settings.get' })) as { ok: boolean; value: { learners?: Record<string, Record<string, unknown>>; agent: Record<string, unknown> } };
    if (!got.ok) throw new Error('settings.get failed');
    const learners = got.value.learners ?? {};
    const settings = { ...got.value, learners: { ...learners, jitrl: { ...(learners['jitrl'] ?? {}), lambda: 0 } }, agent: { ...got.value.agent, selection: 'argmax' } };
    const set = (await chrome.runtime.sendMessage({ type: 'settings.set', settings })) as { ok: boolean };
    if (!set.ok) throw new Error('settings.set failed');
  });
}
