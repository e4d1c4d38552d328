/**
 * The model path through the built extension against provider shapes served
 * by the local test server: a context overflow (llama.cpp) that recovers by
 * shrinking the page listing, Ollama's 403 for the extension's Origin with the
 * exact OLLAMA_ORIGINS value in the panel's error and in Test connection, and
 * the options page's Test connection against every shape.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { Settings } from '../../src/core/settings.ts';
import { launchWithExtension, type ExtensionBrowser } from '../support/chromium.ts';
import { messagesFrom } from '../support/extension-messaging.ts';
import { countPromptTokens, startOpenAiTestServer, type ChatCompletionBody, type OpenAiTestServer } from '../support/openai-test-server.ts';
import { providerShape, type ShapeName, type ShapeOptions } from '../support/provider-shapes.ts';
import { startStaticServer, type StaticServer } from '../support/static-server.ts';

let browser: ExtensionBrowser;
let sites: StaticServer;
let ui: Page;
let site: Page;
let tabId: number;
const models: OpenAiTestServer[] = [];
const { request } = messagesFrom(() => ui);

/** Three click candidates on the first refs the prompt lists: valid on whatever page was observed. */
function answerFromListing(body: ChatCompletionBody): string {
  const user = body.messages.at(-1)?.content ?? '';
  const refs = [...user.matchAll(/^(?:\| )?\s*\[(\d+)\] (?:link|button)\b/gm)].map((m) => m[1]!).slice(0, 3);
  const candidates = refs.map((ref, i) => ({ option: i + 1, action: `click([${ref}])`, confidence: 60 - i * 20, why: `option ${i + 1}` }));
  return JSON.stringify({ thinking: 'Looking at the list.', candidates, best: 1 });
}

async function serve(name: ShapeName, options: ShapeOptions = {}) {
  const server = await startOpenAiTestServer({ shape: providerShape(name, options) });
  server.respond((body) => (body.messages.length === 1 ? 'ready' : answerFromListing(body)));
  models.push(server);
  return server;
}

async function useProvider(provider: Partial<Settings['provider']>): Promise<void> {
  const current = await request<Settings>({ type: 'settings.get' });
  await request({ type: 'settings.set', settings: { ...current, provider: { ...current.provider, ...provider } } });
}

