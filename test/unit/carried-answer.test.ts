/**
 * A taught answer carries to another instance of the task as where the page
 * showed it (issue 35 "Knowing it is done"; the Fossil carry miss
 * `fossil.wiki-search` of issue 33, in other words). Taught the page where
 * "tombstone" appears, with the answer "Sync Protocol", read off the result link
 * "Wiki: Sync Protocol", the next instance (… "zlib") answers from its own
 * result link, "Wiki: Build Instructions" → "Build Instructions". The answer's
 * text itself stays its own task's (memory/task-binding.ts).
 *
 * Mutants: without `answerFrom` in buildTransitions, or without the
 * `answerAt` branch in `reboundToTask`, the next instance gets no answer from
 * memory (the rankNeighbours case is empty); `answerAt` taking the first of
 * several places answers "Build Instructions" where two pages are listed.
 */
import { describe, expect, it } from 'vitest';
import type { Episode } from '../../src/core/episode/episode.ts';
import { tokenize } from '../../src/core/page/tokenize.ts';
import { answerAt, answerSourceIn } from '../../src/core/page/answer-source.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import { buildTransitions } from '../../src/learners/jitrl/core/jitrl-learner.ts';
import { rankNeighbours } from '../../src/learners/jitrl/core/retrieve-neighbours.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { stepRecord } from '../../src/learners/jitrl/test/jitrl-helpers.ts';

const node = (ref: string | null, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: ref === null ? 'text' : 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});
/** A wiki's search results: the search form, then one link and one snippet per page that has the word. */
const results = (word: string, pages: string[]): PageObservation => ({
  url: `https://wiki.test/wiki?s=${word}`, title: 'Wiki Search', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [
    node('1', 'link', 'Wiki'), node('2', 'textbox', '', { value: word }), node('3', 'button', 'Search Wiki'),
    ...pages.flatMap((p, i) => [node(String(10 + i), 'link', `Wiki: ${p}`), node(null, 'text', `… the build needs ${word} …`)]),
  ],
});
const TAUGHT = 'Name the wiki page where "tombstone" appears.';
const NEXT = 'Name the wiki page where "zlib" appears.';

describe('where a taught answer was read', () => {
  it('is the one element whose name shows it, with the text around it', () => {
    expect(answerSourceIn(renderObservation(results('tombstone', ['Sync Protocol'])), 'Sync Protocol')).toEqual({ role: 'link', before: 'Wiki: ', after: '' });
    // In two shapes (a link and a snippet naming it too): no one place.
    const twice = results('tombstone', ['Sync Protocol']);
    twice.nodes.push(node(null, 'text', 'See also Sync Protocol'));
    expect(answerSourceIn(renderObservation(twice), 'Sync Protocol')).toBeNull();
    // Only whole words: "Sync" alone is not the answer "Sync Protocol"'s place; nothing shows "Roadmap".
    expect(answerSourceIn(renderObservation(results('tombstone', ['Syncing'])), 'Sync')).toBeNull();
    expect(answerSourceIn(renderObservation(results('tombstone', ['Sync Protocol'])), 'Roadmap')).toBeNull();
  });

  it('gives this page\'s answer only when one element stands in that place', () => {
    const place = { role: 'link', before: 'Wiki: ', after: '' };
    expect(answerAt(place, results('zlib', ['Build Instructions']))).toBe('Build Instructions');
    expect(answerAt(place, results('zlib', ['Build Instructions', 'Roadmap']))).toBeNull();
    expect(answerAt(place, results('zlib', []))).toBeNull();
    // The search page's own "Wiki" link is not "Wiki: " plus an answer.
    expect(answerAt({ role: 'link', before: 'Wik', after: '' }, results('zlib', []))).toBeNull();
  });
});

describe('JitRL carries a taught answer to the next instance by its place', () => {
  const taughtEpisode: Episode = {
    id: 'ws', origin: 'https://wiki.test', task: TAUGHT, startUrl: 'https://wiki.test/home', tabId: null, status: 'success', answer: 'Sync Protocol', error: null,
    learners: ['jitrl'], attempt: 1, kind: 'bench', startedAt: 0, endedAt: 1,
    steps: [stepRecord({
      index: 0, url: 'https://wiki.test/wiki?s=tombstone', regUrl: '/wiki', pageDigest: renderObservation(results('tombstone', ['Sync Protocol'])),
      chosen: { action: 'send_msg_to_user("Sync Protocol")', semantic: 'send_msg_to_user("Sync Protocol")', decision: 'edited' },
    })],
  };
  const rows = buildTransitions({ episode: taughtEpisode, rewards: [1] }, { now: 5, rejectReward: -1 });
  const query = (observation?: PageObservation) => ({
    origin: 'https://wiki.test', regUrl: '/wiki', stateTokens: [], taskTokens: tokenize(NEXT), stepIndex: 3, url: 'https://wiki.test/wiki?s=zlib', task: NEXT,
    ...(observation ? { observation } : {}),
  });

  it('stores where the answer showed', () => {
    expect(rows.map((t) => [t.action, t.taught, t.answerFrom])).toEqual([['send_msg_to_user("Sync Protocol")', 'corrected', { role: 'link', before: 'Wiki: ', after: '' }]]);
  });

  it('answers "Build Instructions" from this page\'s result link, as this very task (state J 1, task J 1: similarity 1)', () => {
    const out = rankNeighbours(rows, query(results('zlib', ['Build Instructions'])), DEFAULT_JITRL);
    expect(out.map((n) => [n.transition.id, n.transition.action, n.similarity, n.ret])).toEqual([['ws:0@instance', 'send_msg_to_user("Build Instructions")', 1, 1]]);
  });

  it('keeps the other instance\'s answer out where the place is not one element, or the page is not known', () => {
    expect(rankNeighbours(rows, query(results('zlib', ['Build Instructions', 'Roadmap'])), DEFAULT_JITRL)).toEqual([]);
    expect(rankNeighbours(rows, query(), DEFAULT_JITRL)).toEqual([]);
  });
});
