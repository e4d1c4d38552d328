import { describe, expect, it } from 'vitest';
import { builtInModelStatus, createPromptApiChatModel } from '../../src/adapters/chrome-ai/prompt-api-model.ts';
import { describeError, isProviderError, type ProviderError } from '../../src/core/errors.ts';
import { createLlmPolicy } from '../../src/core/policy/llm-policy.ts';
import { fakeLanguageModel } from '../support/fake-language-model.ts';
import { candidateAnswer, longPage, policyInput, THREE } from '../support/llm-fixtures.ts';

const failureOf = async (p: Promise<unknown>): Promise<ProviderError> => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(isProviderError(err)).toBe(true);
  return err as ProviderError;
};

describe("Chrome's built-in model (Prompt API) as a provider", () => {
  it('proposes through responseConstraint with verbalized logits, system prompt as the initial prompt', async () => {
    const fake = fakeLanguageModel({ availability: 'available', respond: () => candidateAnswer(THREE) });
    const policy = createLlmPolicy(createPromptApiChatModel(fake.api), { logitMode: 'auto' });
    const out = await policy.propose(policyInput());
    expect(out.logitSource).toBe('verbalized');
    expect(out.candidates.map((c) => c.logit)).toEqual([Math.log(0.6), Math.log(0.3), Math.log(0.1)]);
    const prompt = fake.prompts[0]!;
    expect(prompt.initialPrompts.map((m) => m.role)).toEqual(['system']);
    expect(prompt.input).toContain('Task: Sign in as ada@example.com');
    // The answer's JSON Schema constrains decoding: the candidates array with option/action/confidence/why.
    const schema = prompt.options.responseConstraint as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(['thinking', 'candidates', 'best']);
    expect(schema.required).toEqual(['candidates']);
    expect(prompt.temperature).toBe(0.8);
    // One session per call, always destroyed.
    expect(fake.destroyed()).toBe(1);
    // Usage from the session's own counts: ⌈chars/4⌉ in the fake.
    expect(out.usage.completionTokens).toBe(Math.ceil(candidateAnswer(THREE).length / 4));
  });

  it('reports download progress while the model downloads, then works', async () => {
    const fake = fakeLanguageModel({ availability: 'downloadable', respond: () => 'ready' });
    const progress: number[] = [];
    const model = createPromptApiChatModel(fake.api, { onDownloadProgress: (p) => progress.push(p) });
    expect((await builtInModelStatus(fake.api)).availability).toBe('downloadable');
    const out = await model.chat({ messages: [{ role: 'user', content: 'Reply: ready' }], temperature: 0, maxTokens: 5, logprobs: true, topLogprobs: 3, json: false });
    expect(progress).toEqual([0, 0.5, 1]);
    expect(out).toMatchObject({ text: 'ready', tokens: null, model: 'chrome-built-in' });
    expect((await builtInModelStatus(fake.api)).availability).toBe('available');
  });

  it('says plainly when the device or browser does not support it', async () => {
    const fake = fakeLanguageModel({ availability: 'unavailable' });
    const err = await failureOf(createLlmPolicy(createPromptApiChatModel(fake.api), { logitMode: 'auto' }).propose(policyInput()));
    expect(err.kind).toBe('unsupported_device');
    expect(describeError(err)).toContain('cannot run Chrome');
    expect((await builtInModelStatus(fake.api)).message).toContain('offline policy');
    expect((await builtInModelStatus(null)).availability).toBe('missing');
    expect((await failureOf(createPromptApiChatModel(null).chat({ messages: [{ role: 'user', content: 'x' }], temperature: 0, maxTokens: 1, logprobs: false, topLogprobs: 0, json: false }))).kind).toBe('unsupported_device');
  });

  it('cancels through the AbortSignal', async () => {
    const fake = fakeLanguageModel({ availability: 'available', hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await failureOf(createLlmPolicy(createPromptApiChatModel(fake.api), { logitMode: 'auto' }).propose(policyInput(), controller.signal));
    expect(err.kind).toBe('aborted');
    expect(fake.destroyed()).toBe(1);
  });

  it('a prompt over the session quota shrinks the page listing and fits', async () => {
    const fake = fakeLanguageModel({ availability: 'available', quota: 3000, respond: () => candidateAnswer(THREE) });
    const out = await createLlmPolicy(createPromptApiChatModel(fake.api), { logitMode: 'auto' }).propose(policyInput(3, longPage(200)));
    expect(out.candidates).toHaveLength(3);
    expect(out.notes.some((n) => n.includes('context window of 3000 tokens'))).toBe(true);
    expect(fake.prompts).toHaveLength(1);
  });
});
