/**
 * Issue 25 through the agent loop: a procedure built from CER's skill and
 * JitRL's transitions of a success replays the next instance with no policy
 * call, re-checks each step, falls back where the page changed, and is
 * demoted by failures (scripted site and policy; offline learners).
 */
import { describe, expect, it } from 'vitest';
import { executed, replayWorld } from './replay-helpers.ts';

describe('a procedure from a success', () => {
  it('is the clean path: the detour to Help and back is not a step; the value is a variable', async () => {
    const w = replayWorld({ detour: true });
    const first = await w.attempt('Ada', {}, { detour: true });
    expect(first.status).toBe('success');
    expect(executed(first)).toEqual([
      'click(<link "Help">)', 'click(<link "Home">)', 'click(<link "Profile">)',
      'fill(<textbox "Display name">, "Ada")', 'click(<button "Save">)',
    ]);
    const [view] = await w.library.list('https://profile.test');
    expect(view!.procedure.template).toBe('Set the display name to {display_name}');
    // Each step keeps what it did as it ran (issue 30): here elements without a link or a form.
    expect(view!.procedure.steps).toEqual([
      { regUrl: '/', action: 'click(<link "Profile">)', effect: { role: 'link', name: 'Profile', submits: false } },
      { regUrl: '/profile', action: 'fill(<textbox "Display name">, "{display_name}")', effect: { role: 'textbox', name: 'Display name', submits: false } },
      { regUrl: '/profile', action: 'click(<button "Save">)', effect: { role: 'button', name: 'Save', submits: false } },
    ]);
    expect(view!.procedure.sources.map((s) => [s.episodeId, s.source, s.taught])).toEqual([[first.id, 'bench', false]]);
    expect(view!.successCount).toBe(1);
  });

  it('without JitRL transitions (memory forgotten) there is no procedure, only a reason', async () => {
    const w = replayWorld();
    await w.attempt('Ada');
    await w.stores.memory.forgetSite('https://profile.test');
    const built = await w.library.build('https://profile.test');
    expect(built.procedures).toEqual([]);
    expect(built.skipped[0]!.reason).toBe('no verified success whose steps a learner stored');
  });
});

