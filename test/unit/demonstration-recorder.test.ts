/**
 * The core of demonstration recording: steps in semantic form checkpointed
 * in the episode store, rewards and learning on stop (real CER offline
 * distiller and real JitRL learner over in-memory stores), abandoned → partial.
 */
import { cerDefinition } from '../../src/learners/cer/definition.ts';
import { jitrlDefinition } from '../../src/learners/jitrl/definition.ts';
import { describe, expect, it } from 'vitest';
import {
  DemonstrationError, DemonstrationRecorder, NotRecordingError, type DemonstrationPage, type RecordedAction,
} from '../../src/core/agent/demonstration-recorder.ts';
import { AgentController } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { CerLearner } from '../../src/learners/cer/core/cer-learner.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { JitrlLearner } from '../../src/learners/jitrl/core/jitrl-learner.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

const ORIGIN = 'http://shop.test';
const FORM = `${ORIGIN}/form.html`;
const TITLE = 'Create account — Fixture Shop';
const TAB = 7;
const TASK = 'Create an account for Ada Lovelace';

const at = (action: string, url = FORM, title = TITLE): RecordedAction => ({ action, url, title });

function setUp(options: { settings?: Settings; onRecordOff?: (recorder: DemonstrationRecorder) => Promise<void>; failOn?: boolean } = {}) {
  const settings = options.settings ?? structuredClone(DEFAULT_SETTINGS);
  const episodes = new InMemoryEpisodeStore();
  const experiences = new InMemoryExperienceStore();
  const memory = new InMemoryStepRowStore();
  const clock = { t: 1000, now() { return this.t; } };
  const calls: [number, boolean][] = [];
  let ids = 0;
  const cer = new CerLearner({ store: experiences, settings: () => cerDefinition.settings.read(settings), model: null, clock });
  const jitrl = new JitrlLearner({ store: memory, settings: () => jitrlDefinition.settings.read(settings), random: seededRandom(1), clock });
  const page: DemonstrationPage = {
    async setRecording(tabId, on) {
      calls.push([tabId, on]);
      if (on && options.failOn) throw new Error('Receiving end does not exist');
      if (!on) await options.onRecordOff?.(recorder);
    },
    async tabUrl(tabId) {
      if (tabId !== TAB) throw new Error('no such tab');
      return FORM;
    },
  };
  const deps = {
    episodes, page, learners: () => [cer, jitrl], settings: () => settings, clock, logger: silentLogger,
    newId: () => `demo-${++ids}`,
  };
  const recorder = new DemonstrationRecorder(deps);
  return { recorder, deps, episodes, experiences, memory, clock, calls, settings };
}

const semantics = (e: Episode) => e.steps.map((s) => s.chosen?.semantic);

