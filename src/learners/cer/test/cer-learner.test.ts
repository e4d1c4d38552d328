import { describe, expect, it } from 'vitest';
import type { PageObservation } from '../../../core/page/observation.ts';
import { CerLearner } from '../core/cer-learner.ts';
import { InMemoryExperienceStore, type ExperienceStore } from '../core/experience-store.ts';
import type { ExperienceEntry } from '../core/experience.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import type { CerSettings } from '../core/settings.ts';
import { CER_ON, fixture, liveEpisode, ORIGIN, step } from './cer-helpers.ts';

const observation: PageObservation = {
  url: `${ORIGIN}/list.html`, title: 'Products', nodes: [], focusedRef: null,
  offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 0,
};

const context = (episodeId: string, task: string, regUrl: string): StepContext => ({
  episodeId, stepIndex: 0, task, origin: ORIGIN, url: `${ORIGIN}${regUrl}`, regUrl, observation, effectiveState: [],
});

function learner(store: ExperienceStore, settings: Partial<CerSettings> = {}, now = { t: 100 }) {
  return new CerLearner({ store, settings: () => ({ ...CER_ON, ...settings }), model: null, clock: { now: () => now.t } });
}

const byId = async (store: ExperienceStore) => new Map((await store.all()).map((e) => [e.id, e] as [string, ExperienceEntry]));

describe('CerLearner (offline)', () => {
  it('learns from a demonstration, replays it in the next task, counts retrievals once per episode, and credits a success', async () => {
    const store = new InMemoryExperienceStore();
    const cer = learner(store);
    const report = await cer.learnFrom(fixture('shop-filter-add-to-cart'));
    expect(report).toEqual({ added: 2, merged: 0, evicted: 0, credited: 0, reason: null, notes: [], learned: 2 });

    const task = 'Find the "Blue kettle" and add it to the cart';
    const sections = await cer.promptSections(context('e2', task, '/list.html'));
    expect(sections.map((s) => s.title)).toEqual(['Page: Products — Fixture Shop', 'Skill: Find the Blue kettle and add it to the cart']);
    const ids = sections.map((s) => s.id);
    // Same page again: the cached sections, not a second retrieval.
    expect(await cer.promptSections(context('e2', task, '/list.html'))).toBe(sections);
    // Another page in the same episode: re-ranked, but already-counted entries are not counted twice.
    await cer.promptSections(context('e2', task, '/product/{id}'));
    let rows = await byId(store);
    expect(ids.map((id) => rows.get(id)?.provenance.retrieved)).toEqual([1, 1]);

    // The episode succeeds with both entries replayed: both are credited, and the new trajectory merges in.
    const episode = liveEpisode('e2', task, [
      step(0, `${ORIGIN}/list.html`, '/list.html', 'fill(<searchbox "Filter products">, "Blue kettle")', { replayed: ids }),
      step(1, `${ORIGIN}/list.html`, '/list.html', 'click(<button "Add Blue kettle to cart">)', { replayed: ids }),
    ]);
    const second = await cer.learn({ episode, rewards: [0.2, 1] });
    expect(second).toEqual({ added: 0, merged: 2, evicted: 0, credited: 2, reason: null, notes: [], learned: 2 });
    rows = await byId(store);
    expect(ids.map((id) => [rows.get(id)?.provenance.retrieved, rows.get(id)?.provenance.retrievedThenSucceeded])).toEqual([[1, 1], [1, 1]]);
    expect(rows.get(ids[1]!)?.provenance.episodeIds).toEqual(['traj-shop-cart-1', 'e2']);
    expect(rows.size).toBe(2);
  });

  it('does not credit a failed episode, and with success-only it distils nothing from it', async () => {
    const store = new InMemoryExperienceStore();
    const cer = learner(store, { successOnly: true });
    await cer.learnFrom(fixture('shop-filter-add-to-cart'));
    const before = await store.all();
    const ids = before.map((e) => e.id);
    const failed = liveEpisode('e3', 'Find the "Green mug"', [
      step(0, `${ORIGIN}/cart`, '/cart', 'click(<button "Checkout">)', { replayed: ids }),
    ], 'failure');
    const report = await cer.learn({ episode: failed, rewards: [-1] });
    expect(report).toEqual({ added: 0, merged: 0, evicted: 0, credited: 0, reason: 'not distilled: success-only is on and the episode ended as failure', notes: [], learned: 0 });
    expect(await store.all()).toEqual(before);
  });

  it('applies the per-site cap from the settings', async () => {
    const store = new InMemoryExperienceStore();
    const clock = { t: 100 };
    const cer = learner(store, { maxEntriesPerSite: 3 }, clock);
    await cer.learnFrom(fixture('shop-filter-add-to-cart'));
    clock.t = 200;
    const report = await cer.learnFrom(fixture('shop-sort-open-cheapest'));
    expect(report).toMatchObject({ added: 3, merged: 1, evicted: 2 });
    // None was replayed yet. The products page came from both episodes and stays; the cart skill,
    // untouched since t = 100, goes first; among the rest the tie is broken by id (the product page).
    const kept = (await store.list(ORIGIN)).map((e) => (e.kind === 'dynamics' ? e.regUrl : e.name)).sort();
    expect(kept).toEqual(['/list.html', '/list.html?sort=price', 'Sort the products by {sort_by} and open the cheapest one']);
  });

  it('does nothing when switched off', async () => {
    const store = new InMemoryExperienceStore();
    await learner(store).learnFrom(fixture('shop-filter-add-to-cart'));
    const off = learner(store, { enabled: false });
    expect(await off.promptSections(context('e9', 'Find the "Blue kettle" and add it to the cart', '/list.html'))).toEqual([]);
    expect((await off.learnFrom(fixture('signup-form'))).reason).toBe('CER is switched off');
    expect((await store.all()).length).toBe(2);
  });

  it('never throws out of learn: a failing store becomes a note and a reason', async () => {
    const broken: ExperienceStore = {
      list: async () => [],
      putMany: async () => { throw new Error('QuotaExceededError: disk full'); },
      delete: async () => 0,
      forgetSite: async () => 0,
      all: async () => [],
    };
    const report = await learner(broken).learnFrom(fixture('shop-filter-add-to-cart'));
    expect(report.reason).toBe('the experience buffer could not be updated');
    expect(report.notes).toEqual(['CER learning failed: QuotaExceededError: disk full']);
  });

  it('keeps retrieval going when counting a replay fails, and says so', async () => {
    const store = new InMemoryExperienceStore();
    await learner(store).learnFrom(fixture('shop-filter-add-to-cart'));
    const flaky: ExperienceStore = { ...store, list: (o) => store.list(o), all: () => store.all(), delete: (i) => store.delete(i), forgetSite: (o) => store.forgetSite(o), putMany: async () => { throw new Error('busy'); } };
    const cer = learner(flaky);
    const sections = await cer.promptSections(context('e4', 'Find the "Blue kettle" and add it to the cart', '/list.html'));
    expect(sections.length).toBe(2);
    expect(cer.retrievalNotes('e4')).toEqual(['could not count the replay of 2 entries: busy']);
  });
});
