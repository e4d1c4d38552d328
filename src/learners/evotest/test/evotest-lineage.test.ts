import { describe, expect, it } from 'vitest';
import { addChildren, newLineage, recordEpisode, selectionPool } from '../core/lineage.ts';
import { selectConfiguration } from '../core/select-configuration.ts';
import { digest, SEED, step } from './evotest-helpers.ts';

const hot = { ...SEED, hyperparameters: { ...SEED.hyperparameters, temperature: 1 } };
const cold = { ...SEED, hyperparameters: { ...SEED.hyperparameters, temperature: 0.6 } };

describe('EvoTest lineage', () => {
  it('starts from the seed, records runs, adds distinct children and keeps the parent in the pool', () => {
    let lineage = newLineage({ origin: 'https://a.test', template: 'open order …', seed: SEED, now: 0 });
    expect(selectConfiguration(lineage, 1).node.id).toBe('c0');
    lineage = recordEpisode(lineage, digest([step('click(<link "Orders">)')], { score: 0, outcome: 'failure' }), 1);
    const { lineage: grown, added } = addChildren(lineage, 'c0', [
      { configuration: hot, source: 'offline', rationale: 'hot' },
      { configuration: SEED, source: 'offline', rationale: 'same as parent' },
      { configuration: hot, source: 'model', rationale: 'same as sibling' },
      { configuration: cold, source: 'model', rationale: 'cold' },
    ], 2, 1);
    expect(added.map((n) => n.id)).toEqual(['c1', 'c2']);
    expect(grown.duplicateChildren).toBe(2);
    expect(grown.invalidChildren).toBe(1);
    expect(added[0]!.changes).toEqual([{ path: 'hyperparameters.temperature', before: '0.8', after: '1' }]);
    expect(selectionPool(grown).map((n) => n.id)).toEqual(['c0', 'c1', 'c2']);
    // Parent μ̂ = 0, n = 1 → 0.588705; children prior 0, n = 0 → 0.832555: the first child.
    const choice = selectConfiguration(grown, 1);
    expect(choice.node.id).toBe('c1');

    // c1 runs and succeeds: the pool becomes c0 (ancestor), c1, and c1's children; c2 never ran and is pruned.
    let next = recordEpisode(grown, digest([step('click(<link "Orders">)')], { episodeId: 'e2', configurationId: 'c1', score: 1 }), 3);
    next = addChildren(next, 'c1', [{ configuration: { ...hot, guidance: 'Open the order list first.' }, source: 'model', rationale: 'g' }], 4).lineage;
    expect(next.nodes.map((n) => n.id)).toEqual(['c0', 'c1', 'c3']);
    expect(selectionPool(next).map((n) => n.id)).toEqual(['c0', 'c1', 'c3']);
  });

  it('learns an episode once, and a pinned configuration is always selected', () => {
    let lineage = newLineage({ origin: 'https://a.test', template: 't', seed: SEED, now: 0 });
    lineage = addChildren(lineage, 'c0', [{ configuration: hot, source: 'offline', rationale: 'hot' }], 1).lineage;
    const d = digest([step('noop()')], { configurationId: 'c0', score: 1 });
    lineage = recordEpisode(recordEpisode(lineage, d, 2), d, 3);
    expect(lineage.nodes[0]!.runs).toHaveLength(1);
    expect(lineage.episodes).toHaveLength(1);
    const pinned = { ...lineage, pinnedId: 'c0' };
    expect(selectConfiguration(pinned, 1)).toMatchObject({ node: { id: 'c0' }, ucb: null });
  });

  it('falls back to the time-tested parent after a lucky child regresses', () => {
    let lineage = newLineage({ origin: 'https://a.test', template: 't', seed: SEED, now: 0 });
    [1, 0, 1, 0].forEach((score, i) => {
      lineage = recordEpisode(lineage, digest([], { episodeId: `p${i}`, configurationId: 'c0', score }), i);
    });
    lineage = addChildren(lineage, 'c0', [{ configuration: hot, source: 'offline', rationale: 'hot' }], 5).lineage;
    // Child untried: prior 0.5 → 0.5 + sqrt(ln 5) = 1.768636 vs parent 0.5 + sqrt(ln 5 / 5) = 1.067326.
    expect(selectConfiguration(lineage, 1).node.id).toBe('c1');
    lineage = recordEpisode(lineage, digest([], { episodeId: 'c1a', configurationId: 'c1', score: 1 }), 6);
    expect(selectConfiguration(lineage, 1).node.id).toBe('c1'); // 1.946509 vs 1.098626
    lineage = recordEpisode(lineage, digest([], { episodeId: 'c1b', configurationId: 'c1', score: 0 }), 7);
    expect(selectConfiguration(lineage, 1).node.id).toBe('c1'); // 1.305380 vs 1.123845
    lineage = recordEpisode(lineage, digest([], { episodeId: 'c1c', configurationId: 'c1', score: 0 }), 8);
    const back = selectConfiguration(lineage, 1); // 1.054347 vs 1.144894
    expect(back.node.id).toBe('c0');
    expect(back.ucb!.rows.map((r) => Number(r.ucb.toFixed(6)))).toEqual([1.144894, 1.054347]);
  });
});
