/**
 * Issue 23, learning finding 2: the learners' request changes compose
 * (`composeRequest`): max for the number of candidates, plus the extra
 * candidates a learner asks for on top (JitRL's barred actions), the highest
 * temperature asked for, guides as ordered parts (Meta-TTL's `replace` keeps
 * EvoTest's guidance), sections appended. Every pair of registry learners that
 * shape the request.
 */
import { describe, expect, it } from 'vitest';
import { shapeStage } from '../../src/core/agent/step-stages.ts';
import { composeRequest, type Learner, type RequestChange, type RequestShape, type StepContext } from '../../src/core/learning/learner.ts';
import { buildLearners, inMemoryLearnerStores } from '../../src/core/learning/registry/registry-factories.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import type { Episode } from '../../src/core/episode/episode.ts';

const BASE: RequestShape = { guide: null, sections: [], temperature: 0.8, numCandidates: 3, tuned: {} };

/** What each learner asks for on a step where it has something to say (shapes as each learner's shapeRequest returns them). */
const CHANGES: Record<string, RequestChange> = {
  // CER: replayed dynamics and skills as prompt sections.
  cer: { sections: [{ id: 'cer:d1', title: 'Page: catalogue', text: 'Lists every teapot.' }] },
  // JitRL: 2 actions barred in this state, so 2 more than the pool would hold.
  jitrl: { extraCandidates: 2 },
  // Training-Free GRPO: its library and the rollout temperature 0.7.
  tfgrpo: { sections: [{ id: 'x-1', title: 'Experience 1', text: 'Open the product before adding it.' }], temperature: 0.7 },
  // EvoTest: its genes (4 candidates, temperature 0.3, β 1.5), its guidance and memory hints.
  evotest: {
    numCandidates: 4, temperature: 0.3, tuned: { beta: 1.5 },
    guide: { mode: 'append', text: 'Check the basket before paying.' },
    sections: [{ id: 'evotest:c1', title: 'What earlier attempts on this site showed', text: 'Search first.' }],
  },
  // Meta-TTL: the meta-agent's guide replaces the actor's guide.
  metattl: { guide: { mode: 'replace', text: 'Read the whole form first.' } },
};

/** The registry learners that shape the request (have `shapeRequest`), in registry order: a learner that only learns needs no entry. */
const order = buildLearners({ stores: inMemoryLearnerStores(), settings: () => DEFAULT_SETTINGS, model: () => null, clock: { now: () => 0 }, random: seededRandom(0) })
  .filter((b) => b.learner.shapeRequest !== undefined)
  .map((b) => b.definition.id);

