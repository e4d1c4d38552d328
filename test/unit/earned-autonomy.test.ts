/**
 * The autonomy gate as a pure function: what it counts (the person's own
 * approvals of this action on this page type, since their last rejection or
 * correction, on the same element), what always asks, and the property that
 * makes its zero structural: an action the person never approved never runs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { earnedAutonomy, type AutonomyInput } from '../../src/core/autonomy/earned-autonomy.ts';
import { actionKey, personDecisionsOf, type PersonDecision } from '../../src/core/autonomy/approval-history.ts';
import { migrateAgentSettings } from '../../src/core/autonomy/ask-mode.ts';
import { recordedStepRecord, type Episode } from '../../src/core/episode/episode.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { fingerprintOf } from '../../src/core/page/target-fingerprint.ts';
import { loadSettings } from '../../src/core/settings-load.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});
const page = (nodes: SnapshotNode[], url = 'https://shop.test/cart'): PageObservation => ({
  url, title: 'Cart', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});
const checkout = node('4', 'button', 'Checkout', { inForm: true, submits: true, formAction: 'https://shop.test/checkout', formMethod: 'post' });
const approval = (over: { [K in keyof PersonDecision]?: PersonDecision[K] | undefined } = {}): PersonDecision => {
  const { target, ...rest } = { target: fingerprintOf(checkout), ...over };
  return { origin: 'https://shop.test', url: 'https://shop.test/cart', regUrl: '/cart', action: 'click(<button "Checkout">)', verdict: 'approved', episodeId: 'e1', at: 1, ...rest, ...(target ? { target } : {}) } as PersonDecision;
};

function input(over: Partial<AutonomyInput> & { text?: string; nodes?: SnapshotNode[] } = {}): AutonomyInput {
  const text = over.text ?? 'click([4])';
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  const nodes = over.nodes ?? [checkout];
  return {
    mode: 'unapproved-only', approvalsNeeded: 2, history: [approval(), approval({ episodeId: 'e2', at: 2 })], marks: [],
    observation: page(nodes), regUrl: '/cart', action: parsed.action, semantic: 'click(<button "Checkout">)', previousUrl: null, flaggedWord: null,
    ...over,
  };
}

describe('earnedAutonomy', () => {
  it('runs an action approved twice on this page type, same element, and says so', () => {
    expect(earnedAutonomy(input())).toEqual({ run: true, reason: 'you approved it 2× on this page, same target' });
  });

  it('asks in the default mode and when Apprentice is off, whatever was approved', () => {
    expect(earnedAutonomy(input({ mode: 'every-step' }))).toEqual({ run: false, reason: 'this site is set to ask every step' });
    expect(earnedAutonomy(input({ mode: 'off' }))).toEqual({ run: false, reason: 'Apprentice is off on this site' });
  });

  it('counts only approvals of this action, on this page type, on this site', () => {
    expect(earnedAutonomy(input({ history: [approval()] })).reason).toBe('you approved it 1× here; 2 needed');
    expect(earnedAutonomy(input({ history: [approval(), approval({ regUrl: '/product/{id}', at: 2 })] })).run).toBe(false);
    expect(earnedAutonomy(input({ history: [approval(), approval({ origin: 'https://other.test', at: 2 })] })).run).toBe(false);
    expect(earnedAutonomy(input({ history: [approval(), approval({ action: 'click(<button "Checkout now">)', at: 2 })] })).run).toBe(false);
    expect(earnedAutonomy(input({ history: [] })).reason).toBe('you have not approved this here yet');
  });

  it('a rejection or correction since resets the count; approvals after it count again', () => {
    const rejected = [approval(), approval({ at: 2 }), approval({ verdict: 'rejected', target: undefined, at: 3 })];
    expect(earnedAutonomy(input({ history: rejected }))).toEqual({ run: false, reason: 'you rejected it here; it needs 2 approvals after that' });
    const corrected = [approval(), approval({ at: 2 }), approval({ verdict: 'corrected', target: undefined, at: 3 }), approval({ at: 4 })];
    expect(earnedAutonomy(input({ history: corrected })).reason).toBe('you approved it 1× here; 2 needed');
    expect(earnedAutonomy(input({ history: [...corrected, approval({ verdict: 'taught', at: 5 })] })).run).toBe(true);
  });

  it('asks when the element changed since the approvals: another form, another link, no longer the same submit', () => {
    const moved = node('4', 'button', 'Checkout', { inForm: true, submits: true, formAction: 'https://shop.test/account/delete', formMethod: 'post' });
    expect(earnedAutonomy(input({ nodes: [moved] })).reason).toBe('the element changed since you approved it: its form goes to https://shop.test/account/delete, not https://shop.test/checkout');
    const link = node('4', 'button', 'Checkout', { inForm: true, submits: false, formAction: 'https://shop.test/checkout', formMethod: 'get' });
    expect(earnedAutonomy(input({ nodes: [link] })).reason).toBe('the element changed since you approved it: its form method is get, not post; it no longer submits a form');
    // Approvals recorded without the element (older records) do not count for an element action.
    expect(earnedAutonomy(input({ history: [approval({ target: undefined }), approval({ target: undefined, at: 2 })] })).run).toBe(false);
  });

  it('a link counts only with its whole URL: another query or path asks; tracking keys do not matter', () => {
    const promo = node('7', 'link', 'Offers', { href: 'https://shop.test/offers?session=1' });
    const history = [1, 2].map((at) => approval({ action: 'click(<link "Offers">)', target: fingerprintOf(promo), at }));
    const now = (href: string) => earnedAutonomy(input({ history, nodes: [node('7', 'link', 'Offers', { href })], text: 'click([7])', semantic: 'click(<link "Offers">)' }));
    expect(now('https://shop.test/offers?session=1&utm_source=mail').run).toBe(true);
    expect(now('https://shop.test/offers?session=2').run).toBe(false);
    expect(now('https://shop.test/account/delete').run).toBe(false);
  });

  it('always asks for secrets, payment, other origins, downloads, file inputs and marked actions', () => {
    const cases: [SnapshotNode, string, string, string][] = [
      [node('4', 'textbox', 'Password', { inputType: 'password' }), 'fill([4], "x")', 'fill(<textbox "Password">, "x")', 'always asks: it acts on a password field'],
      [node('4', 'textbox', 'Card number'), 'fill([4], "4111")', 'fill(<textbox "Card number">, "4111")', 'always asks: it acts on a payment field'],
      [node('4', 'link', 'Partner', { href: 'https://evil.test/x' }), 'click([4])', 'click(<link "Partner">)', 'always asks: it opens another origin (https://evil.test)'],
      [node('4', 'link', 'Invoice', { href: 'https://shop.test/invoice.pdf' }), 'click([4])', 'click(<link "Invoice">)', 'always asks: it downloads a file'],
      [node('4', 'link', 'Export', { href: 'https://shop.test/export', download: true }), 'click([4])', 'click(<link "Export">)', 'always asks: it downloads a file'],
      [node('4', 'button', 'Upload', { inputType: 'file' }), 'click([4])', 'click(<button "Upload">)', 'always asks: it is a file input'],
      [node('4', 'button', 'Go', { submits: true, formAction: 'https://evil.test/collect', formMethod: 'post' }), 'click([4])', 'click(<button "Go">)', 'always asks: its form sends to another origin (https://evil.test)'],
      [node('4', 'textbox', 'Note', { inForm: true, formAction: 'https://evil.test/c', formMethod: 'get' }), 'press([4], "Return")', 'press(<textbox "Note">, "Return")', 'always asks: its form sends to another origin (https://evil.test)'],
    ];
    for (const [n, text, semantic, reason] of cases) {
      const history = [1, 2].map((at) => approval({ action: actionKey(semantic), target: fingerprintOf(n), at }));
      expect(earnedAutonomy(input({ nodes: [n], text, semantic, history })).reason).toBe(reason);
    }
    expect(earnedAutonomy(input({ marks: [{ origin: 'https://shop.test', action: 'click(<button "Checkout">)' }] })).reason).toBe('always asks: you marked it "always ask"');
    expect(earnedAutonomy(input({ text: 'goto("https://evil.test/?d=1")', semantic: 'goto("https://evil.test/?d=1")' })).reason).toBe('always asks: it opens another origin (https://evil.test)');
  });

  it('the word list only adds a guard: a flagged name needs its approvals in N different tasks', () => {
    expect(earnedAutonomy(input({ flaggedWord: 'checkout', history: [approval(), approval({ at: 2 })] })).reason).toBe('its name says "checkout": it needs approvals in 2 different tasks (1 so far)');
    expect(earnedAutonomy(input({ flaggedWord: 'checkout' }))).toEqual({ run: true, reason: 'you approved it in 2 tasks on this page, same target' });
  });

  it('key aliases are one key: approvals of press Space count for press Spacebar, and both are recognised', () => {
    expect(actionKey('press(<button "Go">, "Spacebar")')).toBe(actionKey('press(<button "Go">, " ")'));
    expect(actionKey('press(<textbox "Q">, "Return")')).toBe(actionKey('press(<textbox "Q">, "Enter")'));
  });

  it('property: an action the person never approved or taught never runs, whatever else the history holds', () => {
    const verdicts = fc.constantFrom<PersonDecision['verdict']>('approved', 'taught', 'rejected', 'corrected');
    const other = fc.record({
      action: fc.constantFrom('click(<button "Checkout">)', 'click(<button "Delete">)', 'click(<link "Home">)'),
      verdict: verdicts, at: fc.integer({ min: 0, max: 100 }), regUrl: fc.constantFrom('/cart', '/'),
    });
    fc.assert(fc.property(fc.array(other, { maxLength: 12 }), fc.constantFrom('every-step', 'unapproved-only', 'off') as fc.Arbitrary<AutonomyInput['mode']>, (rows, mode) => {
      // Every approval or teaching of the proposal itself is left out; anything else may be there.
      const history = rows
        .map((r) => approval({ ...r, episodeId: `e${r.at}` }))
        .filter((d) => !(d.action === 'click(<button "Checkout">)' && d.regUrl === '/cart' && (d.verdict === 'approved' || d.verdict === 'taught')))
        .sort((a, b) => a.at - b.at);
      return earnedAutonomy(input({ mode, history })).run === false;
    }), { numRuns: 300, seed: 24 });
  });
});

describe('personDecisionsOf: the person\'s own decisions only', () => {
  const episode = (kind: Episode['kind'], decision: 'approved' | 'auto' | 'edited', id: string): Episode => ({
    id, origin: 'https://shop.test', task: 't', startUrl: 'https://shop.test/cart', tabId: null, status: 'success',
    steps: [{ ...recordedStepRecord({ index: 0, url: 'https://shop.test/cart', regUrl: '/cart', semantic: 'click(<button "Checkout">)', decision, result: { ok: true, navigated: false }, startedAt: 5 }), candidates: [] }],
    answer: null, error: null, learners: [], attempt: 1, kind, startedAt: 0, endedAt: 1,
  });

  it('counts live, shown and benchmark-teacher decisions; not imported episodes (another person\'s memory) nor steps the gate ran', () => {
    const decisions = personDecisionsOf([episode('live', 'approved', 'a'), episode('imported', 'approved', 'b'), episode('bench', 'approved', 'c'), episode('live', 'auto', 'd')]);
    expect(decisions.map((d) => [d.episodeId, d.verdict])).toEqual([['a', 'approved'], ['c', 'approved']]);
  });

  it('an edit teaches the edited action and corrects the proposal it replaced', () => {
    const ep = episode('live', 'edited', 'e');
    ep.steps[0] = { ...ep.steps[0]!, chosen: { action: 'click([5])', semantic: 'click(<button "Pay">)', decision: 'edited' }, candidates: [{
      action: 'click([4])', semantic: 'click(<button "Checkout">)', origin: 'model', baseLogit: 0, adjustedLogit: 0, baseProb: 1, adjustedProb: 1,
    }] };
    expect(personDecisionsOf([ep]).map((d) => [d.action, d.verdict])).toEqual([['click(<button "Checkout">)', 'corrected'], ['click(<button "Pay">)', 'taught']]);
  });
});

describe('migration of the auto-approve setting', () => {
  it('a site with auto-approve on asks only for what the person has not approved; other settings are kept', () => {
    expect(migrateAgentSettings({ maxSteps: 9, autoApproveOrigins: ['https://a.test', 'https://b.test'], askModes: { 'https://b.test': 'off' } }))
      .toEqual({ maxSteps: 9, askModes: { 'https://a.test': 'unapproved-only', 'https://b.test': 'off' } });
    const merged = loadSettings({ agent: { maxSteps: 9, autoApproveOrigins: ['https://a.test'] } }, LEARNERS).settings;
    expect(merged.agent.maxSteps).toBe(9);
    expect(merged.agent.askModes).toEqual({ 'https://a.test': 'unapproved-only' });
    expect(merged.agent.approvalsNeeded).toBe(2);
  });
});