async function pollEpisode(id: string, done: (e: Episode) => boolean): Promise<Episode> {
  for (let i = 0; i < 300; i++) {
    const ep = await request<Episode>({ type: 'episode.get', episodeId: id });
    if (done(ep)) return ep;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('episode never settled');
}

beforeAll(async () => {
  sites = await startStaticServer(join(import.meta.dirname, '../fixtures/sites'));
  browser = await launchWithExtension();
  site = await browser.context.newPage();
  await site.goto(`${sites.origin}/archive.html`);
  ui = await browser.context.newPage();
  await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/options/index.html`);
  tabId = await browser.serviceWorker.evaluate(async (url) => {
    const [tab] = await chrome.tabs.query({ url });
    return tab!.id!;
  }, `${sites.origin}/archive.html`);
});

afterAll(async () => {
  await browser?.close();
  await sites?.close();
  await Promise.all(models.map((m) => m.close()));
});

describe('providers through the built extension', () => {
  it('a llama.cpp context overflow recovers by shrinking the page listing', async () => {
    const server = await serve('llamacpp', { contextTokens: 2048 });
    await useProvider({ preset: 'llamacpp', baseUrl: server.baseUrl, model: 'model.gguf', apiKey: '' });
    const started = await request<Episode>({ type: 'episode.start', tabId, task: 'Open the first archived article' });
    const ep = await pollEpisode(started.id, (e) => e.status !== 'running');
    expect(ep.error).toBeNull();
    expect(ep.status).toBe('awaiting_approval');
    const step = ep.steps[0]!;
    expect(step.logitSource).toBe('logprobs');
    expect(step.candidates.length).toBe(3);
    expect(step.learningNotes.some((n) => /context window of 2048 tokens\. The page listing was shrunk from \d+ to \d+ characters/.test(n))).toBe(true);
    // The first prompt did not fit; the second did, and its tokens are counted on the step.
    expect(server.requests).toHaveLength(2);
    expect(countPromptTokens(server.requests[0]!.messages)).toBeGreaterThan(2048);
    expect(countPromptTokens(server.requests[1]!.messages)).toBeLessThanOrEqual(2048);
    expect(step.modelCalls).toBe(1);
    expect(step.promptTokens).toBe(countPromptTokens(server.requests[1]!.messages));
    await request({ type: 'episode.stop', episodeId: ep.id });
  });

  it("Ollama refuses the extension's Origin: the panel's error and Test connection name the exact OLLAMA_ORIGINS", async () => {
    const origin = `chrome-extension://${browser.extensionId}`;
    const refused = await serve('ollama');
    await useProvider({ preset: 'ollama', baseUrl: refused.baseUrl, model: 'llama3.1:8b' });
    const started = await request<Episode>({ type: 'episode.start', tabId, task: 'Open the first archived article' });
    const ep = await pollEpisode(started.id, (e) => e.error !== null);
    expect(ep.status).toBe('paused');
    expect(ep.error).toContain(`OLLAMA_ORIGINS=${origin}`);
    await request({ type: 'episode.stop', episodeId: ep.id });

    await ui.reload();
    await ui.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => ui.getByTestId('ollama-origins').textContent()).toBe(`OLLAMA_ORIGINS=${origin}`);

    // With the origin allowed, the same provider connects and returns token logprobs.
    const allowed = await serve('ollama', { allowedOrigins: [origin] });
    await useProvider({ preset: 'ollama', baseUrl: allowed.baseUrl, model: 'llama3.1:8b' });
    const again = await request<Episode>({ type: 'episode.start', tabId, task: 'Open the first archived article' });
    const ok = await pollEpisode(again.id, (e) => e.status !== 'running');
    expect(ok.error).toBeNull();
    expect(ok.steps[0]!.logitSource).toBe('logprobs');
    await request({ type: 'episode.stop', episodeId: ok.id });
  });

  it("Chrome's built-in model: this Chromium has none, and the options page and Test connection say so plainly", async () => {
    await useProvider({ preset: 'chrome-ai', baseUrl: '', model: '', apiKey: '' });
    await ui.reload();
    await expect.poll(() => ui.getByTestId('builtin-status').textContent(), { timeout: 15_000 }).toMatch(/cannot run Chrome's built-in model|no Prompt API/);
    await ui.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => ui.getByTestId('provider-test').textContent(), { timeout: 15_000 }).toMatch(/Not connected.*cannot run Chrome's built-in model/s);
  });

  it("Test connection on the options page against every provider shape", async () => {
    const cases: [ShapeName, string, string][] = [
      ['openai', 'o3-mini', 'no token logprobs came back'],
      ['openrouter', 'openai/gpt-4o-mini', 'token logprobs are available'],
      ['lmstudio', 'qwen2.5-7b-instruct', 'no token logprobs came back'],
      ['vllm', 'Qwen/Qwen2.5-7B-Instruct', 'token logprobs are available'],
      ['llamacpp', 'model.gguf', 'token logprobs are available'],
    ];
    for (const [name, model, expected] of cases) {
      const server = await serve(name);
      await useProvider({ preset: 'custom', baseUrl: server.baseUrl, model, apiKey: 'sk-test' });
      await ui.reload();
      await ui.getByRole('button', { name: 'Test connection' }).click();
      await expect.poll(() => ui.getByTestId('provider-test').textContent(), { timeout: 15_000 }).toContain(expected);
    }
    // A missing model lists the server's models.
    const vllm = await serve('vllm');
    await useProvider({ preset: 'custom', baseUrl: vllm.baseUrl, model: 'qwen' });
    await ui.reload();
    await ui.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => ui.getByRole('button', { name: 'Use Qwen/Qwen2.5-7B-Instruct' }).count(), { timeout: 15_000 }).toBe(1);
  });
});