describe('replay', () => {
  it('runs the next instance with 0 policy calls, each step re-checked, and ends awaiting the verdict', async () => {
    const w = replayWorld();
    const first = await w.attempt('Ada');
    expect(w.policy().calls).toBe(4); // three steps, and the proposal after Save that the done check makes moot
    expect(first.steps.every((s) => s.replayStep === undefined)).toBe(true);
    const second = await w.attempt('Grace');
    expect(second.status).toBe('success');
    expect(w.policy().calls).toBe(0);
    expect(w.site().saved).toBe('Grace');
    expect(executed(second)).toEqual(['click(<link "Profile">)', 'fill(<textbox "Display name">, "Grace")', 'click(<button "Save">)']);
    expect(second.steps.map((s) => [s.replayStep?.step, s.modelCalls, s.logitSource])).toEqual([[0, 0, 'memory'], [1, 0, 'memory'], [2, 0, 'memory']]);
    expect(second.replay).toMatchObject({ status: 'finished', values: { display_name: 'Grace' }, fallback: null });
    // After each plan step that ran, the page is read for the next proposal once the next step's element shows
    // (the page layer waits, bounded); the read just before each action, and the first, wait for nothing.
    expect(w.site().waitedFor).toEqual([null, null, '<textbox "Display name">', null, '<button "Save">', null, null]);
    const [view] = await w.library.list('https://profile.test');
    expect(view!.status.successes).toBe(1);
    expect(view!.successCount).toBe(3); // two verified sources (CER merged the replayed success) + one replay success
  });

  it('falls back at the renamed button: says which step and why, runs nothing on a wrong element, and the policy finishes', async () => {
    const w = replayWorld();
    await w.attempt('Ada');
    const changed = await w.attempt('Grace', { saveName: 'Save changes' });
    expect(changed.replay!.status).toBe('fell_back');
    expect(changed.replay!.fallback).toEqual({ step: 2, reason: '<button "Save"> is not on the page' });
    expect(changed.steps[2]!.learningNotes).toContain('replay stopped at step 3 of 3: <button "Save"> is not on the page; the policy proposes from here');
    expect(changed.steps.map((s) => s.replayStep?.step ?? null)).toEqual([0, 1, null, null]);
    expect(executed(changed)).toEqual(['click(<link "Profile">)', 'fill(<textbox "Display name">, "Grace")', 'click(<button "Save changes">)']);
    expect(w.policy().calls).toBe(2);
    expect(changed.status).toBe('success');
    expect(w.site().saved).toBe('Grace');
  });

  it.each([
    [{ twoSaveButtons: true }, 2, '2 elements match <button "Save">'],
    [{ dialog: true }, 1, 'an unexpected dialog is open ("Cookies")'],
    [{ movedField: true }, 1, 'a different page type (/account, not /profile)'],
  ])('stops on %o at step %i: %s', async (variant, step, reason) => {
    const w = replayWorld();
    await w.attempt('Ada');
    const ep = await w.attempt('Grace', variant);
    expect(ep.replay!.fallback).toEqual({ step, reason });
    // Nothing replayed after the mismatch.
    expect(ep.steps.filter((s) => s.replayStep !== undefined).map((s) => s.replayStep!.step)).toEqual([...Array(step).keys()]);
  });

  it('two failures in a row stop replaying until a new success; one failure only demotes', async () => {
    const w = replayWorld();
    await w.attempt('Ada');
    // A page where Save does nothing the task can see: the replay runs and the verdict is failure.
    const failOnce = async (name: string) => {
      w.fresh();
      w.site().act = async (a) => { w.site().acted.push(a); const ref = 'target' in a && a.target?.kind === 'ref' ? a.target.ref : null; if (ref === '1') w.site().at = 'profile'; return { ok: true, navigated: ref === '1' }; };
      let ep = await w.controller.start({ task: `Set the display name to "${name}"`, startUrl: 'https://profile.test/', tabId: null, kind: 'bench' });
      while (ep.status === 'awaiting_approval') ep = await w.controller.decide(ep.id, { kind: 'approve' }, { auto: true });
      return w.controller.finish(ep.id, 'failure');
    };
    expect((await failOnce('B')).replay!.status).toBe('finished');
    let [view] = await w.library.list('https://profile.test');
    expect([view!.status.failuresInRow, view!.blocked]).toEqual([1, null]);
    await failOnce('C');
    [view] = await w.library.list('https://profile.test');
    expect(view!.blocked).toBe('its last 2 replays failed; it waits for a new success');
    const policyRun = await w.attempt('Dee');
    expect(policyRun.replay).toBeUndefined();
    expect(w.policy().calls).toBe(4); // three steps, and the proposal after Save that the done check makes moot
    // That success (CER merged it into the same skill) lets it replay again.
    const again = await w.attempt('Eve');
    expect(again.steps.every((s) => s.replayStep !== undefined)).toBe(true);
    expect(w.policy().calls).toBe(0);
  });

  it('"never replay" and delete stop it; replay off never replays', async () => {
    const w = replayWorld();
    const first = await w.attempt('Ada');
    await w.library.setNeverReplay('https://profile.test', first.steps.length ? (await w.library.list('https://profile.test'))[0]!.procedure.id : '', true);
    const ep = await w.attempt('Grace');
    expect(ep.replay).toBeUndefined();
    expect(w.policy().calls).toBe(4); // three steps, and the proposal after Save that the done check makes moot
    const off = replayWorld({ replay: false });
    await off.attempt('Ada');
    await off.attempt('Grace');
    expect(off.policy().calls).toBe(4);
  });
});

