/**
 * Idempotency through a real browser, with its mutant. The agent controller
 * (in Node, as in adaptive-run.ts) drives Chromium with the built page layer
 * against the restart shop, whose "Add …" buttons stay after a click (a shop
 * that lets you add one more): a re-run of an approved click looks exactly
 * like the approved one, so only the idempotency id saved before acting
 * stands between a restart and a second effect. Effects are counted by the
 * shop's server.
 *
 * Each episode adds the three items, each step approved by the person. On one
 * step (in turn the 1st, 2nd, 3rd) the worker "dies" right after the effect,
 * before the result is saved: the controller is abandoned (its promises never
 * settle, its writes never land) and a fresh controller over the same store
 * resumes, as the restarted worker does. The person resumes a step that comes
 * back as "outcome unknown" and approves the rest.
 *
 * Mutant idempotency-off: the episode store drops the idempotency id on every
 * write (the id is never saved), so the resumed worker takes the approved
 * step for one that never started and runs it again. Duplicated effects must
 * then be > 0, or the real run's 0 means nothing.
 */
import type { Page } from 'playwright-core';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { createLlmPolicy } from '../../src/core/policy/llm-policy.ts';
import type { ChatModel, ChatRequest, ChatResponse, PageDriver } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { launchPlain } from '../../test/support/chromium.ts';
import { createPlaywrightPageDriver, installPageAgent } from '../playwright-page-driver.ts';
import { SHOP_ITEMS, startRestartShop, type RestartShop } from './restart-shop.ts';
import { candidateJson, listedElements } from './scripted-models.ts';

export type IdempotencyMutant = 'idempotency-off';

export interface IdempotencyReport {
  mutant: IdempotencyMutant | null;
  episodes: number;
  /** Worker deaths right after an effect, before its result was saved. */
  stops: number;
  /** Server-side effects beyond one per item and episode. */
  duplicatedEffects: number;
  /** Items the person approved that the server never saw added. */
  missingEffects: number;
  /** Steps that came back to the person as "outcome unknown". */
  outcomeUnknown: number;
  /** Episodes that threw or did not finish. */
  crashes: number;
  ms: number;
}

const never = new Promise<never>(() => {});
const FINISHED = new Set<Episode['status']>(['success', 'failure', 'partial', 'stopped']);

/** The model: "Add <item>" for the first item the server has not counted, else done (the person's intent, read off the shop). */
function shopModel(shop: RestartShop, run: () => number): ChatModel {
  return {
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const prompt = request.messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
      const counts = shop.effects(run());
      const item = SHOP_ITEMS.find((i) => counts[i] === 0);
      const button = item ? listedElements(prompt).find((e) => e.role === 'button' && e.name === `Add ${item}`) : undefined;
      const text = candidateJson([button ? `click([${button.ref}])` : 'send_msg_to_user("The three items are in the cart")']);
      return { text, tokens: null, usage: { promptTokens: Math.ceil(prompt.length / 4), completionTokens: 20 }, model: 'scripted' };
    },
  };
}

/** The store a worker life writes through: hangs once the worker is dead; the mutant drops the idempotency id. */
function storeOf(shared: InMemoryEpisodeStore, isDead: () => boolean, mutant: IdempotencyMutant | null): InMemoryEpisodeStore {
  return new Proxy(shared, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop !== 'put') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      return async (episode: Episode) => {
        if (isDead()) return never;
        if (mutant !== 'idempotency-off') return target.put(episode);
        const steps = episode.steps.map((s) => {
          if (!s.chosen) return s;
          const { actionId: _dropped, ...chosen } = s.chosen;
          return { ...s, chosen };
        });
        return target.put({ ...episode, steps });
      };
    },
  });
}

export async function runIdempotency(episodes: number, mutant: IdempotencyMutant | null = null): Promise<IdempotencyReport> {
  const started = Date.now();
  const shop = await startRestartShop();
  const browser = await launchPlain();
  const report: IdempotencyReport = { mutant, episodes: 0, stops: 0, duplicatedEffects: 0, missingEffects: 0, outcomeUnknown: 0, crashes: 0, ms: 0 };
  let run = 0;
  try {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    await installPageAgent(context);
    const tab: Page = await context.newPage();
    const page = createPlaywrightPageDriver(tab, { timeoutMs: 10_000 });
    const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax', maxSteps: 8 } };
    const model = shopModel(shop, () => run);
    let ids = 0;

    /** One worker life; with `dieAfterEffect`, it dies right after the next action's effect. */
    function worker(shared: InMemoryEpisodeStore, dieAfterEffect: boolean) {
      let dead = false;
      const driver: PageDriver = {
        observe: async (o, s) => (dead ? never : page.observe(o, s)),
        act: async (a, s, e) => {
          if (dead) return never;
          const result = await page.act(a, s, e);
          if (dieAfterEffect && a.type === 'click') {
            dead = true;
            report.stops++;
            return never;
          }
          return result;
        },
      };
      const deps: AgentDeps = {
        episodes: storeOf(shared, () => dead, mutant),
        pageFor: () => driver,
        policy: () => createLlmPolicy(model, { logitMode: 'verbalized' }),
        learners: () => [],
        evaluator: () => null,
        settings: () => settings,
        clock: { now: () => Date.now() },
        logger: { info: () => {}, warn: () => {}, error: () => {} },
        newId: () => `idem-${++ids}`,
      };
      return { controller: new AgentController(deps), isDead: () => dead };
    }

    for (let e = 0; e < episodes; e++) {
      run = e + 1;
      report.episodes++;
      const shared = new InMemoryEpisodeStore();
      const dieOnStep = e % SHOP_ITEMS.length;
      const url = `${shop.origin}/shop?run=${run}&stay=1`;
      try {
        await tab.goto(url, { waitUntil: 'load' });
        let current = worker(shared, false);
        let ep = await current.controller.start({ task: 'Add the kettle, the mug and the teapot to the cart', startUrl: url, tabId: null });
        let approvals = 0;
        for (let turn = 0; turn < 16 && !FINISHED.has(ep.status); turn++) {
          if (ep.status === 'awaiting_approval') {
            if (approvals++ === dieOnStep) {
              const dying = worker(shared, true);
              void dying.controller.decide(ep.id, { kind: 'approve' }).catch(() => undefined);
              for (let i = 0; i < 400 && !dying.isDead(); i++) await new Promise((r) => setTimeout(r, 25));
              // The restarted worker: a fresh controller over the same store resumes what was unfinished.
              current = worker(shared, false);
              await current.controller.resumeUnfinished();
              ep = await current.controller.settled(ep.id);
            } else {
              ep = await current.controller.decide(ep.id, { kind: 'approve' });
            }
          } else if (ep.status === 'paused') {
            ep = await current.controller.resume(ep.id); // the person looked at the page and goes on
          } else if (ep.status === 'awaiting_verdict') {
            ep = await current.controller.finish(ep.id, 'success');
          } else {
            ep = await current.controller.settled(ep.id);
          }
        }
        if (!FINISHED.has(ep.status)) report.crashes++;
        report.outcomeUnknown += ep.steps.filter((s) => s.result?.ok === false && s.result.code === 'outcome_unknown').length;
        const counts = shop.effects(run);
        for (const item of SHOP_ITEMS) {
          report.duplicatedEffects += Math.max(0, counts[item] - 1);
          if (counts[item] === 0) report.missingEffects++;
        }
      } catch (err) {
        report.crashes++;
        if (process.env['TRUST_DEBUG']) console.error(err);
      }
    }
  } finally {
    await browser.close();
    await shop.close();
  }
  report.ms = Date.now() - started;
  return report;
}
