/**
 * The background plumbing of demonstrations with plain objects for chrome:
 * who may send a recorded step, the validation of steps on receipt, and
 * switching recording on in a tab whose content script is not there yet.
 */
import { describe, expect, it } from 'vitest';
import { contentSenderTab, createContentHandlers, createTabDemonstrationPage } from '../../src/background/demonstrations.ts';
import type { RecordedAction } from '../../src/core/agent/demonstration-recorder.ts';
import { dispatchContentRequest } from '../../src/protocol/validate.ts';

const EXT = 'abcdefghijklmnopabcdefghijklmnop';

describe('contentSenderTab', () => {
  it('accepts only our content script in the top frame of an http(s) tab', () => {
    const ok = { id: EXT, url: 'http://127.0.0.1:8080/form.html', frameId: 0, tab: { id: 4 } };
    expect(contentSenderTab(ok, EXT)).toBe(4);
    expect(contentSenderTab({ ...ok, id: 'another-extension' }, EXT)).toBeNull();
    expect(contentSenderTab({ ...ok, tab: undefined }, EXT)).toBeNull(); // an extension page, not a content script
    expect(contentSenderTab({ ...ok, frameId: 3 }, EXT)).toBeNull();
    expect(contentSenderTab({ ...ok, url: `chrome-extension://${EXT}/src/ui/sidepanel/index.html` }, EXT)).toBeNull();
  });
});

describe('demo.step on receipt', () => {
  const recorded: [number, RecordedAction][] = [];
  const handlers = createContentHandlers(async () => ({
    record: async (tabId: number, step: RecordedAction) => {
      recorded.push([tabId, step]);
      return null as never;
    },
  }));
  const ctx = { tabId: 4, senderUrl: 'http://127.0.0.1:8080/form.html' };

  it('records a valid step for the sender tab', async () => {
    const reply = await dispatchContentRequest(handlers, { type: 'demo.step', action: 'click(<button "Sign up">)', url: 'http://127.0.0.1:8080/form.html', title: 'Form' }, ctx);
    expect(reply).toEqual({ ok: true, value: { ok: true } });
    expect(recorded).toEqual([[4, { action: 'click(<button "Sign up">)', url: 'http://127.0.0.1:8080/form.html', title: 'Form' }]]);
  });

  it('refuses malformed steps and steps naming another site, recording nothing', async () => {
    recorded.length = 0;
    const extra = await dispatchContentRequest(handlers, { type: 'demo.step', action: 'click(<button "A">)', url: 'http://127.0.0.1:8080/', title: '', tabId: 9 }, ctx);
    expect(extra).toMatchObject({ ok: false, error: { name: 'ProtocolError' } });
    const empty = await dispatchContentRequest(handlers, { type: 'demo.step', action: '', url: 'http://127.0.0.1:8080/', title: '' }, ctx);
    expect(empty).toMatchObject({ ok: false, error: { name: 'ProtocolError' } });
    const foreign = await dispatchContentRequest(handlers, { type: 'demo.step', action: 'click(<button "A">)', url: 'https://bank.example/', title: '' }, ctx);
    expect(foreign).toEqual({ ok: false, error: { name: 'Error', message: 'the step names a page other than the one that sent it' } });
    expect(recorded).toEqual([]);
  });
});

describe('createTabDemonstrationPage', () => {
  it('retries page.record until the content script answers, injecting it once', async () => {
    const sent: unknown[] = [];
    let injected = 0;
    let failures = 3;
    const page = createTabDemonstrationPage({
      tabs: {
        sendMessage: async (_tabId, message) => {
          sent.push(message);
          if (failures-- > 0) throw new Error('Could not establish connection. Receiving end does not exist.');
          return { ok: true, value: { ok: true } };
        },
        get: async () => ({ status: 'complete', url: 'http://127.0.0.1:8080/form.html' }),
      },
      scripting: { executeScript: async () => { injected++; } },
      contentScriptFiles: ['content.js'],
    });
    await page.setRecording(4, true);
    expect(sent).toEqual([
      { type: 'page.record', on: true }, { type: 'page.record', on: true }, { type: 'page.record', on: true }, { type: 'page.record', on: true },
    ]);
    expect(injected).toBe(1);
    expect(await page.tabUrl(4)).toBe('http://127.0.0.1:8080/form.html');
  });

  it('gives up on a closed tab, passes other errors through, and refuses non-http tabs', async () => {
    const closed = createTabDemonstrationPage({
      tabs: { sendMessage: async () => { throw new Error('Receiving end does not exist.'); }, get: async () => { throw new Error('No tab with id: 4'); } },
      scripting: { executeScript: async () => undefined },
      contentScriptFiles: [],
    });
    await expect(closed.setRecording(4, false)).rejects.toThrow('tab 4 was closed');
    const refusing = createTabDemonstrationPage({
      tabs: { sendMessage: async () => ({ ok: false, error: { name: 'ProtocolError', message: 'bad' } }), get: async () => ({ url: 'chrome://newtab/' }) },
      scripting: { executeScript: async () => undefined },
      contentScriptFiles: [],
    });
    await expect(refusing.setRecording(4, true)).rejects.toMatchObject({ name: 'ProtocolError', message: 'bad' });
    await expect(refusing.tabUrl(4)).rejects.toThrow(/http\(s\) pages/);
  });
});