describe('the Memory tab\'s handlers', () => {
  it('list procedures with provenance, success count and last use; "never replay" and delete', async () => {
    const { createUiHandlers } = await import('../../src/background/ui-handlers.ts');
    const w = replayWorld();
    const first = await w.attempt('Ada');
    await w.attempt('Grace');
    const h = createUiHandlers({ procedures: w.library } as unknown as Parameters<typeof createUiHandlers>[0]);
    const [view] = await h['procedures.list']({ origin: 'https://profile.test' }, undefined);
    expect(view!.procedure.sources[0]!.episodeId).toBe(first.id);
    expect(view!.successCount).toBe(3);
    expect(view!.status.lastUsedAt).not.toBeNull();
    await h['procedures.neverReplay']({ origin: 'https://profile.test', id: view!.procedure.id, never: true }, undefined);
    expect((await h['procedures.list']({ origin: 'https://profile.test' }, undefined))[0]!.blocked).toBe('the person marked it "never replay"');
    await h['procedures.delete']({ origin: 'https://profile.test', id: view!.procedure.id }, undefined);
    expect(await h['procedures.list']({ origin: 'https://profile.test' }, undefined)).toEqual([]);
    const after = await w.attempt('Hal');
    expect(after.replay).toBeUndefined();
    // The policy-driven success that follows teaches it again.
    expect((await h['procedures.list']({ origin: 'https://profile.test' }, undefined))).toHaveLength(1);
  });

  it('the replay setting switched off never replays', async () => {
    const w = replayWorld();
    await w.attempt('Ada');
    const { argmax } = await import('./replay-helpers.ts');
    argmax.replay = { enabled: false };
    try {
      const ep = await w.attempt('Grace');
      expect(ep.replay).toBeUndefined();
    } finally {
      delete argmax.replay;
    }
  });
});

describe('a success that ended with an answer', () => {
  it('gives a procedure that replays its steps, then lets the policy answer', async () => {
    const w = replayWorld();
    w.fresh();
    let ep = await w.controller.start({ task: 'Set the display name to "Ada"', startUrl: 'https://profile.test/', tabId: null, kind: 'bench' });
    for (const action of ['click(<link "Profile">)', 'fill(<textbox "Display name">, "Ada")', 'click(<button "Save">)', 'send_msg_to_user("Saved the name")']) {
      ep = await w.controller.decide(ep.id, { kind: 'edit', action });
    }
    expect(ep.status).toBe('awaiting_verdict');
    await w.controller.finish(ep.id, 'success');
    const [view] = await w.library.list('https://profile.test');
    expect(view!.procedure.endsWithAnswer).toBe(true);
    expect(view!.procedure.sources[0]!.taught).toBe(true);
    expect(view!.procedure.steps.map((s) => s.action)).toEqual(['click(<link "Profile">)', 'fill(<textbox "Display name">, "{display_name}")', 'click(<button "Save">)']);
    w.fresh();
    // The plan starts approved (the benchmark's decider): its steps run unasked up to Save, which always asks.
    let second = await w.controller.start({ task: 'Set the display name to "Grace"', startUrl: 'https://profile.test/', tabId: null, kind: 'bench' });
    expect(second.steps.map((s) => [s.replayStep?.step ?? null, s.chosen?.decision ?? 'pending'])).toEqual([[0, 'auto'], [1, 'auto'], [2, 'pending']]);
    second = await w.controller.decide(second.id, { kind: 'approve' });
    expect(second.replay!.status).toBe('finished');
    expect(second.steps.map((s) => s.replayStep?.step ?? null)).toEqual([0, 1, 2, null]);
    expect(second.steps[3]!.learningNotes).toContain('replay finished its 3 steps; the policy gives the answer');
    expect(second.status).toBe('awaiting_approval');
    expect(w.policy().calls).toBe(1);
  });
});

describe('looking up a plan at the start of an episode', () => {
  it('reads the sources only of skills whose template reads the task', async () => {
    const w = replayWorld();
    await w.attempt('Ada');
    let reads = 0;
    const byPage = w.stores.memory.byPage.bind(w.stores.memory);
    w.stores.memory.byPage = async (...args) => { reads++; return byPage(...args); };
    expect(await w.library.find({ task: 'Delete my account', origin: 'https://profile.test' })).toEqual({ kind: 'none', notes: [] });
    expect(reads).toBe(0);
    expect((await w.library.find({ task: 'Set the display name to "Bo"', origin: 'https://profile.test' })).kind).toBe('plan');
    expect(reads).toBe(2); // the source's two page types
  });
});
