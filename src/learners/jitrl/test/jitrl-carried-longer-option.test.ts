/**
 * A choice whose option holds the other instance's value inside a longer
 * text ("(UTC+01:00) Berlin" for "… Berlin") is not rebound (issue 35 part 3:
 * never inside a longer name), and it names that instance: it is no memory
 * for "… New York", though it shares the task words "time zone". The state
 * it was chosen in is only compared, so its value reads as the task's there.
 *
 * Mutant: without `mentionsValues` in reboundToTask, the Berlin choice is
 * carried as this task's (the task words outnumber "berlin") and JitRL
 * proposed Berlin for New York on the shipped suite's time-zone carry.
 */
import { describe, expect, it } from 'vitest';
import type { PageObservation, SnapshotNode } from '../../../core/page/observation.ts';
import { tokenize } from '../../../core/page/tokenize.ts';
import { carryRows } from '../core/carried-rows.ts';
import { namesOtherInstance, rankNeighbours, reboundToTask } from '../core/retrieve-neighbours.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { transition } from './jitrl-helpers.ts';

const TAUGHT = 'Change my time zone to Berlin.';
const NOW = 'Change my time zone to New York.';
const zone: SnapshotNode = {
  ref: '4', kind: 'interactive', role: 'combobox', name: 'Time zone', value: '(UTC+09:00) Tokyo', states: {}, depth: 0, inViewport: true,
  options: ['(UTC+09:00) Tokyo', '(UTC+01:00) Berlin', '(UTC−05:00) New York'],
};
const page: Pick<PageObservation, 'nodes'> = { nodes: [zone] };
const chosen = 'select_option(<combobox "Time zone">, "(UTC+01:00) Berlin")';
const query = { origin: 'https://app.test', regUrl: '/settings/profile', stateTokens: [], taskTokens: tokenize(NOW), task: NOW, stepIndex: 1 };

describe('a carried choice whose option holds the other instance\'s value inside a longer text', () => {
  it('is not rebound, names the other instance, and is no memory here', () => {
    const taught = transition({ id: 'e2:1', task: TAUGHT, action: chosen, taught: 'corrected', origin: 'https://app.test', regUrl: '/settings/profile' });
    const found = rankNeighbours([taught], query, DEFAULT_JITRL);
    expect(found.map((n) => n.transition.action)).toEqual([chosen]);
    expect(namesOtherInstance(found[0]!.transition)).toBe(true);
    expect(carryRows(found, NOW, page).neighbours).toEqual([]);
  });

  it('a later step\'s state keeps the choice, read in this task\'s value', () => {
    const save = transition({
      id: 'e2:2', task: TAUGHT, action: 'click(<button "Save changes">)', taught: 'approved', origin: 'https://app.test', regUrl: '/settings/profile',
      effectiveState: [chosen],
    });
    const carried = reboundToTask(save, NOW);
    expect(carried.effectiveState).toEqual(['select_option(<combobox "Time zone">, "(UTC+01:00) New York")']);
    expect(namesOtherInstance(carried)).toBe(false);
  });
});
