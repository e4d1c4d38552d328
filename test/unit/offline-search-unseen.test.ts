// The offline policy searches for the thing a task names when the page shows
// no trace of it, as a person would (made-up pages: a garden-tools store and
// a members' directory; no shipped site's wording).
import { describe, expect, it } from 'vitest';
import { formatAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { createOfflinePolicy } from '../../src/core/policy/offline-policy.ts';
import { showsNamedThing } from '../../src/core/policy/offline-cues.ts';
import type { StepHistoryItem } from '../../src/core/policy/policy.ts';
import { analyzeTask } from '../../src/core/policy/task-intents.ts';

const node = (ref: string | null, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: ref !== null ? 'interactive' : 'text', role, name, states: {}, depth: 1, inViewport: true, ...extra,
});
const page = (nodes: SnapshotNode[]): PageObservation => ({
  url: 'http://tools.test/', title: 'Tools', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});
const propose = async (task: string, observation: PageObservation, history: StepHistoryItem[] = []) =>
  (await createOfflinePolicy().propose({ task, observation, renderedObservation: '', history, sections: [], numCandidates: 3, temperature: 0.8 })).candidates.map((c) => formatAction(c.action));

const store = (searchValue = '') => page([
  node('1', 'searchbox', 'Search the store', { inputType: 'search', value: searchValue }),
  node('2', 'button', 'Search'),
  node('3', 'link', 'Hedge shears'),
  node('4', 'link', 'Basket (0)'),
  node('5', 'link', 'Watering hose'),
]);

describe('the thing a task names', () => {
  it('is the first capitalized phrase that is not a sentence start, a quote or a value the task sets', () => {
    expect(analyzeTask('Put the Copper trowel in my basket.').namedThing).toBe('Copper trowel');
    expect(analyzeTask('Invite Marta Lindqvist to the board.').namedThing).toBe('Marta Lindqvist');
    expect(analyzeTask('How heavy is the Copper trowel? Answer in grams.').namedThing).toBe('Copper trowel');
    // Values the task sets, quoted text, and a sentence's first word are not things to find.
    expect(analyzeTask('Move my appointment to Friday.').namedThing).toBeNull();
    expect(analyzeTask('Rename the list "Summer Plans".').namedThing).toBeNull();
    expect(analyzeTask('Delete every draft.').namedThing).toBeNull();
    // An explicit search wins.
    expect(analyzeTask('Search for copper trowel and open it').namedThing).toBeNull();
  });

  it('counts as shown when the page has the phrase, or its capitalized words in one name', () => {
    const nodes = [node('1', 'link', 'Copper watering can'), node('2', 'combobox', 'Colour', { options: ['Moss green', 'Slate'] })];
    expect(showsNamedThing(nodes, 'Copper trowel')).toBe(true);
    expect(showsNamedThing(nodes, 'Moss green')).toBe(true);
    expect(showsNamedThing(nodes, 'Brass trowel')).toBe(false);
  });
});

describe('searching for what the page does not show', () => {
  it('fills the search field with the named thing first, then presses the search button', async () => {
    const task = 'Put the Copper trowel in my basket.';
    expect((await propose(task, store()))[0]).toBe('fill([1], "Copper trowel")');
    const typed: StepHistoryItem[] = [{ action: 'fill(<searchbox "Search the store">, "Copper trowel")', outcome: 'ok', url: 'http://tools.test/' }];
    expect((await propose(task, store('Copper trowel'), typed))[0]).toBe('click([2])');
  });

  it('does not search when the page already shows it', async () => {
    const withIt = page([...store().nodes, node('6', 'link', 'Copper trowel')]);
    const out = await propose('Put the Copper trowel in my basket.', withIt);
    expect(out[0]).toBe('click([6])');
    expect(out).not.toContain('fill([1], "Copper trowel")');
  });
});
