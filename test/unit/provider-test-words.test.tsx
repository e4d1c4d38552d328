// @vitest-environment happy-dom
// Issue 31: a failed connection test says nothing about logprobs, and a 404
// at a base URL without /v1 says to add /v1 (not that the model is wrong).
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { testProvider } from '../../src/adapters/openai/openai-chat-model.ts';
import { DEFAULT_SETTINGS, type ProviderSettings } from '../../src/core/settings.ts';
import { ProviderTestReport } from '../../src/ui/app/provider-test-report.tsx';

afterEach(cleanup);

const ollama = (baseUrl: string): ProviderSettings => ({ ...DEFAULT_SETTINGS.provider, preset: 'ollama', baseUrl, model: 'llama3.1:8b', timeoutMs: 5000 });
const notFound: typeof fetch = async () => new Response('404 page not found', { status: 404, headers: { 'content-type': 'text/plain' } });
/** A server whose model says `plain` to a plain question and `asJson` when JSON mode is asked for. */
const answering = (plain: string, asJson: string): typeof fetch & { bodies: Record<string, unknown>[] } => {
  const bodies: Record<string, unknown>[] = [];
  const f = async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    bodies.push(body);
    const content = body['response_format'] ? asJson : plain;
    return new Response(JSON.stringify({
      id: 'c1', object: 'chat.completion', created: 1, model: 'prosy-7b',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content }, logprobs: null }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return Object.assign(f, { bodies });
};

describe('provider errors that say what to do', () => {
  it('a 404 at a base URL without /v1 suggests adding /v1', async () => {
    const test = await testProvider(ollama('http://127.0.0.1:11434/'), notFound);
    expect(test.ok).toBe(false);
    expect(test.message.endsWith(' The server answered 404 (not found): OpenAI-compatible servers usually answer under /v1. Try the base URL http://127.0.0.1:11434/v1.')).toBe(true);
    expect(test.message).toBe('The model provider has no chat endpoint at that address. Check the base URL. (HTTP 404: 404 page not found) The server answered 404 (not found): OpenAI-compatible servers usually answer under /v1. Try the base URL http://127.0.0.1:11434/v1.');
  });

  it('with /v1 already there, no /v1 advice', async () => {
    const test = await testProvider(ollama('http://127.0.0.1:11434/v1'), notFound);
    expect(test.ok).toBe(false);
    expect(test.message).toBe('The model provider has no chat endpoint at that address. Check the base URL. (HTTP 404: 404 page not found)');
  });

  it('Test connection asks for one JSON answer: a model that answers in prose is said plainly, with what to do', async () => {
    const prose = answering('ready', 'Sure! The object you asked for has ready set to true.');
    const test = await testProvider(ollama('http://127.0.0.1:11434/v1'), prose);
    expect(prose.bodies.map((b) => b['response_format'] ?? null)).toEqual([null, { type: 'json_object' }]);
    expect(test).toMatchObject({ ok: true, json: false, model: 'prosy-7b' });
    expect(test.message).toBe('Connected to prosy-7b; no token logprobs came back, so candidate logits will come from verbalized confidences. '
      + 'Asked for a small JSON object, it answered “Sure! The object you asked for has ready set to true.”. Apprentice needs JSON answers, so each step would fail: '
      + 'turn on JSON mode (structured output) for this model on the server, or choose another model, such as an instruct model; the Offline provider needs no model.');
    render(<ProviderTestReport test={test} onUseModel={() => undefined} />);
    expect(screen.getByTestId('provider-test')).toHaveClass('error');
    expect(screen.getByTestId('provider-test')).toHaveTextContent('JSON answers: no: steps will fail with this model as it is set up');
    cleanup();
    const good = await testProvider(ollama('http://127.0.0.1:11434/v1'), answering('ready', '{"ready": true}'));
    expect(good).toMatchObject({ ok: true, json: true, message: 'Connected to prosy-7b; no token logprobs came back, so candidate logits will come from verbalized confidences.' });
    render(<ProviderTestReport test={good} onUseModel={() => undefined} />);
    expect(screen.getByTestId('provider-test')).toHaveClass('notice');
    expect(screen.getByTestId('provider-test')).toHaveTextContent('JSON answers: yes');
  });

  it('a failed test says nothing about logprobs; a good one does', () => {
    render(<ProviderTestReport test={{ ok: false, model: 'm', logprobs: false, latencyMs: 3, message: 'The model provider could not be reached.' }} onUseModel={() => undefined} />);
    expect(screen.getByTestId('provider-test')).toHaveTextContent('Not connected to m (3 ms).The model provider could not be reached.');
    expect(screen.queryByText(/logprobs/i)).toBeNull();
    cleanup();
    render(<ProviderTestReport test={{ ok: true, model: 'm', logprobs: true, latencyMs: 3, message: '' }} onUseModel={() => undefined} />);
    expect(screen.getByTestId('provider-test')).toHaveTextContent('Token logprobs: available');
  });
});
