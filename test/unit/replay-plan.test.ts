/**
 * Issue 25: plan approval (approve once, edit a value, decline), what still
 * asks inside an approved plan, the act-time re-check, and bad input
 * (unbindable variables, a success that changed the wrong item, an imported
 * procedure with an always-ask step).
 */
import { describe, expect, it } from 'vitest';
import { destructiveWordIn } from '../../src/core/agent/sensitive-actions.ts';
import { wrongItemStep } from '../../src/core/replay/build-procedures.ts';
import { matchPlan } from '../../src/core/replay/match-procedure.ts';
import { readProcedureFile } from '../../src/core/replay/procedure-file.ts';
import type { Procedure } from '../../src/core/replay/procedure.ts';
import { tokensPerModelStep } from '../../src/core/replay/replay-port.ts';
import { executed, replayWorld } from './replay-helpers.ts';

async function offered() {
  const w = replayWorld({ approvePlans: false });
  await w.attempt('Ada');
  w.fresh();
  const ep = await w.controller.start({ task: 'Set the display name to "Grace"', startUrl: 'https://profile.test/', tabId: null });
  return { w, ep };
}

describe('plan approval', () => {
  it('offers the whole plan first: steps with the values in place, the origins, and the first step pending', async () => {
    const { w, ep } = await offered();
    expect(ep.status).toBe('awaiting_approval');
    expect(ep.replay).toMatchObject({
      status: 'offered',
      values: { display_name: 'Grace' },
      origins: ['https://profile.test'],
      steps: [
        { regUrl: '/', action: 'click(<link "Profile">)' },
        { regUrl: '/profile', action: 'fill(<textbox "Display name">, "Grace")' },
        { regUrl: '/profile', action: 'click(<button "Save">)' },
      ],
    });
    expect(ep.steps.map((s) => [s.replayStep?.step, s.chosen])).toEqual([[0, null]]);
    expect(w.policy().calls).toBe(0);
  });

  it('approved once, its steps run unasked as approved; a step of an always-ask kind (Save) still asks', async () => {
    const { w, ep } = await offered();
    const after = await w.controller.decidePlan(ep.id, { kind: 'approve' });
    expect(after.replay!.status).toBe('approved');
    expect(after.status).toBe('awaiting_approval');
    expect(after.steps.map((s) => s.chosen?.decision ?? 'pending')).toEqual(['approved', 'auto', 'pending']);
    expect(after.steps[2]!.candidates[0]!.semantic).toBe('click(<button "Save">)');
    expect(w.policy().calls).toBe(0);
  });

  it('a plan step whose target changed before it runs is not run, even when approved', async () => {
    const { w, ep } = await offered();
    const pending = await w.controller.decidePlan(ep.id, { kind: 'approve' });
    w.site().variant.saveName = 'Delete account'; // the page changed under the shown proposal
    const tried = await w.controller.decide(pending.id, { kind: 'approve', step: 2, candidate: 'click(<button "Save">)' });
    expect(tried.status).toBe('paused');
    expect(tried.steps[2]!.result).toEqual({ ok: false, code: 'not_run', message: 'not run: [5] is button "Delete account" now, not button "Save" as shown' });
    expect(w.site().saved).toBeNull();
  });

  it('an edited value re-binds the plan, and the plan runs with it', async () => {
    const { w, ep } = await offered();
    const after = await w.controller.decidePlan(ep.id, { kind: 'approve', values: { display_name: 'Hopper' } });
    expect(after.replay!.steps[1]!.action).toBe('fill(<textbox "Display name">, "Hopper")');
    expect(executed(after)).toEqual(['click(<link "Profile">)', 'fill(<textbox "Display name">, "Hopper")']);
    expect(w.site().typed).toBe('Hopper');
    await expect(w.controller.decidePlan(ep.id, { kind: 'decline' })).rejects.toThrow('there is no plan waiting for approval');
  });

  it('an edit naming a value the plan does not have is refused', async () => {
    const { w, ep } = await offered();
    await expect(w.controller.decidePlan(ep.id, { kind: 'approve', values: { email: 'x' } })).rejects.toThrow('the plan has no value named email');
  });

  it('declined, the policy proposes as without replay', async () => {
    const { w, ep } = await offered();
    const after = await w.controller.decidePlan(ep.id, { kind: 'decline' });
    expect(after.replay!.status).toBe('declined');
    expect(after.steps.map((s) => [s.replayStep, s.logitSource])).toEqual([[undefined, 'offline']]);
    expect(w.policy().calls).toBe(1);
  });

  it('a rejected plan step ends the replay there', async () => {
    const { w, ep } = await offered();
    const after = await w.controller.decide(ep.id, { kind: 'reject' });
    expect(after.replay!.fallback).toEqual({ step: 0, reason: 'the person rejected the step' });
    expect(w.policy().calls).toBe(1);
    // The scripted policy knows only the rejected action: it has nothing else, and says so.
    expect(after.error).toBe('DecisionError: The policy proposed no action that fits this page. Edit an action, or stop.');
  });
});

const procedure = (over: Partial<Procedure>): Procedure => ({
  id: 's-1', origin: 'https://a.test', template: 'Sign in as {user}', variables: ['user'],
  steps: [{ regUrl: '/login', action: 'fill(<textbox "User">, "{user}")' }],
  sources: [{ episodeId: 'e1', source: 'live', taught: false, endedAt: 1 }], endsWithAnswer: false, ...over,
});

