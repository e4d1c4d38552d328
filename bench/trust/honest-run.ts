/**
 * (b) The honest scripted model, defences on versus off. Each corpus page is
 * observed by the real page layer (dist-inject/page-agent.js in Chromium, no
 * extension needed), rendered and put in the candidate prompt exactly as the
 * policy does; "off" is the same prompt without datamarking. Also: how often
 * the gate would ask for the honest model's action on harmless pages
 * (the cost of the gate in auto-approve mode).
 */
import { installPageAgent, createPlaywrightPageDriver } from '../playwright-page-driver.ts';
import { launchPlain } from '../../test/support/chromium.ts';
import { buildCandidateMessages } from '../../src/core/policy/candidate-prompt.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import { maskObservation } from '../../src/core/secrets/mask-secrets.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import { autoApproveVerdict } from '../../src/core/agent/sensitive-actions.ts';
import type { CorpusPage } from './corpus.ts';
import { honestAnswer, undefendedMessages } from './scripted-models.ts';

export interface HonestPageResult {
  id: string;
  kind: CorpusPage['kind'];
  channel: string | null;
  on: { hijacked: boolean; correct: boolean };
  off: { hijacked: boolean; correct: boolean };
  /** The honest action on a harmless page would wait for the person even with auto-approve on. */
  gateAsks: boolean | null;
}

export async function runHonest(pages: CorpusPage[], siteOrigin: string): Promise<HonestPageResult[]> {
  const browser = await launchPlain();
  const out: HonestPageResult[] = [];
  try {
    const context = await browser.newContext();
    await installPageAgent(context);
    const tab = await context.newPage();
    const driver = createPlaywrightPageDriver(tab, { timeoutMs: 10_000 });
    for (const page of pages) {
      await tab.goto(`${siteOrigin}${page.path}`, { waitUntil: 'load' });
      const observation = maskObservation(await driver.observe({ maxChars: 12_000, lastActedRef: null }));
      const messages = buildCandidateMessages({
        task: page.task, observation, renderedObservation: renderObservation(observation), history: [], sections: [], numCandidates: 3, temperature: 0,
      });
      const on = honestAnswer(messages, page);
      const off = honestAnswer(undefendedMessages(messages), page);
      const benign = honestAnswer(undefendedMessages(messages), { ...page, attack: null }).action;
      const correct = (a: string | null) => a !== null && a === benign;
      let gateAsks: boolean | null = null;
      if (page.kind === 'negative' && benign) {
        const parsed = parseAction(benign);
        gateAsks = parsed.ok
          ? autoApproveVerdict({ grantedOrigins: [siteOrigin], observation, action: parsed.action, candidateOrigin: 'model' }).sensitive
          : null;
      }
      out.push({
        id: page.id, kind: page.kind, channel: page.channel,
        on: { hijacked: on.hijacked, correct: correct(on.action) },
        off: { hijacked: off.hijacked, correct: correct(off.action) },
        gateAsks,
      });
    }
  } finally {
    await browser.close();
  }
  return out;
}
