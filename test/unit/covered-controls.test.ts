/**
 * Controls no pointer can reach (issue 34): the snapshot marks what covers
 * them, the prompt shows it, and the offline policy prefers an uncovered
 * control with the same purpose; each `obscured` refusal on a page lowers
 * that action there again.
 */
import { describe, expect, it } from 'vitest';
import { formatAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { renderNodeLine } from '../../src/core/page/render-observation.ts';
import { OFFLINE_WEIGHTS, scoreOfflineActions } from '../../src/core/policy/offline-policy.ts';
import type { PolicyInput, StepHistoryItem } from '../../src/core/policy/policy.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 1, inViewport: true, ...extra,
});

const URL = 'https://wiki.test/Main_Page';
const searchPage = (covered: boolean): PageObservation => ({
  url: URL, title: 'Wiki', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [
    node('1', 'searchbox', 'Search the wiki', { value: 'bridges' }),
    // The fallback button sits under the icon button: both submit the search.
    node('2', 'button', 'Search', covered ? { coveredBy: 'button.icon "Go"' } : {}),
    node('3', 'button', 'Go'),
  ],
});

const input = (observation: PageObservation, history: StepHistoryItem[] = []): PolicyInput => ({
  task: 'Search for bridges', observation, renderedObservation: '', history, sections: [], numCandidates: 5, temperature: 0.8,
});

const scores = (i: PolicyInput): Map<string, number> => new Map(scoreOfflineActions(i).map((s) => [formatAction(s.action), s.score]));

describe('a covered control', () => {
  it('is shown covered in the prompt', () => {
    expect(renderNodeLine(node('2', 'button', 'Search', { coveredBy: 'button.icon "Go"' }))).toBe('  [2] button "Search" · covered by <button.icon "Go">');
  });

  it('is not the offline policy\'s choice when an uncovered button does the same', () => {
    const before = scoreOfflineActions(input(searchPage(false)))[0]!;
    expect(formatAction(before.action)).toBe('click([2])'); // without the mark: the covered one, refused on every click
    const after = scores(input(searchPage(true)));
    expect(formatAction(scoreOfflineActions(input(searchPage(true)))[0]!.action)).toBe('click([3])');
    // The covered penalty, and the submit cue moved to the uncovered button.
    expect(after.get('click([2])')! - scores(input(searchPage(false))).get('click([2])')!).toBeCloseTo(OFFLINE_WEIGHTS.covered - OFFLINE_WEIGHTS.submitReady, 12);
  });

  it('is lowered again by every obscured refusal on this page, and not on another page', () => {
    const obscured: StepHistoryItem = { action: 'click(<button "Search">)', outcome: 'obscured: <button#s "Search"> is covered by <button.icon "Go">', url: URL };
    const typed: StepHistoryItem = { action: 'fill(<searchbox "Search the wiki">, "bridges")', outcome: 'ok', url: URL };
    const base = scores(input(searchPage(false), [typed])).get('click([2])')!;
    const once = scores(input(searchPage(false), [obscured, typed])).get('click([2])')!;
    const twice = scores(input(searchPage(false), [obscured, obscured, typed])).get('click([2])')!;
    expect(once - base).toBeCloseTo(OFFLINE_WEIGHTS.failedBefore + OFFLINE_WEIGHTS.obscuredHere, 12);
    expect(twice - base).toBeCloseTo(OFFLINE_WEIGHTS.failedBefore + 2 * OFFLINE_WEIGHTS.obscuredHere, 12);
    const elsewhere = scores(input(searchPage(false), [{ ...obscured, url: 'https://wiki.test/Other' }, typed])).get('click([2])')!;
    expect(elsewhere - base).toBeCloseTo(OFFLINE_WEIGHTS.failedBefore, 12);
  });
});
