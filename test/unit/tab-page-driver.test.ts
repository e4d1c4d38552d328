/**
 * The tab driver's failure modes: an action nobody received did not run (it
 * is not a navigation), a page that never answers times out, and secret
 * values never leave the driver.
 */
import { describe, expect, it } from 'vitest';
import { createTabPageDriver } from '../../src/adapters/chrome/tab-page-driver.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';

const observation: PageObservation = {
  url: 'https://shop.test/', title: 'Shop', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [{ ref: '1', kind: 'interactive', role: 'textbox', name: 'Card', autocomplete: 'cc-number', value: '4111111111111111', states: {}, depth: 0, inViewport: true }],
};

function driver(onAct: () => Promise<unknown>, onObserve: () => Promise<unknown> = async () => ({ ok: true, value: observation }), onPing: () => Promise<unknown> = async () => ({ ok: true, value: { url: 'https://shop.test/' } }), formKey?: () => Promise<string>) {
  const tabs = {
    async get() {
      return { status: 'complete', url: 'https://shop.test/' };
    },
    async sendMessage(_tabId: number, message: unknown) {
      const type = (message as { type: string }).type;
      if (type === 'page.ping') return onPing();
      if (type === 'page.observe') return onObserve();
      return onAct();
    },
  };
  return createTabPageDriver({ tabId: 1, tabs, scripting: { executeScript: async () => undefined }, contentScriptFiles: [], timeoutMs: 200, ...(formKey ? { formKey } : {}) });
}

const click = { type: 'click' as const, target: { kind: 'ref' as const, ref: '1' } };

describe('createTabPageDriver', () => {
  it('"Receiving end does not exist" on page.act means the action was not run, never a navigation', async () => {
    const result = await driver(async () => {
      throw new Error('Could not establish connection. Receiving end does not exist.');
    }).act(click);
    expect(result).toEqual({ ok: false, code: 'no_page', message: 'the page did not receive the action; it was not run' });
  });

  it('a channel closed after delivery is a navigation', async () => {
    const result = await driver(async () => {
      throw new Error('The message port closed before a response was received.');
    }).act(click);
    expect(result).toEqual({ ok: true, navigated: true, note: 'the page navigated' });
  });

  it('an action that never answers times out with an unknown outcome', async () => {
    const result = await driver(() => new Promise(() => {})).act(click);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.code).toBe('timeout');
  });

  it('an observation that never answers times out', async () => {
    await expect(driver(async () => ({}), () => new Promise(() => {})).observe({})).rejects.toThrow(/observing the page took longer/);
  });

  it('a page whose main thread hangs (the first check-in never answers) pauses with a message instead of waiting forever', async () => {
    const hung = driver(async () => ({}), async () => ({ ok: true, value: observation }), () => new Promise(() => {}));
    await expect(hung.observe({})).rejects.toThrow(/Paused: the page in tab 1 does not respond \(https:\/\/shop\.test\/\); its scripts may be busy or stuck/);
    await expect(hung.observe({})).rejects.toMatchObject({ name: 'PageUnavailableError' });
  });

  it('masks payment values before the observation leaves the driver', async () => {
    const got = await driver(async () => ({})).observe({});
    expect(got.nodes[0]!.value).toBe('{payment}');
  });

  it('keys the secret values a form sends under the install key (issue 30)', async () => {
    const sha = 'f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7';
    const withForm: PageObservation = { ...observation, nodes: [{ ref: '2', kind: 'interactive', role: 'button', name: 'Go', states: {}, depth: 0, inViewport: true, submits: true, formData: [{ name: 'pw', value: `{password}#${sha}` }] }] };
    const got = await driver(async () => ({}), async () => ({ ok: true, value: withForm }), undefined, async () => 'install-key').observe({});
    expect(got.nodes[0]!.formData).toEqual([{ name: 'pw', value: '{password}~da6f28b73df2ecbd' }]);
  });
});
