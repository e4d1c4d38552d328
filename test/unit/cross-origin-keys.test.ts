/**
 * Issue 23, learning finding 10: a path means nothing across sites. When an
 * episode started on one site reaches a page of another ("/pay" of a payment
 * provider), CER's per-episode cache, Training-Free GRPO's hints and EvoTest's
 * memory must read the other site's knowledge, never the first site's
 * knowledge of its own "/pay".
 */
import { describe, expect, it } from 'vitest';
import { CerLearner } from '../../src/learners/cer/core/cer-learner.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { buildMemory, hintsFor } from '../../src/learners/evotest/core/experience-memory.ts';
import { EvotestLearner, trajectoryOf } from '../../src/learners/evotest/core/evotest-learner.ts';
import { EvotestRuntime } from '../../src/learners/evotest/core/evotest-runtime.ts';
import { lineageStoreOn } from '../../src/learners/evotest/core/lineage-store.ts';
import { DEFAULT_EVOTEST_SETTINGS } from '../../src/learners/evotest/core/settings.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import type { StepContext } from '../../src/core/learning/learner.ts';
import { splitGroup } from '../../src/learners/tfgrpo/core/group.ts';
import { deriveRules } from '../../src/learners/tfgrpo/core/offline-rules.ts';
import { TfgrpoLearner } from '../../src/learners/tfgrpo/core/tfgrpo-learner.ts';
import { InMemoryTfgrpoStore } from '../../src/learners/tfgrpo/core/tfgrpo-store.ts';
import type { PageObservation } from '../../src/core/page/observation.ts';
import { CER_ON, dynamics, liveEpisode, step as cerStep } from '../../src/learners/cer/test/cer-helpers.ts';
import { digest, SEED, step as evoStep, TUNABLES } from '../../src/learners/evotest/test/evotest-helpers.ts';
import { experience, G1, TFGRPO_ON } from '../../src/learners/tfgrpo/test/tfgrpo-helpers.ts';
import { attempt, step as grpoStep } from '../../src/learners/tfgrpo/test/tfgrpo-helpers.ts';

const BAKERY = 'http://bakery.test';
const PAYER = 'http://payer.test';
const TASK = 'Order the "rye loaf"';

const observation = (url: string): PageObservation => ({
  url, title: 'Page', nodes: [], focusedRef: null,
  offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 0,
});
const context = (origin: string, regUrl: string, stepIndex: number): StepContext => ({
  episodeId: 'e1', stepIndex, task: TASK, origin, url: `${origin}${regUrl}`, regUrl, observation: observation(`${origin}${regUrl}`), effectiveState: [],
});

