/**
 * Issue 30, part 3: a replayed plan step runs unasked only with the effect
 * the plan's step had (its link with the query, its form's destination,
 * method and data); otherwise it asks, saying what changed. And how the
 * task's values are carried in those texts.
 */
import { describe, expect, it } from 'vitest';
import { abstractEffect, abstractText, bindEffect, bindText, planStepEffectChanges } from '../../src/core/replay/step-effect.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { replayWorld } from './replay-helpers.ts';

const SAVE_TO = 'https://profile.test/profile/save';

async function replayOn(formAction: string) {
  const w = replayWorld({ approvePlans: false });
  await w.attempt('Ada', { formAction: SAVE_TO });
  w.fresh({ formAction });
  const offered = await w.controller.start({ task: 'Set the display name to "Grace"', startUrl: 'https://profile.test/', tabId: null });
  return { w, offered, approved: await w.controller.decidePlan(offered.id, { kind: 'approve' }) };
}

describe('a plan step is bound to its effect', () => {
  it('the plan carries each step\'s effect from the success it was learned from', async () => {
    const { offered } = await replayOn(SAVE_TO);
    expect(offered.replay!.steps.map((s) => s.effect)).toEqual([
      { role: 'link', name: 'Profile', submits: false },
      { role: 'textbox', name: 'Display name', formAction: SAVE_TO, formMethod: 'post', submits: false },
      { role: 'button', name: 'Save', formAction: SAVE_TO, formMethod: 'post', submits: false },
    ]);
  });

  it('same effect: the field is filled unasked inside the approved plan', async () => {
    const { w, approved } = await replayOn(SAVE_TO);
    expect(approved.steps.map((s) => s.chosen?.decision ?? 'pending')).toEqual(['approved', 'auto', 'pending']);
    expect(w.site().typed).toBe('Grace');
    // The replayed step keeps its element as it ran: a procedure learned from this success has its effect too,
    // and the act-time check had it to compare with.
    expect(approved.steps[1]!.chosen!.target).toEqual({ role: 'textbox', name: 'Display name', formAction: SAVE_TO, formMethod: 'post', submits: false });
  });

  it('the field\'s form now posts elsewhere: the replayed step asks and says where (it ran unasked before issue 30)', async () => {
    const { w, approved } = await replayOn('https://profile.test/u/mallory/save');
    expect(approved.status).toBe('awaiting_approval');
    expect(approved.steps.map((s) => s.chosen?.decision ?? 'pending')).toEqual(['approved', 'pending']);
    expect(approved.steps[1]!.autonomy).toEqual({
      ran: false,
      reason: `its element does not do what the plan's step did: its form goes to https://profile.test/u/mallory/save, not ${SAVE_TO}`,
    });
    expect(w.site().typed).toBe('');
  });
});

describe('the task\'s values in an effect', () => {
  const values = { item: 'blue kettle', qty: '2' };

  it('become {variables} in each way a URL or form writes them, longest value first', () => {
    expect(abstractText('https://shop.test/search?q=blue+kettle&n=2', values)).toBe('https://shop.test/search?q={item|plus}&n={qty}');
    expect(abstractText('https://shop.test/p/blue%20kettle', values)).toBe('https://shop.test/p/{item|uri}');
    expect(abstractText('https://shop.test/p/blue kettle', values)).toBe('https://shop.test/p/{item}');
  });

  it('are put back, written the same way, for the plan\'s values', () => {
    const other = { item: 'oak desk & lamp', qty: '3' };
    expect(bindText('https://shop.test/search?q={item|plus}&n={qty}', other)).toBe('https://shop.test/search?q=oak+desk+&+lamp&n=3');
    expect(bindText('https://shop.test/search?q={item|form}', other)).toBe('https://shop.test/search?q=oak+desk+%26+lamp');
    expect(bindText('https://shop.test/p/{item|uri}', other)).toBe('https://shop.test/p/oak%20desk%20%26%20lamp');
    // A variable the plan has no value for stays, and so never matches a page.
    expect(bindText('https://shop.test/p/{colour}', other)).toBe('https://shop.test/p/{colour}');
  });

  it('in links, form destinations and form data; bound with the same values, the effect is what ran', () => {
    const ran = { role: 'button', name: 'Add to cart', formAction: 'https://shop.test/cart?item=blue+kettle', formMethod: 'post', formData: [{ name: 'item', value: 'blue kettle' }, { name: 'qty', value: '2' }], submits: true };
    const abstract = abstractEffect(ran, values);
    expect(abstract).toEqual({ ...ran, formAction: 'https://shop.test/cart?item={item|plus}', formData: [{ name: 'item', value: '{item}' }, { name: 'qty', value: '{qty}' }] });
    expect(bindEffect(abstract, values)).toEqual(ran);
    expect(bindEffect(abstract, { item: 'oak desk', qty: '1' })).toEqual({ ...ran, formAction: 'https://shop.test/cart?item=oak+desk', formData: [{ name: 'item', value: 'oak desk' }, { name: 'qty', value: '1' }] });
  });
});

describe('planStepEffectChanges', () => {
  const link = (href: string): SnapshotNode => ({ ref: '1', kind: 'interactive', role: 'link', name: 'Send again', states: {}, depth: 0, inViewport: true, href });
  const page = (href: string): Pick<PageObservation, 'nodes' | 'focusedRef'> => ({ nodes: [link(href)], focusedRef: null });
  const click = { type: 'click' as const, target: { kind: 'ref' as const, ref: '1' } };
  const approved = { role: 'link', name: 'Send again', href: 'https://bank.test/transfer?to=alice&amount=5', submits: false };

  it('compares the query, and leaves out tracking keys', () => {
    expect(planStepEffectChanges(approved, click, page('https://bank.test/transfer?to=alice&amount=5&utm_source=mail'))).toEqual([]);
    expect(planStepEffectChanges(approved, click, page('https://bank.test/transfer?to=mallory&amount=500'))).toEqual([
      'its link goes to https://bank.test/transfer?to=mallory&amount=500, not https://bank.test/transfer?to=alice&amount=5',
    ]);
  });

  it('a step with an element but no recorded effect differs; a step without an element has nothing to compare', () => {
    expect(planStepEffectChanges(undefined, click, page('https://bank.test/x'))).toEqual([
      'the plan does not say what this step was approved to do (a procedure learned before effects were recorded)',
    ]);
    expect(planStepEffectChanges(undefined, { type: 'goto', url: 'https://bank.test/x' }, page('https://bank.test/x'))).toEqual([]);
  });
});
