/**
 * Taught steps count toward earned autonomy like approvals: a demonstrated
 * (or shown) step carries the element's fingerprint as the content script saw
 * it, so two demonstrations of a click let the gate run it on the same
 * element, and ask when the element changed since.
 */
import { describe, expect, it } from 'vitest';
import { DemonstrationRecorder, recordedStep, type DemonstrationPage, type RecordedAction } from '../../src/core/agent/demonstration-recorder.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { personDecisionsOf } from '../../src/core/autonomy/approval-history.ts';
import { earnedAutonomy } from '../../src/core/autonomy/earned-autonomy.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { fingerprintOf } from '../../src/core/page/target-fingerprint.ts';
import { silentLogger } from '../../src/core/ports.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';

const ORIGIN = 'http://shop.test';
const CART = `${ORIGIN}/cart`;
const TAB = 3;
const checkout = (formAction = `${ORIGIN}/checkout`): SnapshotNode => ({
  ref: '4', kind: 'interactive', role: 'button', name: 'Checkout', states: {}, depth: 0, inViewport: true,
  inForm: true, submits: true, formAction, formMethod: 'post',
});
const cartPage = (node: SnapshotNode): PageObservation => ({
  url: CART, title: 'Cart', nodes: [node], focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});
const shown = (target = fingerprintOf(checkout())): RecordedAction => ({ action: 'click(<button "Checkout">)', url: CART, title: 'Cart', target });

async function twoDemonstrations() {
  const episodes = new InMemoryEpisodeStore();
  const page: DemonstrationPage = { async setRecording() {}, async tabUrl() { return CART; } };
  let ids = 0;
  const clock = { t: 1000, now() { return this.t; } };
  const recorder = new DemonstrationRecorder({
    episodes, page, learners: () => [], settings: () => DEFAULT_SETTINGS, clock, logger: silentLogger, newId: () => `demo-${++ids}`,
  });
  for (let k = 0; k < 2; k++) {
    const ep = await recorder.start({ tabId: TAB, task: 'check out' });
    clock.t += 100;
    await recorder.record(TAB, shown());
    await recorder.stop(ep.id, 'success');
  }
  return episodes.all();
}

const gateOn = (node: SnapshotNode, history: ReturnType<typeof personDecisionsOf>) => {
  const parsed = parseAction('click([4])');
  if (!parsed.ok) throw parsed.error;
  return earnedAutonomy({
    mode: 'unapproved-only', approvalsNeeded: 2, history, marks: [], observation: cartPage(node), regUrl: '/cart',
    action: parsed.action, semantic: 'click(<button "Checkout">)', previousUrl: null, flaggedWord: null,
  });
};

describe('demonstrated steps carry the element fingerprint', () => {
  it('a recorded step keeps the target the content script saw', () => {
    expect(recordedStep(shown(), 0, 0, 0).chosen?.target).toEqual({
      role: 'button', name: 'Checkout', formAction: `${ORIGIN}/checkout`, formMethod: 'post', submits: true,
    });
  });

  it('a fingerprint of another element than the one the action names is dropped (the step still teaches, it does not count for autonomy)', () => {
    const other = { ...fingerprintOf(checkout()), name: 'Donate' };
    expect(recordedStep(shown(other), 0, 0, 0).chosen?.target).toBeUndefined();
    expect(recordedStep({ action: 'goto("http://shop.test/")', url: CART, title: 'Cart', target: fingerprintOf(checkout()) }, 0, 0, 0).chosen?.target).toBeUndefined();
  });

  it('two demonstrations count as two teachings: the gate runs the click on the same element', async () => {
    const history = personDecisionsOf(await twoDemonstrations());
    expect(history.map((d) => [d.verdict, d.target?.formAction])).toEqual([['taught', `${ORIGIN}/checkout`], ['taught', `${ORIGIN}/checkout`]]);
    expect(gateOn(checkout(), history)).toEqual({ run: true, reason: 'you approved it 2× on this page, same target' });
  });

  it('and asks when the element changed since: the form now goes elsewhere', async () => {
    const history = personDecisionsOf(await twoDemonstrations());
    const verdict = gateOn(checkout(`${ORIGIN}/donate`), history);
    expect(verdict.run).toBe(false);
    expect(verdict.reason).toContain(`its form goes to ${ORIGIN}/donate`);
  });
});
