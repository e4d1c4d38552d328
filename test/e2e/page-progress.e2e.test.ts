/**
 * Order within one page (issue 35 part 4), end to end in headless Chromium:
 * a checkout on one URL where a section expands in place and a dialog opens
 * over the page, with "Place order" visible throughout. The teacher teaches
 * once through the agent's decision path; the next attempt runs alone. The
 * state before "Use this address" and after it, and before "Save note" and
 * after it, differ only in what is open on the page: unless the state holds
 * that, the remembered later step is proposed at the earlier one. Needs
 * dist-inject (`npm run build`); the page is written for this test
 * (test/fixtures/sites/progress/).
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench-runner.ts';
import type { BenchTask, Suite, TeacherStep } from '../../bench/suite.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const STREET = '5 Oak Lane';
const NOTE = 'Happy birthday, Sam';

interface Order { street: string; note: string }
const orderOf = (page: Page) => page.evaluate(() => (globalThis as { __order?: Order }).__order ?? null);

async function teacher(page: Page): Promise<TeacherStep | null> {
  if (await orderOf(page)) return { do: 'stop' };
  if ((await page.textContent('#addr')) !== STREET) {
    if (await page.isHidden('#addr-form')) return { do: 'click', selector: '#change' };
    if ((await page.inputValue('#street')) !== STREET) return { do: 'fill', selector: '#street', text: STREET };
    return { do: 'click', selector: '#use' };
  }
  if ((await page.textContent('#note-shown')) !== `Gift note: ${NOTE}`) {
    if (await page.isHidden('#note-dialog')) return { do: 'click', selector: '#open-note' };
    if ((await page.inputValue('#msg')) !== NOTE) return { do: 'fill', selector: '#msg', text: NOTE };
    return { do: 'click', selector: '#save-note' };
  }
  return { do: 'click', selector: '#place' };
}

let server: StaticServer;
beforeAll(async () => {
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
});
afterAll(async () => {
  await server?.close();
});

const checkout = (): BenchTask => ({
  id: 'checkout.gift',
  startUrl: `${server.origin}/progress/checkout.html`,
  instruction: `Send my order to ${STREET} with the gift note "${NOTE}".`,
  maxSteps: 10,
  reward: async (page) => {
    const order = await orderOf(page);
    return order !== null && order.street === STREET && order.note === NOTE ? 1 : 0;
  },
  done: async (page) => (await orderOf(page)) !== null,
  teacher,
});

describe('a taught order on one URL is kept', () => {
  it('taught once, the next attempt alone takes the steps in the taught order, expanding and opening as it was shown', async () => {
    const suite: Suite = { name: 'page-progress', tasks: () => [checkout()] };
    const result = await runBench({
      suite, learners: ['jitrl+cer'], attempts: 2, policy: 'offline', noise: 0, seed: 0, memory: 'fresh', profile: 'full', taskFilter: '', progress: false, teach: 1,
    });
    const at = (attempt: number) => result.records.find((r) => r.attempt === attempt)!;
    expect([at(1).taught, at(1).outcome]).toEqual([true, 'success']);
    const path = '/progress/checkout.html';
    expect(at(2).actions).toEqual([
      `${path} click(<button "Change address" in group "Delivery address">)`,
      `${path} fill(<textbox "Street" in group "Delivery address">, "${STREET}")`,
      `${path} click(<button "Use this address" in group "Delivery address">)`,
      `${path} click(<button "Add a gift note">)`,
      `${path} fill(<textbox "Message" in dialog "Gift note">, "${NOTE}")`,
      `${path} click(<button "Save note" in dialog "Gift note">)`,
      `${path} click(<button "Place order">)`,
    ]);
    expect([at(2).taught, at(2).outcome]).toEqual([false, 'success']);
  }, 240_000);
});
