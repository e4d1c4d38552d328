/**
 * Restarts through the real browser: the BUILT extension in Chromium, its
 * service worker stopped with CDP `ServiceWorker.stopAllWorkers` at every
 * step boundary, against a shop that counts its side effects server-side
 * (restart-shop.ts) and the scripted model on the local test server. The
 * person's part (approve, resume after "outcome unknown", the verdict) is
 * played over the extension's own messages, from an extension page.
 *
 * Boundaries, in turn over the three "Add …" steps of each episode:
 *   proposing — during the model call for the step (the test server holds it);
 *   awaiting  — the proposal saved, waiting for the person;
 *   approved  — the approval saved, the action not started (the page is kept
 *               busy, so the worker's pre-action re-check waits on it);
 *   acting    — inside the action, before its effect (the shop's
 *               /mark/enter holds the page);
 *   acted     — after the effect, before the result reaches the worker.
 * Counted: lost approvals (an approved step asked again, or left without a
 * result), duplicated side effects (an item counted more than once by the
 * server), missing effects (an item never added), steps returned as
 * "outcome unknown", and whether each stop landed where it was aimed.
 */
import { learnersOff } from '../../src/core/learning/registry/registry-factories.ts';
import type { CDPSession, Page } from 'playwright-core';
import type { Episode } from '../../src/core/episode/episode.ts';
import type { Settings } from '../../src/core/settings.ts';
import { launchWithExtension } from '../../test/support/chromium.ts';
import { messagesFrom } from '../../test/support/extension-messaging.ts';
import { startOpenAiTestServer } from '../../test/support/openai-test-server.ts';
import { SHOP_ITEMS, startRestartShop, type ShopItem } from './restart-shop.ts';
import { candidateJson, listedElements } from './scripted-models.ts';

export const BROWSER_BOUNDARIES = ['proposing', 'awaiting', 'approved', 'acting', 'acted'] as const;
export type BrowserBoundary = (typeof BROWSER_BOUNDARIES)[number];

export interface BrowserRestartReport {
  stops: number;
  byBoundary: Record<BrowserBoundary, number>;
  /** Stops that landed at the boundary they were aimed at (checked from the stored step and the server's counts). */
  landed: number;
  episodes: number;
  lostApprovals: number;
  duplicatedEffects: number;
  missingEffects: number;
  outcomeUnknown: number;
  /** Episodes that threw or timed out (the run goes on with the next). */
  crashes: number;
  ms: number;
}