describe('composeRequest (finding 2)', () => {
  it('has a characteristic change for every registry learner that shapes the request', () => {
    expect(order.length).toBeGreaterThan(1);
    expect(Object.keys(CHANGES).sort()).toEqual([...order].sort());
  });

  it("keeps JitRL's wider pool when EvoTest sets its gene: EvoTest's 4 plus JitRL's 2 barred (6, not 4 or 5)", () => {
    for (const pair of [
      [{ learnerId: 'jitrl', change: CHANGES['jitrl']! }, { learnerId: 'evotest', change: CHANGES['evotest']! }],
      [{ learnerId: 'evotest', change: CHANGES['evotest']! }, { learnerId: 'jitrl', change: CHANGES['jitrl']! }],
    ]) expect(composeRequest(BASE, pair).numCandidates).toBe(6);
  });

  it('JitRL alone widens the settings\' count (3 + 2); extras do not add up across learners (the largest); at most 10', () => {
    expect(composeRequest(BASE, [{ learnerId: 'jitrl', change: { extraCandidates: 2 } }]).numCandidates).toBe(5);
    expect(composeRequest(BASE, [{ learnerId: 'a', change: { extraCandidates: 2 } }, { learnerId: 'b', change: { extraCandidates: 1 } }]).numCandidates).toBe(5);
    expect(composeRequest(BASE, [{ learnerId: 'a', change: { numCandidates: 8 } }, { learnerId: 'b', change: { extraCandidates: 7 } }]).numCandidates).toBe(10);
  });

  it("keeps Training-Free GRPO's rollout temperature when EvoTest's gene is cooler (0.7, not 0.3)", () => {
    const shape = composeRequest(BASE, [{ learnerId: 'tfgrpo', change: CHANGES['tfgrpo']! }, { learnerId: 'evotest', change: CHANGES['evotest']! }]);
    expect(shape.temperature).toBe(0.7);
  });

  it("keeps EvoTest's guidance when Meta-TTL replaces the guide: ordered parts, EvoTest's first", () => {
    const shape = composeRequest(BASE, [{ learnerId: 'evotest', change: CHANGES['evotest']! }, { learnerId: 'metattl', change: CHANGES['metattl']! }]);
    expect(shape.guide).toBe('Check the basket before paying.\n\nRead the whole form first.');
  });

  it("replace drops the base guide and the learner's own earlier text only", () => {
    const shape = composeRequest({ ...BASE, guide: 'base' }, [
      { learnerId: 'evotest', change: { guide: { mode: 'append', text: 'E' } } },
      { learnerId: 'metattl', change: { guide: { mode: 'append', text: 'M1' } } },
      { learnerId: 'metattl', change: { guide: { mode: 'replace', text: 'M2' } } },
    ]);
    expect(shape.guide).toBe('E\n\nM2');
  });

  it('EvoTest alone: its genes apply, a cooler temperature than the settings\' included', () => {
    const shape = composeRequest(BASE, [{ learnerId: 'evotest', change: CHANGES['evotest']! }]);
    expect(shape.numCandidates).toBe(4);
    expect(shape.temperature).toBe(0.3);
    expect(shape.tuned).toEqual({ beta: 1.5 });
  });

  for (let i = 0; i < order.length; i++) {
    for (let j = i + 1; j < order.length; j++) {
      const a = order[i]!;
      const b = order[j]!;
      it(`${a} + ${b}: neither loses its change, in either order`, () => {
        const ca = CHANGES[a]!;
        const cb = CHANGES[b]!;
        for (const pair of [[{ learnerId: a, change: ca }, { learnerId: b, change: cb }], [{ learnerId: b, change: cb }, { learnerId: a, change: ca }]]) {
          const shape = composeRequest(BASE, pair);
          const counts = [ca.numCandidates, cb.numCandidates].filter((x): x is number => x !== undefined);
          const extra = Math.max(0, ca.extraCandidates ?? 0, cb.extraCandidates ?? 0);
          expect(shape.numCandidates).toBe((counts.length > 0 ? Math.max(...counts) : 3) + extra);
          const temps = [ca.temperature, cb.temperature].filter((x): x is number => x !== undefined);
          expect(shape.temperature).toBe(temps.length > 0 ? Math.max(...temps) : 0.8);
          for (const c of [ca, cb]) {
            if (c.guide) expect(shape.guide).toContain(c.guide.text);
            for (const s of c.sections ?? []) expect(shape.sections.map((x) => x.id)).toContain(s.id);
            if (c.tuned) expect(shape.tuned).toMatchObject(c.tuned);
          }
        }
      });
    }
  }
});

describe('shapeStage composes the learners it runs', () => {
  it('passes each learner the request composed so far, and returns the composition', async () => {
    const seen: number[] = [];
    const learner = (id: string, change: RequestChange): Learner => ({
      id,
      shapeRequest: async (_c: StepContext, current: Readonly<RequestShape>) => {
        seen.push(current.numCandidates);
        return change;
      },
    });
    const shape = await shapeStage({
      learners: [learner('jitrl', CHANGES['jitrl']!), learner('evotest', CHANGES['evotest']!), learner('metattl', CHANGES['metattl']!)],
      context: { episodeId: 'e', stepIndex: 0, task: 't', origin: 'http://a.test', url: 'http://a.test/', regUrl: '/', observation: { url: 'http://a.test/', title: '', nodes: [] } as never, effectiveState: [] },
      episode: { id: 'e', steps: [] } as unknown as Episode,
      settings: DEFAULT_SETTINGS,
      notes: [],
      signal: new AbortController().signal,
    });
    expect(seen).toEqual([3, 5, 6]);
    expect(shape.numCandidates).toBe(6);
    expect(shape.guide).toBe('Check the basket before paying.\n\nRead the whole form first.');
    expect(shape.temperature).toBe(0.3);
  });
});
