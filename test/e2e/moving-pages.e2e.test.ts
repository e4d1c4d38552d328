/**
 * Pages that move under the agent (issue 34), through the page agent the
 * content script uses, in real Chromium: a form whose controls a script
 * replaces after load, a custom dropdown whose options render in an overlay
 * at the end of <body>, a button that no pointer can reach. Pages written
 * for this test (test/fixtures/sites/moving/).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult } from '../../src/core/page/action.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { resolveSemanticAction } from '../../src/core/page/semantic-action.ts';
import { actionFingerprint } from '../../src/core/page/target-fingerprint.ts';
import { launchPlain } from '../support/chromium.ts';
import { observeSettled, pageAgentCode } from '../support/page-agent-harness.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

let browser: Browser;
let server: StaticServer;
let agentCode: string;
let page: Page;

beforeAll(async () => {
  agentCode = await pageAgentCode();
  server = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  browser = await launchPlain();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string): Promise<void> {
  await page?.close();
  page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  await page.addInitScript({ content: agentCode });
  await page.goto(`${server.origin}/moving/${path}`);
}

/** As the agent does it: read the settled page, resolve the action there, and run it as approved (with its fingerprint). */
async function step(text: string, observation?: PageObservation): Promise<ActionResult> {
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  const seen = observation ?? (await observeSettled(page));
  const resolved = resolveSemanticAction(parsed.action, seen);
  if (!resolved.ok) throw new Error(resolved.message);
  const expect = actionFingerprint(resolved.action, seen) ?? null;
  return page.evaluate(({ a, e }) => globalThis.__apprentice!.act(a, e ?? undefined), { a: resolved.action, e: expect });
}

describe('a page that is still changing', () => {
  it('is read once its script has replaced the form: the fill lands on the new control', async () => {
    await open('hydrating-form.html');
    const result = await step('fill(<textbox "Display name">, "Ada")');
    expect(result).toMatchObject({ ok: true });
    expect(await page.inputValue('#display[data-hydrated]')).toBe('Ada');
  });

  it('is read once its script\'s requests to its own origin have come back and it rendered what they loaded', async () => {
    await open('loading-list.html');
    const observation = await observeSettled(page);
    // Five requests 100 ms apart, no DOM change until the last: a wait on mutations alone read the empty list.
    expect(observation.nodes.filter((n) => n.role === 'button' && n.name === 'Invite member')).toHaveLength(1);
  });

  it('is read after at most 1.5 s when it never stops changing, and the snapshot says so', async () => {
    await open('hydrating-form.html?forever');
    const started = Date.now();
    const observation = await observeSettled(page);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(observation.omissions).toContainEqual(expect.stringMatching(/^the page was still changing after 1\.[5-9] s; this snapshot may be out of date$/));
  });
});

