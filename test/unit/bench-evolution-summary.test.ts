import { describe, expect, it } from 'vitest';
import { summarizeEvolution } from '../../src/learners/evotest/core/evolution-summary.ts';
import { addChildren, newLineage, recordEpisode } from '../../src/learners/evotest/core/lineage.ts';
import { digest, SEED } from '../../src/learners/evotest/test/evotest-helpers.ts';

describe('benchmark: what the evolver changed', () => {
  it('counts changed fields over kept children, and which of them ran', () => {
    let l = newLineage({ origin: 'https://a.test', template: 't', seed: SEED, now: 0 });
    l = recordEpisode(l, digest([], { episodeId: 'e1', score: 0, outcome: 'failure' }), 1);
    const hot = { ...SEED, hyperparameters: { ...SEED.hyperparameters, temperature: 1, numCandidates: 4 } };
    const wide = { ...SEED, hyperparameters: { ...SEED.hyperparameters, numCandidates: 4 } };
    l = addChildren(l, 'c0', [{ configuration: hot, source: 'offline', rationale: 'a' }, { configuration: wide, source: 'offline', rationale: 'b' }], 2, 1).lineage;
    l = recordEpisode(l, digest([], { episodeId: 'e2', configurationId: 'c1', score: 1 }), 3);
    const summary = summarizeEvolution([l, newLineage({ origin: 'https://b.test', template: 't', seed: SEED, now: 0 })]);
    expect(summary).toEqual({
      lineages: 2, children: 2, childrenRan: 1, invalidChildren: 1, episodesOnChildren: 1, episodes: 2,
      // Both children changed numCandidates; only c1 (which also changed the temperature) ran.
      fields: [{ path: 'hyperparameters.numCandidates', proposed: 2, ran: 1 }, { path: 'hyperparameters.temperature', proposed: 1, ran: 1 }],
    });
  });
});