describe('DemonstrationRecorder', () => {
  it('starts a demonstration episode and switches recording on in the tab', async () => {
    const { recorder, calls } = setUp();
    const ep = await recorder.start({ tabId: TAB, task: TASK });
    expect(ep).toMatchObject({
      id: 'demo-1', origin: ORIGIN, task: TASK, startUrl: FORM, tabId: TAB, status: 'running', kind: 'demonstration',
      steps: [], attempt: 1, learners: ['cer', 'jitrl'], startedAt: 1000, endedAt: null,
    });
    expect(calls).toEqual([[TAB, true]]);
    expect((await recorder.recordingIn(TAB))?.id).toBe('demo-1');
    expect(await recorder.recordingIn(TAB + 1)).toBeNull();
  });

  it('records each action as a step, checkpointed, with page type, title, navigation and effective state', async () => {
    const { recorder, episodes, clock } = setUp();
    await recorder.start({ tabId: TAB, task: TASK });
    clock.t = 1500;
    await recorder.record(TAB, at('fill(<textbox "Full name">, "Ada Lovelace")'));
    // Checkpointed: the store has the step before the next one arrives.
    expect(semantics((await episodes.get('demo-1'))!)).toEqual(['fill(<textbox "Full name">, "Ada Lovelace")']);
    clock.t = 1700;
    await recorder.record(TAB, at('select_option(<combobox "Country">, "Germany")'));
    await recorder.record(TAB, at('click(<link "Products">)'));
    clock.t = 2000;
    const ep = await recorder.record(TAB, at('click(<link "Blue kettle">)', `${ORIGIN}/list.html?sort=price`, '  Products —\n Fixture Shop '));

    expect(semantics(ep)).toEqual([
      'fill(<textbox "Full name">, "Ada Lovelace")',
      'select_option(<combobox "Country">, "Germany")',
      'click(<link "Products">)',
      'click(<link "Blue kettle">)',
    ]);
    expect(ep.steps.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    expect(ep.steps.map((s) => s.chosen?.decision)).toEqual(['demonstrated', 'demonstrated', 'demonstrated', 'demonstrated']);
    expect(ep.steps.map((s) => s.chosen?.action)).toEqual(semantics(ep));
    expect(ep.steps.map((s) => s.pageTitle)).toEqual([TITLE, TITLE, TITLE, 'Products — Fixture Shop']);
    expect(ep.steps.map((s) => s.regUrl)).toEqual(['/form.html', '/form.html', '/form.html', '/list.html?sort=price']);
    // The link click took the person to another page: marked as navigated once the next step showed it.
    expect(ep.steps.map((s) => s.result)).toEqual([
      { ok: true, navigated: false }, { ok: true, navigated: false }, { ok: true, navigated: true }, { ok: true, navigated: false },
    ]);
    expect(ep.steps.map((s) => s.effectiveState)).toEqual([
      [],
      ['fill(<textbox "Full name">, "Ada Lovelace")'],
      ['fill(<textbox "Full name">, "Ada Lovelace")', 'select_option(<combobox "Country">, "Germany")'],
      [],
    ]);
    expect(ep.steps.map((s) => s.candidates.length)).toEqual([0, 0, 0, 0]);
    expect(ep.steps.map((s) => s.decisionLatencyMs)).toEqual([500, 200, 0, 300]);
    expect(ep.status).toBe('running');
  });

  it('keeps the arrival order of steps sent at once', async () => {
    const { recorder } = setUp();
    await recorder.start({ tabId: TAB, task: TASK });
    const names = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];
    const all = await Promise.all(names.map((n) => recorder.record(TAB, at(`click(<button "${n}">)`))));
    expect(semantics(all.at(-1)!)).toEqual(names.map((n) => `click(<button "${n}">)`));
  });

  it('never stores a secret typed into a field whose name says it is secret (masked by its kind)', async () => {
    const { recorder } = setUp();
    await recorder.start({ tabId: TAB, task: TASK });
    await recorder.record(TAB, at('fill(<textbox "Password">, "hunter2")'));
    await recorder.record(TAB, at('fill(<textbox "Card number">, "4111 1111 1111 1111")'));
    const ep = await recorder.record(TAB, at('fill(<textbox "Password">, "{password}")'));
    expect(semantics(ep)).toEqual([
      'fill(<textbox "Password">, "{password}")',
      'fill(<textbox "Card number">, "{payment}")',
      'fill(<textbox "Password">, "{password}")',
    ]);
    expect(JSON.stringify(ep)).not.toContain('hunter2');
    expect(JSON.stringify(ep)).not.toContain('4111');
  });

  it('refuses steps from a tab that is not recorded, ref targets, and pages that are not http(s)', async () => {
    const { recorder, episodes } = setUp();
    await expect(recorder.record(TAB, at('click(<button "Sign up">)'))).rejects.toBeInstanceOf(NotRecordingError);
    await recorder.start({ tabId: TAB, task: TASK });
    await expect(recorder.record(TAB + 1, at('click(<button "Sign up">)'))).rejects.toThrow(NotRecordingError);
    await expect(recorder.record(TAB, at('click([12])'))).rejects.toThrow(/targets a ref/);
    await expect(recorder.record(TAB, at('click(<button "Sign up"'))).rejects.toBeInstanceOf(DemonstrationError);
    await expect(recorder.record(TAB, at('click(<button "Sign up">)', 'chrome://settings'))).rejects.toThrow(/not an http\(s\) page/);
    // Nothing bad was stored, and the queue still works after the failures.
    const ep = await recorder.record(TAB, at('click(<button "Sign up">)'));
    expect(semantics(ep)).toEqual(['click(<button "Sign up">)']);
    expect(semantics((await episodes.get('demo-1'))!)).toEqual(['click(<button "Sign up">)']);
  });

  it('stops with success: rewards, CER dynamics and skill for the site, JitRL transitions', async () => {
    const { recorder, experiences, memory, calls } = setUp();
    await recorder.start({ tabId: TAB, task: TASK });
    await recorder.record(TAB, at('fill(<textbox "Full name">, "Ada Lovelace")'));
    await recorder.record(TAB, at('fill(<textbox "Password">, "{password}")'));
    await recorder.record(TAB, at('check(<checkbox "Send me the newsletter">)'));
    await recorder.record(TAB, at('click(<button "Sign up">)'));
    const done = await recorder.stop('demo-1', 'success');

    expect(calls).toEqual([[TAB, true], [TAB, false]]);
    expect(done.status).toBe('success');
    expect(done.endedAt).toBe(1000);
    expect(done.error).toBeNull();
    // approve (0.2) + half the success (0.5) on every step before the last; approve + success (1) on the last.
    expect(done.steps.map((s) => s.reward)).toEqual([0.7, 0.7, 0.7, 1.2]);
    expect(await recorder.recordingIn(TAB)).toBeNull();

    const entries = await experiences.list(ORIGIN);
    const dynamics = entries.filter((e) => e.kind === 'dynamics');
    const skills = entries.filter((e) => e.kind === 'skill');
    expect(dynamics.map((d) => [d.pageName, d.regUrl, d.exampleUrl])).toEqual([[TITLE, '/form.html', FORM]]);
    expect(skills).toHaveLength(1);
    expect(skills[0]!.provenance.episodeIds).toEqual(['demo-1']);
    expect(skills[0]!.provenance.source).toBe('demonstration');
    expect(skills[0]!.steps.flatMap((s) => s.exampleActions)).toEqual([
      'fill(<textbox "Full name">, "{full_name}")',
      'fill(<textbox "Password">, "{password}")',
      'check(<checkbox "Send me the newsletter">)',
      'click(<button "Sign up">)',
    ]);

    const rows = await memory.bySite(ORIGIN, { query: '', limit: 50, offset: 0 });
    expect(rows.map((r) => [r.action, r.reward, r.episodeId]).sort()).toEqual([
      ['check(<checkbox "Send me the newsletter">)', 0.7, 'demo-1'],
      ['click(<button "Sign up">)', 1.2, 'demo-1'],
      ['fill(<textbox "Full name">, "Ada Lovelace")', 0.7, 'demo-1'],
      ['fill(<textbox "Password">, "{password}")', 0.7, 'demo-1'],
    ]);
    await expect(recorder.stop('demo-1', 'failure')).rejects.toThrow(/already ended \(success\)/);
  });

  it('stores what the page still had pending when recording stopped', async () => {
    const { recorder } = setUp({
      onRecordOff: async (r) => {
        await r.record(TAB, at('fill(<textbox "About you">, "Mathematician")'));
      },
    });
    await recorder.start({ tabId: TAB, task: TASK });
    await recorder.record(TAB, at('fill(<textbox "Full name">, "Ada Lovelace")'));
    const done = await recorder.stop('demo-1', 'failure');
    expect(semantics(done)).toEqual(['fill(<textbox "Full name">, "Ada Lovelace")', 'fill(<textbox "About you">, "Mathematician")']);
    expect(done.status).toBe('failure');
    expect(done.steps.map((s) => s.reward)).toEqual([0.2 - 0.5, 0.2 - 1]);
  });

  it('keeps an abandoned demonstration as partial, never as a success', async () => {
    const { recorder, settings } = setUp();
    await recorder.start({ tabId: TAB, task: TASK });
    await recorder.record(TAB, at('fill(<textbox "Full name">, "Ada Lovelace")'));
    await recorder.record(TAB, at('click(<button "Sign up">)'));
    const done = await recorder.stop('demo-1', 'abandoned');
    expect(done.status).toBe('partial');
    expect(done.error).toBe('demonstration abandoned: kept as partial');
    expect(done.steps.map((s) => s.reward)).toEqual([0.2 + 0.5 * settings.rewards.partial, 0.2 + settings.rewards.partial]);
  });

  it('ends the recording as partial when the tab closes, and when a new one starts in the same tab', async () => {
    const { recorder, episodes } = setUp();
    await recorder.start({ tabId: TAB, task: TASK });
    await recorder.record(TAB, at('click(<button "Sign up">)'));
    const closed = await recorder.tabClosed(TAB);
    expect(closed?.status).toBe('partial');
    expect(closed?.error).toBe('demonstration abandoned: kept as partial; the tab closed while recording');
    expect(await recorder.tabClosed(TAB)).toBeNull();

    await recorder.start({ tabId: TAB, task: TASK });
    await recorder.record(TAB, at('click(<button "Sign up">)'));
    const third = await recorder.start({ tabId: TAB, task: 'Another task' });
    expect((await episodes.get('demo-2'))?.status).toBe('partial');
    expect(third.attempt).toBe(1);
    expect((await recorder.recordingIn(TAB))?.id).toBe('demo-3');
    expect((await episodes.all()).filter((e) => e.status === 'success')).toEqual([]);
  });

  it('re-arms recording after a page load only in a recorded tab', async () => {
    const { recorder, calls } = setUp();
    expect(await recorder.tabLoaded(TAB)).toBe(false);
    await recorder.start({ tabId: TAB, task: TASK });
    expect(await recorder.tabLoaded(TAB)).toBe(true);
    expect(await recorder.tabLoaded(TAB + 1)).toBe(false);
    expect(calls).toEqual([[TAB, true], [TAB, true]]);
  });

  it('survives a worker restart: a fresh recorder over the same store continues the recording', async () => {
    const { recorder, deps } = setUp();
    await recorder.start({ tabId: TAB, task: TASK });
    await recorder.record(TAB, at('fill(<textbox "Full name">, "Ada Lovelace")'));
    const after = new DemonstrationRecorder(deps);
    const ep = await after.record(TAB, at('click(<button "Sign up">)'));
    expect(semantics(ep)).toEqual(['fill(<textbox "Full name">, "Ada Lovelace")', 'click(<button "Sign up">)']);
    expect((await after.stop(ep.id, 'success')).status).toBe('success');
  });

  it('closes the episode as an error when the page cannot record, and learns nothing from it', async () => {
    const { recorder, episodes, experiences } = setUp({ failOn: true });
    await expect(recorder.start({ tabId: TAB, task: TASK })).rejects.toThrow(/recording could not start/);
    expect((await episodes.get('demo-1'))?.status).toBe('error');
    expect(await recorder.recordingIn(TAB)).toBeNull();
    expect(await experiences.all()).toEqual([]);
    await expect(recorder.start({ tabId: 99, task: TASK })).rejects.toThrow('no such tab');
  });

  it('is never driven by the agent loop', async () => {
    const { recorder, deps } = setUp();
    const started = await recorder.start({ tabId: TAB, task: TASK });
    const fail = () => { throw new Error('must not be called'); };
    const controller = new AgentController({
      episodes: deps.episodes, pageFor: fail, policy: fail, learners: () => [], evaluator: () => null,
      settings: deps.settings, clock: deps.clock, logger: silentLogger, newId: () => 'x',
    });
    expect(await controller.proposeStep(started.id)).toEqual(started);
  });
});
