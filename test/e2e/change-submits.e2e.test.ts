/**
 * A control whose change submits its form (a filter select, an "archived"
 * checkbox): the navigation starts after the action's events, so the action
 * must wait for it and say it navigated — otherwise the next observation
 * races the navigation and reads the old page (the benign filter-select miss
 * of bench:trust). Real Chromium, the page agent the content script uses, a
 * page written for this test.
 */
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchPlain } from '../support/chromium.ts';
import { actByGrammar, pageAgentCode } from '../support/page-agent-harness.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let server: StaticServer;
let browser: Browser;
let page: Page;
let agentCode: string;

beforeAll(async () => {
  agentCode = await pageAgentCode();
  server = await startStaticServer(`${ROOT}/test/fixtures/sites`);
  browser = await launchPlain();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.addInitScript({ content: agentCode });
  await page.goto(`${server.origin}/actions/change-submits.html`);
});

const act = (text: string) => actByGrammar(page, text);

describe('a change that submits the form', () => {
  it('select_option whose change submits: navigated, and the next page is the result', async () => {
    expect(await act('select_option(<combobox "Status">, "Shipped")')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?status=Shipped');
  });

  it('a checkbox whose change requests a submit: navigated', async () => {
    expect(await act('check(<checkbox "Show archived">)')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?archived=yes');
  });

  it('a submit the change schedules for a moment later: navigated', async () => {
    expect(await act('select_option(<combobox "Sort by">, "Oldest")')).toEqual({ ok: true, navigated: true });
    await page.waitForURL('**/actions/target.html?sort=Oldest');
  });

  it('a change that does not navigate: not navigated, the page reacted', async () => {
    expect(await act('select_option(<combobox "Page size">, "50")')).toEqual({ ok: true, navigated: false });
    expect(await page.textContent('#size-out')).toBe('50');
  });
});
