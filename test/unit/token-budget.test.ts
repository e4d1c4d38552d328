import { describe, expect, it } from 'vitest';
import { AgentController } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { budgetExceeded, DAY_MS, episodeTokens, tokensSpentOnSite } from '../../src/core/agent/token-budget.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { loginPage } from '../support/llm-fixtures.ts';

const step = (promptTokens: number, completionTokens: number, startedAt: number) => ({ promptTokens, completionTokens, startedAt });

describe('token usage', () => {
  it('sums steps per episode and per site over the last 24 hours', () => {
    const now = 10 * DAY_MS;
    const a = { origin: 'https://a.test', steps: [step(600, 100, now - 1000), step(500, 50, now - DAY_MS - 1)] };
    const b = { origin: 'https://b.test', steps: [step(900, 90, now - 5)] };
    expect(episodeTokens(a as never)).toBe(1250);
    // The step older than 24 h does not count: 600 + 100.
    expect(tokensSpentOnSite([a, b] as never, 'https://a.test', now)).toBe(700);
    expect(budgetExceeded(700, 1000, 'https://a.test')).toBeNull();
    expect(budgetExceeded(700, 0, 'https://a.test')).toBeNull();
    expect(budgetExceeded(1000, 1000, 'https://a.test')).toContain('used 1000 model tokens in the last 24 hours, over its budget of 1000');
  });

  it('pauses the episode before the proposal that would go past the site budget', async () => {
    const store = new InMemoryEpisodeStore();
    const page: PageDriver = {
      observe: async () => ({ ...loginPage, url: 'https://site.test/login' }),
      act: async () => ({ ok: true, navigated: false }),
    };
    const policy: CandidatePolicy = {
      id: 'metered',
      propose: async () => {
        const parsed = parseAction('click([3])');
        if (!parsed.ok) throw new Error('bad action');
        return { candidates: [{ action: parsed.action, logit: 0 }], logitSource: 'verbalized', usage: { calls: 1, promptTokens: 600, completionTokens: 100 }, notes: [] };
      },
    };
    let t = 1_000_000;
    let id = 0;
    const budget = 1000;
    const controller = new AgentController({
      episodes: store,
      pageFor: () => page,
      policy: () => policy,
      learners: () => [],
      evaluator: () => null,
      settings: () => DEFAULT_SETTINGS,
      clock: { now: () => (t += 10) },
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      newId: () => `ep-${++id}`,
      tokenBudget: async (episode) => budgetExceeded(tokensSpentOnSite(await store.list({ origin: episode.origin, limit: 100 }), episode.origin, t), budget, episode.origin),
    });
    let ep = await controller.start({ task: 'sign in', startUrl: 'https://site.test/login', tabId: 1 });
    expect(ep.status).toBe('awaiting_approval');
    // 0 spent → step 1 (700 tokens); 700 < 1000 → step 2 (1400); 1400 ≥ 1000 → paused.
    ep = await controller.decide(ep.id, { kind: 'approve' }, { awaitNext: true });
    expect(ep.status).toBe('awaiting_approval');
    expect(episodeTokens(ep)).toBe(1400);
    ep = await controller.decide(ep.id, { kind: 'approve' }, { awaitNext: true });
    expect(ep.status).toBe('paused');
    expect(ep.error).toContain('has used 1400 model tokens in the last 24 hours, over its budget of 1000');
    expect(ep.steps).toHaveLength(2);
  });
});
