/**
 * Worker stops at every step boundary, against the agent controller and a
 * shop that counts its side effects like a server. A "stop" abandons the
 * controller mid-flight (its pending promises never settle, as when Chrome
 * kills the worker) and a new controller over the same store resumes, as the
 * restarted worker does. Boundaries, chosen in turn:
 *   proposing      — during the model call
 *   awaiting       — with a proposal saved, waiting for the person
 *   approved       — the approval saved, the action not started
 *   acting         — inside the action, before its effect
 *   acted          — after the effect, before the result is saved
 * Counted: lost approvals (an approval saved whose step never gets a result:
 * ran, not run, or outcome unknown), duplicated side effects (the cart
 * gained more than one item per episode), crashes.
 */
import { learnersOff } from '../../src/core/learning/registry/registry-factories.ts';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { FakeShop, nextShopAction } from './fake-shop.ts';

const BOUNDARIES = ['proposing', 'awaiting', 'approved', 'acting', 'acted'] as const;
type Boundary = (typeof BOUNDARIES)[number];
const never = new Promise<never>(() => {});
// Sampling, as measured before argmax became the extension's default.
const settings: Settings = { ...DEFAULT_SETTINGS, policy: { ...DEFAULT_SETTINGS.policy, numCandidates: 1 }, learners: learnersOff(DEFAULT_SETTINGS), agent: { ...DEFAULT_SETTINGS.agent, selection: 'sampling' } };

/** One worker's life: its store, page and policy can be told to die at a boundary. */
function worker(shared: { store: InMemoryEpisodeStore; shop: FakeShop }, killAt: Boundary | null, onKill: () => void, idempotencyOff = false) {
  let dead = false;
  const die = (): Promise<never> => {
    if (!dead) {
      dead = true;
      onKill();
    }
    return never;
  };
  const store = new Proxy(shared.store, {
    get(target, prop) {
      if (prop !== 'put') {
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      }
      return async (episode: Episode) => {
        if (dead) return never;
        // Mutant idempotency-off: the id saved before acting never reaches the store.
        await target.put(idempotencyOff ? { ...episode, steps: episode.steps.map((s) => (s.chosen ? { ...s, chosen: { ...s.chosen, actionId: undefined } } : s)) } : episode);
        const last = episode.steps.at(-1);
        if (killAt === 'awaiting' && episode.status === 'awaiting_approval') return die();
        if (killAt === 'approved' && last?.chosen && last.result === null && last.chosen.actionId === undefined) return die();
      };
    },
  });
  const page: PageDriver = {
    observe: async () => (dead ? never : shared.shop.observe()),
    act: async (action: Action): Promise<ActionResult> => {
      if (dead) return never;
      if (killAt === 'acting') return die();
      const result = await shared.shop.act(action);
      if (killAt === 'acted') return die();
      return result;
    },
  };
  const policy: CandidatePolicy = {
    id: 'shop',
    async propose() {
      if (dead) return never;
      if (killAt === 'proposing') return die();
      const parsed = parseAction(nextShopAction(shared.shop, 1));
      if (!parsed.ok) throw parsed.error;
      return { candidates: [{ action: parsed.action, logit: 1 }], logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
  let id = 0;
  const deps: AgentDeps = {
    episodes: store, pageFor: () => page, policy: () => policy, learners: () => [], evaluator: () => null, settings: () => settings,
    clock: { now: () => Date.now() }, logger: { info: () => {}, warn: () => {}, error: () => {} }, newId: () => `r${Date.now()}-${++id}`,
  };
  return { controller: new AgentController(deps), isDead: () => dead };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

export async function runRestarts(stops: number, mutant: 'idempotency-off' | null = null): Promise<Record<string, number | string>> {
  const off = mutant === 'idempotency-off';
  let killed = 0;
  let lostApprovals = 0;
  let duplicated = 0;
  let crashes = 0;
  let unknown = 0;
  let episodes = 0;
  const byBoundary: Record<string, number> = Object.fromEntries(BOUNDARIES.map((b) => [b, 0]));
  while (killed < stops && crashes < 10) {
    episodes++;
    const shared = { store: new InMemoryEpisodeStore(), shop: new FakeShop() };
    const boundary = BOUNDARIES[episodes % BOUNDARIES.length]!;
    // Die at the boundary on a step chosen in turn (1st, 2nd or 3rd step of the episode).
    const killStep = episodes % 3;
    let current = worker(shared, null, () => undefined, off);
    try {
      let ep = await current.controller.start({ task: 'add the kettle to the cart', startUrl: 'https://shop.test/', tabId: 1 });
      for (let turn = 0; turn < 20 && !['success', 'failure', 'partial', 'stopped'].includes(ep.status); turn++) {
        const armed = turn === killStep && killed < stops;
        if (armed) {
          // A new worker life that dies at the boundary during this turn.
          current = worker(shared, boundary, () => { killed++; byBoundary[boundary]!++; }, off);
          if (boundary === 'awaiting') {
            // Die right after a proposal is saved: re-enter through a pause and resume.
            const paused = await current.controller.pause(ep.id).catch(() => ep);
            void current.controller.resume(paused.id, { awaitNext: false }).catch(() => undefined);
          } else if (boundary === 'proposing' && ep.status === 'awaiting_approval') {
            // Die during the model call: rejecting the only candidate asks the policy again.
            const step = ep.steps.at(-1)!;
            void current.controller.decide(ep.id, { kind: 'reject', step: step.index, candidate: step.candidates[0]!.semantic }).catch(() => undefined);
          } else if (ep.status === 'awaiting_approval') {
            const step = ep.steps.at(-1)!;
            void current.controller.decide(ep.id, { kind: 'approve', step: step.index, candidate: step.candidates[0]!.semantic }).catch(() => undefined);
          }
          for (let i = 0; i < 50 && !current.isDead(); i++) await tick();
          // The restarted worker: a fresh controller over the same store resumes what was unfinished.
          current = worker(shared, null, () => undefined, off);
          await current.controller.resumeUnfinished();
          ep = await current.controller.settled(ep.id);
        }
        if (ep.status === 'awaiting_approval') {
          const step = ep.steps.at(-1)!;
          ep = await current.controller.decide(ep.id, { kind: 'approve', step: step.index, candidate: step.candidates[0]!.semantic });
        } else if (ep.status === 'paused') {
          if (ep.steps.some((s) => s.result?.ok === false && s.result.code === 'outcome_unknown')) unknown++;
          ep = await current.controller.resume(ep.id); // the person looked at the page and goes on
        } else if (ep.status === 'awaiting_verdict') {
          ep = await current.controller.finish(ep.id, 'success');
        } else if (ep.status === 'running') {
          ep = await current.controller.settled(ep.id);
        }
      }
      const final = (await shared.store.get(ep.id))!;
      lostApprovals += final.steps.filter((s) => s.chosen && s.result === null).length;
      if (shared.shop.cartAdds > 1) duplicated += shared.shop.cartAdds - 1;
    } catch (err) {
      crashes++;
      if (process.env['TRUST_DEBUG']) console.error(err);
    }
  }
  return {
    'worker stops': killed,
    ...Object.fromEntries(Object.entries(byBoundary).map(([b, n]) => [`  at ${b}`, n])),
    episodes,
    'lost approvals': lostApprovals,
    'duplicated side effects': duplicated,
    'steps returned as outcome unknown': unknown,
    crashes,
  };
}
