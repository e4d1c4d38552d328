/**
 * An agent whose policy always proposes `click([1])` at logit 0, on the page
 * given, with no learners and a clock that ticks 10 ms per read: for unit
 * tests of what the controller keeps (verdicts, answers), not of choice.
 */
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

export function oneCandidateAgent(page: ReturnType<AgentDeps['pageFor']>): AgentController {
  let t = 0;
  const deps: AgentDeps = {
    episodes: new InMemoryEpisodeStore(), pageFor: () => page, learners: () => [], evaluator: () => null,
    policy: () => ({
      id: 'one',
      async propose() {
        const parsed = parseAction('click([1])');
        if (!parsed.ok) throw parsed.error;
        return { candidates: [{ action: parsed.action, logit: 0 }], logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
      },
    }),
    settings: () => DEFAULT_SETTINGS, clock: { now: () => (t += 10) }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => 'ep-1',
  };
  return new AgentController(deps);
}