const TASK = 'Add the kettle, the mug and the teapot to the cart';
/** How long the page is held at a boundary: ample time to stop the worker there. */
const HOLD_MS = 900;
const FINISHED = new Set<Episode['status']>(['success', 'failure', 'partial', 'stopped']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const itemOf = (semantic: string): ShopItem | null => (SHOP_ITEMS.find((i) => semantic.includes(`Add ${i}`)) ?? null);

export async function runBrowserRestarts(stopsWanted: number, log: (s: string) => void = () => {}): Promise<BrowserRestartReport> {
  const started = Date.now();
  const shop = await startRestartShop();
  const model = await startOpenAiTestServer();
  const browser = await launchWithExtension();
  let ui: Page | null = null;
  const { send, request } = messagesFrom(() => ui!);
  const report: BrowserRestartReport = {
    stops: 0, byBoundary: { proposing: 0, awaiting: 0, approved: 0, acting: 0, acted: 0 }, landed: 0,
    episodes: 0, lostApprovals: 0, duplicatedEffects: 0, missingEffects: 0, outcomeUnknown: 0, crashes: 0, ms: 0,
  };

  // The model: the first "Add …" button still listed, else done. Armed, it holds the call and the worker is stopped meanwhile.
  let stopDuringModelCall: (() => void) | null = null;
  model.respond((body) => {
    const prompt = body.messages.filter((m) => m.role === 'user').map((m) => String(m.content)).join('\n');
    const elements = listedElements(prompt);
    if (elements.length > 0 && stopDuringModelCall) {
      const stop = stopDuringModelCall;
      stopDuringModelCall = null;
      stop();
      return { hang: true };
    }
    const next = elements.find((e) => e.role === 'button' && e.name.startsWith('Add '));
    return candidateJson([next ? `click([${next.ref}])` : 'send_msg_to_user("The three items are in the cart")']);
  });

  try {
    const tab = await browser.context.newPage();
    await tab.goto(`${shop.origin}/shop?run=0`);
    ui = await browser.context.newPage();
    await ui.goto(`chrome-extension://${browser.extensionId}/src/ui/sidepanel/index.html`);
    const tabId = await browser.serviceWorker.evaluate(async (origin) => (await chrome.tabs.query({})).find((t) => t.url?.startsWith(origin))!.id!, shop.origin);
    const settings = await request<Settings>({ type: 'settings.get' });
    await request<Settings>({
      type: 'settings.set',
      settings: {
        ...settings,
        provider: { preset: 'custom', baseUrl: model.baseUrl, apiKey: 'test', model: 'test-model', logitMode: 'verbalized', timeoutMs: 20_000 },
        // Every learner off (some are off by default; the others are switched off here).
        learners: learnersOff(settings),
        agent: { ...settings.agent, askModes: {}, maxSteps: 8, selection: 'argmax' },
      },
    });
    const cdp: CDPSession = await browser.context.newCDPSession(tab);
    await cdp.send('ServiceWorker.enable');
    const stopWorker = async (boundary: BrowserBoundary) => {
      await cdp.send('ServiceWorker.stopAllWorkers');
      report.stops++;
      report.byBoundary[boundary]++;
    };

    /** Polls until the episode leaves "running"; a poll is also what restarts a stopped worker. */
    const settle = async (id: string): Promise<Episode> => {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const reply = await send({ type: 'episode.get', episodeId: id }).catch(() => null);
        if (reply?.ok) {
          const ep = reply.value as Episode;
          if (ep.status !== 'running') return ep;
        }
        if (Date.now() > deadline) throw new Error(`episode ${id} stayed running`);
        await sleep(40);
      }
    };
    const stepAt = async (id: string, k: number) => ((await request<Episode>({ type: 'episode.get', episodeId: id })).steps[k] ?? null);

    // Stops aimed so far (a stop is counted in report.stops when it is made).
    let aimed = 0;
    for (let run = 1; aimed < stopsWanted && report.crashes < 5; run++) {
      report.episodes++;
      // Three boundaries per episode (one per "Add" step), rotating over all five.
      const plan = SHOP_ITEMS.map((_, k) => BROWSER_BOUNDARIES[(3 * (run - 1) + k) % BROWSER_BOUNDARIES.length]!);
      const used = new Set<number>();
      const approved = new Set<number>();
      let proposalFor = 0;
      const armModelStop = () => {
        const k = proposalFor;
        if (plan[k] !== 'proposing' || used.has(k) || aimed >= stopsWanted) return;
        used.add(k);
        aimed++;
        // Landed by construction: the call is held unanswered while the worker is stopped.
        stopDuringModelCall = () => void stopWorker('proposing').then(() => { report.landed++; });
      };
      let id = '';
      try {
        await tab.goto(`${shop.origin}/shop?run=${run}`, { waitUntil: 'load' });
        armModelStop();
        id = (await request<Episode>({ type: 'episode.start', tabId, task: TASK })).id;
        let ep = await settle(id);
        for (let turn = 0; turn < 30 && !FINISHED.has(ep.status); turn++) {
          if (ep.status === 'awaiting_approval') {
            const k = ep.steps.length - 1;
            const step = ep.steps[k]!;
            if (approved.has(k)) report.lostApprovals++; // asked again: the approval was lost
            const candidate = step.candidates[0]!.semantic;
            const decision = { type: 'episode.decide', episodeId: id, decision: { kind: 'approve', step: k, candidate } };
            const item = itemOf(candidate);
            const boundary = item && !used.has(k) && plan[k] !== 'proposing' && aimed < stopsWanted ? plan[k]! : null;
            if (boundary !== null) {
              used.add(k);
              aimed++;
            }
            approved.add(k);
            proposalFor = k + 1;
            armModelStop();
            if (boundary === 'awaiting') {
              await stopWorker('awaiting');
              if ((await stepAt(id, k))?.chosen === null) report.landed++;
              await send(decision).catch(() => null);
            } else if (boundary === 'approved') {
              // Hold the page so the worker's re-check before acting waits; stop once the approval is saved.
              await tab.evaluate((ms) => setTimeout(() => { const end = Date.now() + ms; while (Date.now() < end) { /* busy */ } }, 0), HOLD_MS * 2);
              void send(decision).catch(() => null);
              let saved = null as Awaited<ReturnType<typeof stepAt>>;
              for (let i = 0; i < 100 && !saved?.chosen; i++) saved = await stepAt(id, k);
              await stopWorker('approved');
              if (saved?.chosen && saved.chosen.actionId === undefined && shop.effects(run)[item!] === 0) report.landed++;
              await sleep(HOLD_MS * 2);
            } else if (boundary === 'acting' || boundary === 'acted') {
              let stopped: Promise<void> = Promise.resolve();
              const before = shop.effects(run)[item!];
              const hold = (r: number, i: ShopItem) => {
                if (r !== run || i !== item) return 0;
                shop.hooks = { onEnter: () => 0, onEffect: () => 0 };
                stopped = stopWorker(boundary).then(() => {
                  if (shop.effects(run)[item] === before + (boundary === 'acted' ? 1 : 0)) report.landed++;
                });
                return HOLD_MS;
              };
              shop.hooks = boundary === 'acting' ? { onEnter: hold, onEffect: () => 0 } : { onEnter: () => 0, onEffect: hold };
              void send(decision).catch(() => null);
              for (let i = 0; i < 200 && (shop.hooks.onEnter === hold || shop.hooks.onEffect === hold); i++) await sleep(10);
              await stopped;
              shop.hooks = { onEnter: () => 0, onEffect: () => 0 };
              await sleep(HOLD_MS + 200);
            } else {
              await request<Episode>(decision);
            }
          } else if (ep.status === 'paused') {
            const result = ep.steps.at(-1)?.result;
            if (result && !result.ok && result.code === 'outcome_unknown') report.outcomeUnknown++;
            proposalFor = ep.steps.length;
            armModelStop();
            await request<Episode>({ type: 'episode.resume', episodeId: id }); // the person checked the page and goes on
          } else if (ep.status === 'awaiting_verdict') {
            await request<Episode>({ type: 'episode.verdict', episodeId: id, verdict: 'success', runEvaluator: false });
          }
          ep = await settle(id);
        }
        if (!FINISHED.has(ep.status)) throw new Error(`episode ${id} did not finish (${ep.status}: ${ep.error ?? ''})`);
        report.lostApprovals += ep.steps.filter((s) => s.chosen !== null && s.result === null).length;
      } catch (err) {
        report.crashes++;
        log(`  browser restarts: run ${run} failed: ${err instanceof Error ? err.message : String(err)}`);
        if (id) await send({ type: 'episode.stop', episodeId: id }).catch(() => null);
      } finally {
        stopDuringModelCall = null;
        shop.hooks = { onEnter: () => 0, onEffect: () => 0 };
      }
      const effects = shop.effects(run);
      for (const item of SHOP_ITEMS) {
        report.duplicatedEffects += Math.max(0, effects[item] - 1);
        if (effects[item] === 0) report.missingEffects++;
      }
      if (run % 10 === 0) log(`  browser restarts: ${report.stops}/${stopsWanted} stops, ${run} episodes`);
    }
  } finally {
    await browser.close();
    await model.close();
    await shop.close();
  }
  report.ms = Date.now() - started;
  return report;
}
