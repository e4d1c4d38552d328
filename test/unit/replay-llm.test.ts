/**
 * Issue 25, target: with an LLM provider, a replayed attempt makes 0 model
 * calls — counted in the local OpenAI-compatible test server's request log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlmPolicy } from '../../src/core/policy/llm-policy.ts';
import { candidateAnswer } from '../support/llm-fixtures.ts';
import type { OpenAiTestServer } from '../support/openai-test-server.ts';
import { startTestModel } from '../support/test-model.ts';
import { executed, replayWorld } from './replay-helpers.ts';

let server: OpenAiTestServer;
let model: Awaited<ReturnType<typeof startTestModel>>['model'];
beforeAll(async () => ({ server, model } = await startTestModel()));
afterAll(() => server.close());

/** A model that reads the page in the prompt: the Profile link, then the field, then Save. */
function respondByPage() {
  server.respond((body) => {
    const prompt = body.messages.map((m) => m.content).join('\n');
    const value = /display name to \\?"([^"\\]+)\\?"/.exec(prompt)?.[1] ?? '';
    // The history in the prompt shows the fill once it ran: `fill(<textbox "Display name">, "Ada")`.
    const filled = prompt.includes(`"${value}")`);
    const action = !prompt.includes('Display name') ? 'click([1])' : filled ? 'click([5])' : `fill([4], "${value}")`;
    return { content: candidateAnswer([[action, 90], ['click([6])', 10]]) };
  });
}

describe('replay with an LLM provider', () => {
  it('the first attempt asks the model; the replayed attempt sends it no request at all', async () => {
    respondByPage();
    const w = replayWorld({ policy: createLlmPolicy(model, { logitMode: 'auto' }) });
    const first = await w.attempt('Ada');
    expect(first.status).toBe('success');
    const afterFirst = server.requests.length;
    expect(afterFirst).toBeGreaterThanOrEqual(3);
    expect(first.steps.reduce((n, s) => n + s.modelCalls, 0)).toBe(afterFirst);

    const second = await w.attempt('Grace');
    expect(second.status).toBe('success');
    expect(executed(second)).toEqual(['click(<link "Profile">)', 'fill(<textbox "Display name">, "Grace")', 'click(<button "Save">)']);
    expect(server.requests.length - afterFirst).toBe(0);
    expect(second.steps.reduce((n, s) => n + s.modelCalls, 0)).toBe(0);
  });
});