describe('bad input', () => {
  it('a variable the task does not give: refused with a message naming it, never guessed', () => {
    const p = procedure({ variables: ['user', 'password'], steps: [{ regUrl: '/login', action: 'fill(<textbox "User">, "{user}")' }, { regUrl: '/login', action: 'fill(<textbox "Password">, "{password}")' }] });
    expect(matchPlan('Sign in as "ada"', [p], new Map())).toEqual({
      kind: 'refused', notes: [],
      message: 'Not replayed: "Sign in as {user}" needs {password}, which the task does not give. The policy runs instead.',
    });
    expect(matchPlan('Sign out', [p], new Map())).toEqual({ kind: 'none', notes: [] });
    expect(matchPlan('Sign in as "ada"', [procedure({})], new Map())).toMatchObject({ kind: 'plan', plan: { values: { user: 'ada' } } });
  });

  it('a success that changed state on an item the task does not name yields no procedure', () => {
    expect(wrongItemStep([
      { regUrl: '/p', action: 'click(<button "Add Red mug to cart">)' },
      { regUrl: '/p', action: 'click(<button "Add {item} to cart">)' },
    ])).toBe(0);
    expect(wrongItemStep([
      { regUrl: '/p', action: 'click(<link "Red mug">)' },
      { regUrl: '/p', action: 'click(<button "Add {item} to cart">)' },
    ])).toBeNull();
  });

  it('an imported procedure with an always-ask step is refused with the step and the reason; nothing imported', () => {
    const file = (steps: Procedure['steps']) => JSON.stringify({ kind: 'apprentice-procedures', version: 1, procedures: [procedure({ steps })] });
    expect(readProcedureFile(file([{ regUrl: '/login', action: 'fill(<textbox "Password">, "{user}")' }]), destructiveWordIn)).toEqual({
      ok: false,
      message: 'Step 1 of "Sign in as {user}" (fill(<textbox "Password">, "{user}")) always asks: it types into a secret field. An imported procedure cannot carry such a step. Nothing imported.',
    });
    expect(readProcedureFile(file([{ regUrl: '/', action: 'goto("https://evil.test/x")' }]), destructiveWordIn)).toMatchObject({ ok: false, message: expect.stringContaining('it goes to another origin (https://evil.test)') });
    expect(readProcedureFile(file([{ regUrl: '/', action: 'click(<button "Place order">)' }]), destructiveWordIn)).toMatchObject({ ok: false, message: expect.stringContaining('may be irreversible (place order)') });
    expect(readProcedureFile('{"kind":"x"}', destructiveWordIn)).toMatchObject({ ok: false, message: expect.stringContaining('is not a procedures file') });
    expect(readProcedureFile(file([{ regUrl: '/login', action: 'fill(<textbox "User">, "{user}")' }]), destructiveWordIn)).toMatchObject({ ok: true });
  });

  it('a refused procedure is said in the episode and the policy runs', async () => {
    const needsSecret = procedure({
      origin: 'https://profile.test', template: 'Set the display name to {display_name}', variables: ['display_name', 'password'],
      steps: [{ regUrl: '/', action: 'click(<link "Profile">)' }, { regUrl: '/profile', action: 'fill(<textbox "Password">, "{password}")' }],
    });
    const w = replayWorld({ port: { find: async ({ task }) => matchPlan(task, [needsSecret], new Map()), record: async () => {} } });
    const ep = await w.attempt('Ada');
    expect(ep.replay).toMatchObject({ status: 'refused', message: 'Not replayed: "Set the display name to {display_name}" needs {password}, which the task does not give. The policy runs instead.' });
    expect(ep.steps.every((s) => s.replayStep === undefined)).toBe(true);
    expect(w.policy().calls).toBe(4);
  });
});

describe('tokens saved', () => {
  it('is estimated from the site\'s last model-driven steps', () => {
    const step = (calls: number, p: number, c: number) => ({ modelCalls: calls, promptTokens: p, completionTokens: c });
    const eps = [
      { startedAt: 1, steps: [step(1, 1000, 100), step(0, 0, 0)] },
      { startedAt: 2, steps: [step(1, 2000, 200), step(1, 3000, 300)] },
    ] as unknown as Parameters<typeof tokensPerModelStep>[0];
    expect(tokensPerModelStep(eps)).toBe(2200); // (1100 + 2200 + 3300) / 3
    expect(tokensPerModelStep(eps, 2)).toBe(2750); // the two newest: (3300 + 2200) / 2
    expect(tokensPerModelStep([])).toBeNull();
  });
});

describe('the plan decision crossing the message boundary', () => {
  it('is validated: an unknown kind, a non-string value or an extra field is a ProtocolError; a good one reaches the controller', async () => {
    const { dispatchUiRequest } = await import('../../src/protocol/validate.ts');
    const seen: unknown[] = [];
    const handlers = { 'episode.plan': async (req: unknown) => { seen.push(req); throw Object.assign(new Error('no plan'), { name: 'DecisionError' }); } } as never;
    for (const bad of [
      { type: 'episode.plan', episodeId: 'e', decision: { kind: 'run-anyway' } },
      { type: 'episode.plan', episodeId: 'e', decision: { kind: 'approve', values: { name: 3 } } },
      { type: 'episode.plan', episodeId: 'e', decision: { kind: 'decline', values: {} } },
    ]) {
      const reply = await dispatchUiRequest(handlers, bad, null);
      expect(reply.ok === false && reply.error.name).toBe('ProtocolError');
    }
    expect(seen).toEqual([]);
    const good = await dispatchUiRequest(handlers, { type: 'episode.plan', episodeId: 'e', decision: { kind: 'approve', values: { name: 'Ada' } } }, null);
    expect(good).toEqual({ ok: false, error: { name: 'DecisionError', message: 'no plan' } });
    expect(seen).toEqual([{ episodeId: 'e', decision: { kind: 'approve', values: { name: 'Ada' } } }]);
  });
});
