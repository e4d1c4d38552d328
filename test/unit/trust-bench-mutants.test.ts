/**
 * bench:trust's Node-side figures and their mutants, at ci size: each figure
 * is 0 with its defence and goes wrong with the defence switched off in the
 * bench itself. A mutant that printed 0 would mean the figure cannot fail.
 */
import { describe, expect, it } from 'vitest';
import { learnerWritesOffSerial } from '../../bench/trust/concurrency.ts';
import { REGISTERED_LEARNERS } from '../../src/core/learning/registry/registry-factories.ts';
import { learnerDefinition } from '../../src/core/learning/registry/registry.ts';

const learner = (id: string) => learnerDefinition(id, REGISTERED_LEARNERS);
import { runRestarts } from '../../bench/trust/restarts.ts';

describe('bench:trust concurrency on a shared key (CER: a read-modify-write of the site\'s buffer)', () => {
  it('two learns at once through the worker\'s one learner end as the serial result', async () => {
    const r = await learnerWritesOffSerial(learner('cer'), 5, 'concurrent');
    expect(r.rows).toBeGreaterThan(0);
    expect(r.off).toBe(0);
  });

  it('mutant: each learn through its own queue loses or changes rows', async () => {
    const r = await learnerWritesOffSerial(learner('cer'), 5, 'unserialised');
    expect(r.off).toBeGreaterThan(0);
  });
});

describe('bench:trust concurrency on learnerData keys (TF-GRPO\'s hints, EvoTest\'s lineage: one record per site rewritten by each learn)', () => {
  it.each(['tfgrpo', 'evotest'])('%s: at once through one learner = serial; mutant (a learner per learn) loses the other\'s write', async (id) => {
    const real = await learnerWritesOffSerial(learner(id), 5, 'concurrent');
    expect(real.rows).toBeGreaterThan(0);
    expect(real.off).toBe(0);
    const mutant = await learnerWritesOffSerial(learner(id), 5, 'unserialised');
    expect(mutant.off).toBeGreaterThan(0);
  });

  it('JitRL writes each episode under its own keys: the mutant changes nothing (a sanity count, not a headline figure)', async () => {
    const real = await learnerWritesOffSerial(learner('jitrl'), 5, 'concurrent');
    const mutant = await learnerWritesOffSerial(learner('jitrl'), 5, 'unserialised');
    // 10 episodes × 4 approved steps: one transition row each.
    expect(real).toEqual({ rows: 40, off: 0 });
    expect(mutant).toEqual({ rows: 40, off: 0 });
  });
});

describe('bench:trust restarts (simulated worker deaths at every step boundary)', () => {
  it('no duplicated effect with the idempotency id; the mutant without it duplicates', async () => {
    // 15 stops: the 15th episode dies right after its "Add to cart" effect (boundary 'acted', third step).
    const real = await runRestarts(15);
    const mutant = await runRestarts(15, 'idempotency-off');
    expect(real['duplicated side effects']).toBe(0);
    expect(real['lost approvals']).toBe(0);
    expect(mutant['duplicated side effects']).toBe(1);
  });
});
