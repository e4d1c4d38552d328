/**
 * A step taught on one user's row, named by a word of that task: the login
 * link "lee" of "Change Lee Chen's role to Author." (WordPress's users
 * screen, issue 33's `user-role`). For "Change Aiko Tanaka's role to
 * Editor." it is carried only to be moved to Aiko's row (her login link);
 * where it cannot be moved it is no memory at all, as before.
 *
 * Mutants: without `samePlaceInRow` (one link of the role per row required), a row
 * naming itself on three links has no counterpart; without `namesOtherInstance` (reboundToTask returning the
 * transition as it was), retrieval drops the step and nothing is moved; with
 * the possessive kept in the values ("lee chen's"), the row showing "Lee
 * Chen" is not found and nothing is moved either.
 */
import { describe, expect, it } from 'vitest';
import type { PageObservation, SnapshotNode } from '../../../core/page/observation.ts';
import { instanceValues } from '../../../core/page/task-instances.ts';
import { tokenize } from '../../../core/page/tokenize.ts';
import { carryRows } from '../core/carried-rows.ts';
import { namesOtherInstance, rankNeighbours } from '../core/retrieve-neighbours.ts';
import { DEFAULT_JITRL } from '../core/settings.ts';
import { transition } from './jitrl-helpers.ts';

const TAUGHT = "Change Lee Chen's role to Author.";
const NOW = "Change Aiko Tanaka's role to Editor.";
const link = (ref: string, login: string, rowText?: string): SnapshotNode => ({
  ref, kind: 'interactive', role: 'link', name: login, states: {}, depth: 0, inViewport: true, ...(rowText !== undefined ? { rowText } : {}),
});
const users = (withRows: boolean): Pick<PageObservation, 'nodes'> => ({
  nodes: [
    link('1', 'aiko', withRows ? 'aiko Edit Aiko Tanaka aiko@example.test Contributor' : undefined),
    link('2', 'lee', withRows ? 'lee Edit Lee Chen lee@example.test Editor' : undefined),
  ],
});
const taught = transition({ id: 'e1:0', task: TAUGHT, action: 'click(<link "lee">)', taught: 'corrected', origin: 'https://blog.test', regUrl: '/wp-admin/users.php' });
const query = { origin: 'https://blog.test', regUrl: '/wp-admin/users.php', stateTokens: [], taskTokens: tokenize(NOW), task: NOW, stepIndex: 0 };

describe('a taught step that names the other instance\'s item by its task\'s word', () => {
  it('aligns the two tasks\' values without the possessive both share', () => {
    expect(instanceValues(TAUGHT, NOW)).toEqual(new Map([['lee chen', 'Aiko Tanaka'], ['author', 'Editor']]));
  });

  it('is retrieved, marked as naming the other instance, and moved to the row showing this task\'s user', () => {
    const found = rankNeighbours([taught], query, DEFAULT_JITRL);
    expect(found.map((n) => [n.transition.id, n.transition.action, n.similarity])).toEqual([['e1:0@instance', 'click(<link "lee">)', 1]]);
    expect(namesOtherInstance(found[0]!.transition)).toBe(true);
    const carried = carryRows(found, NOW, users(true));
    expect(carried.neighbours.map((n) => n.transition.action)).toEqual(['click(<link "aiko">)']);
    expect(carried.notes).toEqual(['remembered click(<link "lee">) moved to this task\'s row: click(<link "aiko">)']);
  });

  it('moves to the element in the taught one\'s place in the row when the row names itself on several links', () => {
    // WordPress: the login link, the e-mail link and "View posts by …" all say the row's name, so all carry its text.
    const row = (i: number, login: string, name: string) => {
      const text = `${login} Edit ${name} ${login}@example.test Editor`;
      return [link(String(i), login, text), link(String(i + 1), `${login}@example.test`, text), link(String(i + 2), `View posts by ${name}`, text)];
    };
    const three = { nodes: [...row(1, 'aiko', 'Aiko Tanaka'), ...row(4, 'lee', 'Lee Chen')] };
    const carried = carryRows(rankNeighbours([taught], query, DEFAULT_JITRL), NOW, three);
    expect(carried.neighbours.map((n) => n.transition.action)).toEqual(['click(<link "aiko">)']);
    // A new row with another shape (one link fewer) has no counterpart: no memory.
    const other = { nodes: [...row(1, 'aiko', 'Aiko Tanaka').slice(1), ...row(4, 'lee', 'Lee Chen')] };
    expect(carryRows(rankNeighbours([taught], query, DEFAULT_JITRL), NOW, other).neighbours).toEqual([]);
  });

  it('is no memory where it cannot be moved: never evidence for the taught user\'s link', () => {
    const carried = carryRows(rankNeighbours([taught], query, DEFAULT_JITRL), NOW, users(false));
    expect(carried).toEqual({ neighbours: [], otherInstance: new Set(), notes: [] });
  });
});
