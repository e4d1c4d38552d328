import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiChatModel } from '../../src/adapters/openai/openai-chat-model.ts';
import { isModelOutputError } from '../../src/core/errors.ts';
import { evaluateSteps, type EvaluatorInput } from '../../src/core/llm/evaluator.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server.ts';

let server: OpenAiTestServer;
beforeAll(async () => {
  server = await startOpenAiTestServer();
});
afterAll(async () => {
  await server.close();
});

const model = () =>
  createOpenAiChatModel({ preset: 'custom', baseUrl: server.baseUrl, apiKey: 'k', model: 'judge', logitMode: 'auto', timeoutMs: 5000 });

const episode: EvaluatorInput = {
  task: 'How many open orders are there?',
  steps: [
    { action: 'click(<link "Orders">)', url: 'http://s/home', outcome: 'ok' },
    { action: 'click(<link "Help">)', url: 'http://s/orders', outcome: 'ok' },
    { action: 'go_back()', url: 'http://s/help', outcome: 'ok' },
    { action: 'send_msg_to_user("4")', url: 'http://s/orders', outcome: 'ok' },
  ],
  verdict: 'success',
  answer: '4',
};

describe('evaluateSteps', () => {
  it('scores every step, clamps and rounds, fills missing steps with 0', async () => {
    server.respond(() =>
      JSON.stringify({
        steps: [
          { step: 1, result: 'orders list opened', usefulness: 'useful', certainty: 'certain', score: 3 },
          { step: 2, result: 'detour to help', usefulness: 'harmful', certainty: 'somewhat uncertain', score: -2.4 },
          { step: 4, result: 'answered', usefulness: 'useful', certainty: 'certain', score: 7 },
          { step: 9, result: 'no such step', usefulness: 'useful', certainty: 'certain', score: 3 },
        ],
      }),
    );
    const out = await evaluateSteps(model(), episode);
    expect(out.scores).toEqual([3, -2, 0, 3]);
    expect(out.notes[0]).toBe('orders list opened (useful, certain)');
    expect(out.notes[2]).toContain('no score');
    const req = server.requests.at(-1)!;
    expect(req.temperature).toBe(0);
    expect(req.messages[1]?.content).toContain('Outcome: success (answer given: "4")');
    expect(req.messages[1]?.content).toContain('3. go_back() → ok');
  });

  it('retries once, then fails with ModelOutputError', async () => {
    server.requests.length = 0;
    server.respond(() => 'All steps were fine.');
    const err = await evaluateSteps(model(), episode).catch((e: unknown) => e);
    expect(isModelOutputError(err)).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('makes no call for an empty episode', async () => {
    server.requests.length = 0;
    expect(await evaluateSteps(model(), { ...episode, steps: [] })).toEqual({ scores: [], notes: [] });
    expect(server.requests).toHaveLength(0);
  });
});