describe('cross-origin keys (finding 10)', () => {
  it("CER: a page of another origin reads that origin's buffer, not the cached first site's", async () => {
    const store = new InMemoryExperienceStore();
    await store.putMany([
      dynamics('d-bakery', { origin: BAKERY, regUrl: '/pay', pageName: 'Bakery pay page', description: 'Bakery tips.', exampleUrl: `${BAKERY}/pay` }),
      dynamics('d-payer', { origin: PAYER, regUrl: '/pay', pageName: 'Payer pay page', description: 'Card form.', exampleUrl: `${PAYER}/pay` }),
    ]);
    const cer = new CerLearner({ store, settings: () => CER_ON, model: null, clock: { now: () => 1 } });
    const first = await cer.promptSections(context(BAKERY, '/pay', 0));
    expect(first.map((s) => s.id)).toEqual(['d-bakery']);
    const there = await cer.promptSections(context(PAYER, '/pay', 1));
    expect(there.map((s) => s.id)).toEqual(['d-payer']);
  });

  it("Training-Free GRPO: the first site's hint for its own /pay is not applied on another origin's /pay", async () => {
    const store = new InMemoryTfgrpoStore();
    const hint = { pageType: '/pay', taskPattern: 'Order the {item}', prefer: ['click(<button "Tip 10%">)'], avoid: [] };
    await store.saveLibrary(BAKERY, [experience('x-tip', 'On /pay: tip.', { createdBy: { ...G1, task: TASK } }, { origin: BAKERY, hint, source: 'rule' })], null);
    const grpo = new TfgrpoLearner({ store, settings: () => TFGRPO_ON, model: null, clock: { now: () => 1 } });
    expect((await grpo.promptSections(context(BAKERY, '/pay', 0)))[0]?.suggestedActions).toEqual(['click(<button "Tip 10%">)']);
    expect(await grpo.promptSections(context(PAYER, '/pay', 1))).toEqual([]);
  });

  it('Training-Free GRPO: a contrast seen on another origin never becomes a hint for this site\'s page of the same path', () => {
    const task = TASK;
    const win = attempt('w', 'success', [grpoStep('/pay', 'click(<button "Pay now">)', { url: `${PAYER}/pay` })], task);
    const lose = attempt('l', 'failure', [grpoStep('/pay', 'click(<button "Cancel">)', { url: `${PAYER}/pay` })], task);
    const ops = deriveRules(splitGroup([{ ...win, origin: BAKERY }, { ...lose, origin: BAKERY }]), G1).operations;
    expect(ops.map((o) => (o.op === 'ADD' ? o.hint?.pageType : null))).toEqual([`${PAYER}/pay`]);
  });

  it("EvoTest: memory is keyed by origin and page type; a step elsewhere is remembered as that origin's", () => {
    const episode = liveEpisode('e1', TASK, [
      cerStep(0, `${BAKERY}/cart`, '/cart', 'click(<button "Checkout">)'),
      cerStep(1, `${PAYER}/pay`, '/pay', 'click(<button "Pay now">)'),
    ]);
    const trajectory = trajectoryOf({ episode: { ...episode, origin: BAKERY }, rewards: [0.2, 1] });
    expect(trajectory.steps.map((s) => s.origin)).toEqual([BAKERY, PAYER]);
    // As the runtime stores it: the lineage's own origin is left implicit.
    const memory = buildMemory([digest([evoStep('click(<button "Checkout">)', { regUrl: '/cart' }), evoStep('click(<button "Pay now">)', { regUrl: '/pay', origin: PAYER })])], SEED.memoryRules, BAKERY);
    expect(hintsFor(memory, SEED.memoryRules, { origin: PAYER, regUrl: '/pay', done: [] }).suggested).toEqual(['click(<button "Pay now">)']);
    expect(hintsFor(memory, SEED.memoryRules, { origin: BAKERY, regUrl: '/pay', done: [] }).suggested).toEqual([]);
    expect(hintsFor(memory, SEED.memoryRules, { origin: BAKERY, regUrl: '/cart', done: [] }).suggested).toEqual(['click(<button "Checkout">)']);
  });

  it('EvoTest end to end: the runtime keeps the payer step\'s origin and the learner asks with the page\'s origin', async () => {
    const store = lineageStoreOn(new InMemoryLearnerDataStore());
    const rt = new EvotestRuntime({ store, settings: () => ({ ...DEFAULT_EVOTEST_SETTINGS, enabled: true }), model: () => null, seed: () => SEED, tunables: TUNABLES, clock: { now: () => 5 } });
    const learner = new EvotestLearner(rt);
    const plan = await rt.begin({ origin: BAKERY, task: TASK });
    const episode = liveEpisode('e1', TASK, [
      cerStep(0, `${BAKERY}/cart`, '/cart', 'click(<button "Checkout">)'),
      cerStep(1, `${PAYER}/pay`, '/pay', 'click(<button "Pay now">)'),
    ]);
    await rt.finish(plan, trajectoryOf({ episode: { ...episode, origin: BAKERY }, rewards: [0.2, 1] }));
    // Stored as the runtime digests it: the lineage's own origin implicit, the payer's kept.
    const lineage = (await store.get(plan.lineageKey))!;
    expect(lineage.episodes[0]!.steps.map((st) => [st.origin, st.regUrl])).toEqual([[undefined, '/cart'], [PAYER, '/pay']]);
    const suggested = async (origin: string, regUrl: string) =>
      (await learner.shapeRequest({ ...context(origin, regUrl, 0), plan })).sections?.flatMap((sec) => sec.suggestedActions ?? []) ?? [];
    expect(await suggested(PAYER, '/pay')).toEqual(['click(<button "Pay now">)']);
    expect(await suggested(BAKERY, '/pay')).toEqual([]);
    expect(await suggested(BAKERY, '/cart')).toEqual(['click(<button "Checkout">)']);
  });
});

