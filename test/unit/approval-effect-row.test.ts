/**
 * An approval names the row it acted in (issues 30 and 35): "Remove" approved
 * twice in row "Alan Turing" is not "Remove" in row "Grace Hopper", even when
 * every row's form posts the same data shape to one path. The semantic key
 * carries the row, and so does the fingerprint the act-time check compares.
 */
import { describe, expect, it } from 'vitest';
import { earnedAutonomy } from '../../src/core/autonomy/earned-autonomy.ts';
import type { PersonDecision } from '../../src/core/autonomy/approval-history.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { semanticKey } from '../../src/core/page/semantic-action.ts';
import { fingerprintChanges, fingerprintOf } from '../../src/core/page/target-fingerprint.ts';

const remove = (row: string): SnapshotNode => ({
  ref: '5', kind: 'interactive', role: 'button', name: 'Remove', states: {}, depth: 0, inViewport: true,
  inForm: true, submits: true, formAction: 'https://crew.test/members/remove', formMethod: 'post', context: [{ role: 'row', name: row }],
});
const page = (nodes: SnapshotNode[]): PageObservation => ({
  url: 'https://crew.test/members', title: 'Members', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});

function gate(approvedRow: string, nowRow: string) {
  const approvedPage = page([remove(approvedRow)]);
  const click = parseAction('click([5])');
  if (!click.ok) throw click.error;
  const approvedKey = semanticKey(click.action, approvedPage);
  const history: PersonDecision[] = [1, 2].map((at) => ({
    origin: 'https://crew.test', url: 'https://crew.test/members', regUrl: '/members', action: approvedKey, verdict: 'approved', episodeId: `e${at}`, at, target: fingerprintOf(remove(approvedRow)),
  }));
  const now = page([remove(nowRow)]);
  return earnedAutonomy({
    mode: 'unapproved-only', approvalsNeeded: 2, history, marks: [], observation: now, regUrl: '/members',
    action: click.action, semantic: semanticKey(click.action, now), previousUrl: null, flaggedWord: null,
  });
}

describe('an approval names its row', () => {
  it('Remove approved twice in Alan Turing\'s row runs there unasked, and asks in Grace Hopper\'s', () => {
    expect(gate('Alan Turing', 'Alan Turing')).toEqual({ run: true, reason: 'you approved it 2× on this page, same target' });
    expect(gate('Alan Turing', 'Grace Hopper').run).toBe(false);
  });

  it('the fingerprint says which row changed', () => {
    expect(fingerprintChanges(fingerprintOf(remove('Alan Turing')), fingerprintOf(remove('Grace Hopper')), 'exact')).toEqual([
      'it sits in row "Grace Hopper", not in row "Alan Turing"',
    ]);
  });
});
