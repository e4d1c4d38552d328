import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/core/ports.ts';
import { startTestModel } from '../support/test-model.ts';
import { memoryCheckpoint } from '../../bench/metattl/meta-train-checkpoint.ts';
import { metaTrain } from '../../bench/metattl/meta-train-loop.ts';
import { buildProposerMessages, proposeStrategy } from '../../bench/metattl/meta-train-propose.ts';
import { sessionResult } from '../../bench/metattl/meta-train-session.ts';
import { type OpenAiTestServer } from '../support/openai-test-server.ts';
import { FAKE_CONFIG, fakeRunSession } from '../support/meta-train-fake.ts';

let server: OpenAiTestServer;
let model: ChatModel;
beforeAll(async () => {
  ({ server, model } = await startTestModel());
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

const session = sessionResult('shop.add-to-cart.104', [
  { attempt: 1, score: 0, log: 'ATTEMPT 1\n[ACTION] click(<link "Home">) → ok', guideAfter: 'Open the product page first.', notes: [] },
  { attempt: 2, score: 1, log: 'ATTEMPT 2\n[ACTION] click(<button "Add to cart">) → ok', guideAfter: null, notes: [] },
], 2);

describe('the proposer (Algorithm 2, line 5)', () => {
  it('shows the parent strategy, each attempt with its score and the guide written after it', () => {
    const user = buildProposerMessages('Diagnose first.', session)[1]!.content;
    expect(user).toContain('Diagnose first.');
    expect(user).toContain('W-AUC: 0.667 (padded to K), 0.667 (attempts that ran)'); // (0 + 2·1)/3
    expect(user).toContain('=== Attempt 1: score 0.00 ===');
    expect(user).toContain('Open the product page first.');
    expect(user).toContain('--- No guide written after attempt 2 ---');
  });

  it('repairs a malformed answer', async () => {
    server.respond(() => "Here you go: {analysis: 'too vague', strategy: 'Name the exact control to use.',}");
    const r = await proposeStrategy(model, 'old', session);
    expect(r).toEqual({ ok: true, proposal: { analysis: 'too vague', strategy: 'Name the exact control to use.' }, repaired: true });
  });

  it('drops an answer that stays unusable after one retry', async () => {
    server.respond(() => '{"analysis": "x"}');
    const r = await proposeStrategy(model, 'old', session);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/unusable twice.*strategy/);
    expect(server.requests).toHaveLength(2);
  });

  it('a dropped proposal is never stored in the checkpoint', async () => {
    server.respond(() => '{"analysis": "NEVER-STORED", "strategy": ""}');
    const checkpoint = memoryCheckpoint();
    const out = await metaTrain({
      config: { ...FAKE_CONFIG, budget: 6 },
      checkpoint,
      runSession: fakeRunSession(),
      propose: ({ parent, session: s }) => proposeStrategy(model, parent.strategy, s),
    });
    expect(out.state.history.map((h) => h.outcome)).toEqual(['proposal-dropped']);
    expect(out.state.candidates.map((c) => c.id)).toEqual(['seed']);
    expect(JSON.stringify(await checkpoint.load())).not.toContain('NEVER-STORED');
    expect(out.selected.id).toBe('seed');
  });
});