describe('a custom dropdown whose options render in an overlay at the end of <body>', () => {
  it('opens over its control and takes the click on an option that closes it: both approved clicks run', async () => {
    await open('overlay-dropdown.html');
    // The overlay opens on mousedown, over the control: the control's own popup (aria-controls) is under the pointer.
    expect(await step('click(<combobox "Edit">)')).toMatchObject({ ok: true });
    expect(await page.getAttribute('#edit', 'aria-expanded')).toBe('true');
    // The option is chosen on mouseup and the overlay goes: what is under the pointer then was not pressed.
    expect(await step('click(<option "Allow only administrators">)')).toMatchObject({ ok: true });
    expect(await page.inputValue('#edit-value')).toBe('sysop');
    expect(await page.textContent('#edit')).toBe('Allow only administrators');
  });

  it('takes an approved select_option, which opens the popup and clicks the option in it', async () => {
    await open('overlay-dropdown.html');
    expect(await step('select_option(<combobox "Edit">, "Allow only administrators")')).toMatchObject({ ok: true });
    expect(await page.inputValue('#edit-value')).toBe('sysop');
  });

  it('still refuses a cover that is not the control\'s popup', async () => {
    await open('overlay-dropdown.html');
    const result = await step('click(<button "Notify watchers">)');
    expect(result).toMatchObject({ ok: false, code: 'not_run' });
    expect(!result.ok && result.message).toMatch(/^<div.notice "Subscribe to our newsletter"> is under the pointer at the click point now, not <button#notify "Notify watchers">; not clicked$/);
  });
});

describe('a control no pointer can reach', () => {
  it('is marked in the snapshot with what covers it; the control on top is not', async () => {
    await open('covered-search.html');
    const observation = await observeSettled(page);
    const byName = (name: string) => observation.nodes.find((n) => n.role === 'button' && n.name === name);
    expect(byName('Search')?.coveredBy).toBe('button.icon "Go"');
    expect(byName('Go')?.coveredBy).toBeUndefined();
    expect(observation.nodes.filter((n) => n.coveredBy !== undefined)).toHaveLength(1);
    const result = await step('click(<button "Search">)', observation);
    expect(result).toMatchObject({ ok: false, code: 'obscured' });
  });
});

describe('an autocomplete list that opened while typing', () => {
  for (const [variant, role] of [['', 'combobox'], ['?unnamed', 'textbox']] as const) {
    it(`is closed before a following Enter, which then submits the field${variant ? ' (a list the field does not name)' : ''}`, async () => {
      await open(`autocomplete.html${variant}`);
      expect(await step(`fill(<${role} "Quick search">, "#3")`)).toMatchObject({ ok: true });
      expect(await page.isVisible('#suggestions')).toBe(true);
      const submitted = page.waitForURL(/\/moving\/saved\.html\?q=%233$/, { timeout: 5_000 });
      // The result may not come back: the submit ends the document the page agent runs in.
      const result = await step(`press(<${role} "Quick search">, "Enter")`).catch(() => null);
      await submitted;
      if (result?.ok && result.note !== undefined) expect(result.note).toMatch(/^closed the field's autocomplete list \(Escape\) before pressing Enter/);
    });
  }
});

describe('a field of lines whose Enter sends (a chat box)', () => {
  it('is marked multiline, and a line break typed there is a new line, not an Enter: nothing is sent', async () => {
    await open('chat-notes.html');
    const seen = await observeSettled(page);
    expect(seen.nodes.filter((n) => n.role === 'textbox').map((n) => [n.name, n.multiline ?? false])).toEqual([['Subject', false], ['Message', true]]);
    expect(await step('fill(<textbox "Message">, "line one\\nline two")', seen)).toMatchObject({ ok: true });
    expect(await page.inputValue('#message')).toBe('line one\nline two');
    expect(await page.locator('#sent li').count()).toBe(0);
  });

  it('holding one line, an approved whole text that adds a line after it is kept as the appended line', async () => {
    await open('chat-notes.html');
    await page.fill('#message', 'line one');
    const result = await step('fill(<textbox "Message">, "line one\\nline two")');
    expect(result).toMatchObject({ ok: true, edit: { text: '\nline two', change: { kind: 'append' } } });
    expect(await page.inputValue('#message')).toBe('line one\nline two');
  });
});

describe('a list the previous step opened, filled a moment later', () => {
  const row = { kind: 'semantic', role: 'button', name: 'Remove', context: [{ role: 'row', name: 'Grace Hopper' }] } as const;
  const read = (waitFor: object | null) =>
    page.evaluate((w) => globalThis.__apprentice!.observeSettled({ maxChars: 200_000, waitFor: w as never }), waitFor);
  const shows = (o: PageObservation) => o.nodes.some((n) => n.name === 'Remove' && n.context?.[0]?.name === 'Grace Hopper');

  it('without a target to wait for, the page is read before the rows arrive', async () => {
    await open('late-list.html');
    expect(await step('click(<button "Show members">)')).toMatchObject({ ok: true });
    expect(shows(await read(null))).toBe(false);
  });

  it("waiting for the plan's next target, the page is read once the row shows, and the replayed step runs there", async () => {
    await open('late-list.html');
    expect(await step('click(<button "Show members">)')).toMatchObject({ ok: true });
    const seen = await read(row);
    expect(shows(seen)).toBe(true);
    expect(await step('click(<button "Remove" in row "Grace Hopper">)', seen)).toMatchObject({ ok: true });
    expect(await page.textContent('#removed')).toBe('Removed Grace Hopper');
  });

  it('gives up after 2.5 s when the target never shows, and the snapshot says what it waited for', async () => {
    await open('late-list.html?delay=60000');
    expect(await step('click(<button "Show members">)')).toMatchObject({ ok: true });
    const started = Date.now();
    const seen = await read(row);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(shows(seen)).toBe(false);
    expect(seen.omissions).toContainEqual(expect.stringMatching(/^waited \d+ ms for <button "Remove" in row "Grace Hopper">; it did not appear$/));
  });
});
