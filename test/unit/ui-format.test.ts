import { describe, expect, it } from 'vitest';
import { fmtNum, fmtPct, originOf, rankCandidates, refOfAction, tabIdFromSearch } from '../../src/ui/app/format.ts';
import { neighboursFor } from '../../src/learners/jitrl/ui/jitrl-evidence.tsx';
import { groupEpisodes } from '../../src/ui/app/history-tab.tsx';
import { candidate } from './ui-fake-connector.ts';

describe('UI formatting helpers', () => {
  it('ranks candidates by adjusted probability and keeps their record index', () => {
    const ranked = rankCandidates([
      candidate({ action: 'a', adjustedProb: 0.2 }),
      candidate({ action: 'b', adjustedProb: 0.5 }),
      candidate({ action: 'c', adjustedProb: 0.2 }),
      candidate({ action: 'd', adjustedProb: 0.1 }),
    ]);
    expect(ranked.map((r) => [r.candidate.action, r.index, r.rank])).toEqual([
      ['b', 1, 1], ['a', 0, 2], ['c', 2, 3], ['d', 3, 4],
    ]);
  });

  it('reads the element ref out of a ref-form action', () => {
    expect(refOfAction('click([12])')).toBe('12');
    expect(refOfAction('fill([f3-7], "a [b] c")')).toBe('f3-7');
    expect(refOfAction('click(<button "Sign in">)')).toBeNull();
    expect(refOfAction('go_back()')).toBeNull();
  });

  it('formats numbers, percentages and missing values', () => {
    expect(fmtNum(null)).toBe('—');
    expect(fmtNum(0.4567)).toBe('0.46');
    expect(fmtNum(0.5, 2, true)).toBe('+0.50');
    expect(fmtNum(-0.5, 2, true)).toBe('-0.50');
    expect(fmtPct(0.1234)).toBe('12.3%');
  });

  it('takes ?tabId= from the query and only http(s) origins', () => {
    expect(tabIdFromSearch('?tabId=42')).toBe(42);
    expect(tabIdFromSearch('?tabId=abc')).toBeNull();
    expect(tabIdFromSearch('')).toBeNull();
    expect(originOf('http://127.0.0.1:8080/a?b')).toBe('http://127.0.0.1:8080');
    expect(originOf('chrome-extension://abc/popup.html')).toBeNull();
    expect(originOf(undefined)).toBeNull();
  });

  it('picks the neighbours that took a candidate action, most similar first', () => {
    const neighbours = [
      { transitionId: 't1', episodeId: 'e1', task: 'x', action: 'click(<button "One">)', similarity: 0.8, ret: 1 },
      { transitionId: 't2', episodeId: 'e2', task: 'y', action: 'click(<button "Two">)', similarity: 0.95, ret: -1 },
      { transitionId: 't3', episodeId: 'e3', task: 'z', action: 'click(<button "One">)', similarity: 0.9, ret: 0.5 },
      { transitionId: 't4', episodeId: 'e4', task: 'w', action: 'click(<button "Uno">)', similarity: 0.99, ret: 1 },
    ];
    expect(neighboursFor(neighbours, candidate()).map((n) => n.transitionId)).toEqual(['t3', 't1']);
    // A loosely resolved memory action is backed by what was remembered.
    expect(neighboursFor(neighbours, candidate({ remembered: 'click(<button "Uno">)' })).map((n) => n.transitionId)).toEqual(['t4', 't3', 't1']);
  });

  it('groups episodes by site and task, attempts in order, latest group first', () => {
    const base = { status: 'success' as const, steps: 3, endedAt: null, kind: 'live' as const };
    const groups = groupEpisodes([
      { ...base, id: 'b2', origin: 'o', task: 'B', attempt: 2, startedAt: 50 },
      { ...base, id: 'a1', origin: 'o', task: 'A', attempt: 1, startedAt: 10 },
      { ...base, id: 'b1', origin: 'o', task: 'B', attempt: 1, startedAt: 20 },
      { ...base, id: 'a2', origin: 'p', task: 'A', attempt: 1, startedAt: 30 },
    ]);
    expect(groups.map((g) => [g.origin, g.task, g.episodes.map((e) => e.id)])).toEqual([
      ['o', 'B', ['b1', 'b2']], ['p', 'A', ['a2']], ['o', 'A', ['a1']],
    ]);
  });
});
