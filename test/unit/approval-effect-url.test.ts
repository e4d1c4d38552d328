/**
 * An approval names its effect, URLs first (issue 30): the gate compares a
 * link, a form's destination and the page itself by the whole URL, query
 * included, leaving out only known tracking keys. Page types still merge
 * values for learning, never for approvals.
 */
import { describe, expect, it } from 'vitest';
import { earnedAutonomy, type AutonomyInput } from '../../src/core/autonomy/earned-autonomy.ts';
import type { PersonDecision } from '../../src/core/autonomy/approval-history.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { effectUrl } from '../../src/core/page/effect-url.ts';
import { fingerprintChanges, fingerprintOf } from '../../src/core/page/target-fingerprint.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});
const page = (nodes: SnapshotNode[], url: string): PageObservation => ({
  url, title: 'T', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});

/** Two approvals of the node's click on `approvedOn`, then the gate on `nowOn` with `nowNode`. */
function gate(approved: SnapshotNode, approvedOn: string, nowNode: SnapshotNode, nowOn: string, regUrl: string) {
  const semantic = `click(<${approved.role} "${approved.name}">)`;
  const history: PersonDecision[] = [1, 2].map((at) => ({
    origin: new URL(approvedOn).origin, url: approvedOn, regUrl, action: semantic, verdict: 'approved', episodeId: `e${at}`, at, target: fingerprintOf(approved),
  }));
  const parsed = parseAction(`click([${nowNode.ref}])`);
  if (!parsed.ok) throw parsed.error;
  const input: AutonomyInput = {
    mode: 'unapproved-only', approvalsNeeded: 2, history, marks: [], observation: page([nowNode], nowOn), regUrl,
    action: parsed.action, semantic, previousUrl: null, flaggedWord: null,
  };
  return earnedAutonomy(input);
}

describe('effectUrl', () => {
  it('keeps the query and fragment, drops only tracking keys', () => {
    expect(effectUrl('https://bank.test/transfer?to=alice&amount=5&utm_source=mail&fbclid=x1&gclid=y2#f'))
      .toBe('https://bank.test/transfer?to=alice&amount=5#f');
    expect(effectUrl('https://bank.test/transfer?utm_medium=a&UTM_Campaign=b')).toBe('https://bank.test/transfer');
    expect(effectUrl('https://Bank.test:443/a/../b?x=1')).toBe('https://bank.test/b?x=1');
    expect(effectUrl('not a url')).toBe('not a url');
    expect(effectUrl(undefined)).toBeUndefined();
  });
});

describe('the gate compares whole URLs', () => {
  const send = (href: string) => node('3', 'link', 'Send again', { href });

  it('another query on the same path is another effect: ?to=mallory&amount=500 is not ?to=alice&amount=5', () => {
    const approved = send('https://bank.test/transfer?to=alice&amount=5');
    const verdict = gate(approved, 'https://bank.test/memo/1', send('https://bank.test/transfer?to=mallory&amount=500'), 'https://bank.test/memo/1', '/memo/{id}');
    expect(verdict).toEqual({ run: false, reason: 'the element changed since you approved it: its link goes to https://bank.test/transfer?to=mallory&amount=500, not https://bank.test/transfer?to=alice&amount=5' });
    expect(fingerprintChanges(fingerprintOf(node('1', 'link', 'Go', { href: 'https://a.test/x?confirm=no' })), fingerprintOf(node('1', 'link', 'Go', { href: 'https://a.test/x?confirm=yes' })), 'site'))
      .toEqual(['its link goes to https://a.test/x?confirm=yes, not https://a.test/x?confirm=no']);
  });

  it('tracking keys do not make another effect', () => {
    const approved = send('https://bank.test/transfer?to=alice&amount=5');
    const verdict = gate(approved, 'https://bank.test/memo/1', send('https://bank.test/transfer?to=alice&amount=5&utm_source=news'), 'https://bank.test/memo/1?utm_campaign=x', '/memo/{id}');
    expect(verdict).toEqual({ run: true, reason: 'you approved it 2× on this page, same target' });
  });

  it('a form going to another query is another effect', () => {
    const del = (action: string) => node('5', 'button', 'Delete', { inForm: true, submits: true, formAction: action, formMethod: 'post' });
    const verdict = gate(del('https://mail.test/act?row=7'), 'https://mail.test/inbox', del('https://mail.test/act?row=9'), 'https://mail.test/inbox', '/inbox');
    expect(verdict.run).toBe(false);
  });

  it('the same page type with another value is another page: /u/alice/settings approvals do not run on /u/mallory/settings', () => {
    const button = node('2', 'button', 'Remove all sessions');
    const verdict = gate(button, 'https://site.test/u/alice/settings', button, 'https://site.test/u/mallory/settings', '/u/{name}/settings');
    expect(verdict).toEqual({ run: false, reason: 'you approved it on https://site.test/u/alice/settings, not on this page (a page of the same type is not the same page)' });
    expect(gate(button, 'https://site.test/u/alice/settings', button, 'https://site.test/u/alice/settings', '/u/{name}/settings').run).toBe(true);
    expect(gate(button, 'https://site.test/act?confirm=no', button, 'https://site.test/act?confirm=yes', '/act?confirm={value}').run).toBe(false);
  });
});
