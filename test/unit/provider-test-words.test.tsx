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

  it('a failed test says nothing about logprobs; a good one does', () => {
    render(<ProviderTestReport test={{ ok: false, model: 'm', logprobs: false, latencyMs: 3, message: 'The model provider could not be reached.' }} onUseModel={() => undefined} />);
    expect(screen.getByTestId('provider-test')).toHaveTextContent('Not connected to m (3 ms).The model provider could not be reached.');
    expect(screen.queryByText(/logprobs/i)).toBeNull();
    cleanup();
    render(<ProviderTestReport test={{ ok: true, model: 'm', logprobs: true, latencyMs: 3, message: '' }} onUseModel={() => undefined} />);
    expect(screen.getByTestId('provider-test')).toHaveTextContent('Token logprobs: available');
  });
});
