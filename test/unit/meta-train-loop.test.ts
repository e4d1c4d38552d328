import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileCheckpoint, memoryCheckpoint } from '../../bench/metattl/meta-train-checkpoint.ts';
import { metaTrain } from '../../bench/metattl/meta-train-loop.ts';
import { FAKE_CONFIG, fakePropose, fakeRunSession } from '../support/meta-train-fake.ts';

describe('meta-training (Meta-TTL Algorithm 2) on a hand-made score table', () => {
  it('validates locally, then globally, and replaces experts only where a candidate sets a new best', async () => {
    const runs: string[] = [];
    const out = await metaTrain({ config: FAKE_CONFIG, checkpoint: memoryCheckpoint(), runSession: fakeRunSession((l, s, t) => runs.push(`${l} ${s} ${t}`)), propose: fakePropose });
    // Iteration 1: S1 beats the seed locally (2/3 > 0), takes x (2/3 > 0), not y (0 = 0).
    // Iteration 2: the proposal is dropped. Iteration 3: S3 scores 0 on training tasks: discarded.
    // Iteration 4: S4 scores 1 > parent (0 or 2/3), keeps out of x (1/3 < 2/3), takes y (1 > 0).
    // Then 13 evaluations are used and another iteration (up to 4) would exceed the budget of 14.
    expect(out.state.history.map((h) => [h.iteration, h.outcome, h.candidateId, h.won])).toEqual([
      [1, 'validated', 'c1', ['x']],
      [2, 'proposal-dropped', null, []],
      [3, 'no-local-improvement', 'c3', []],
      [4, 'validated', 'c4', ['y']],
    ]);
    expect(out.state.evaluations).toBe(13); // 2 (seed) + 4 + 1 + 2 + 4
    expect(runs).toHaveLength(13);
    expect(out.state.pool).toEqual({ x: { candidateId: 'c1', score: 2 / 3 }, y: { candidateId: 'c4', score: 1 } });
    expect(out.state.candidates.map((c) => c.id)).toEqual(['seed', 'c1', 'c4']);
    // Mean validation: c1 (2/3 + 0)/2 = 1/3, c4 (1/3 + 1)/2 = 2/3.
    expect(out.selected.id).toBe('c4');
    expect(out.selected.strategy).toBe('S4');
    expect(out.selection.rows.map((r) => r.candidateId)).toEqual(['c4', 'c1']);
    expect(out.state.history[1]!.note).toMatch(/does not match the schema/);
    expect(JSON.stringify(out.state)).not.toContain('"strategy":null');
  });

  it('refuses a budget that cannot pay for the seed and one iteration', async () => {
    await expect(metaTrain({ config: { ...FAKE_CONFIG, budget: 5 }, checkpoint: memoryCheckpoint(), runSession: fakeRunSession(), propose: fakePropose }))
      .rejects.toThrow(/--budget 5 is too small.*at least 6/);
  });

  it('resumes after a crash without re-running finished sessions, and ends the same', async () => {
    const reference = await metaTrain({ config: FAKE_CONFIG, checkpoint: memoryCheckpoint(), runSession: fakeRunSession(), propose: fakePropose });
    const checkpoint = memoryCheckpoint();
    let calls = 0;
    const crashing = fakeRunSession(() => {
      if (++calls === 5) throw new Error('killed');
    });
    await expect(metaTrain({ config: FAKE_CONFIG, checkpoint, runSession: crashing, propose: fakePropose })).rejects.toThrow('killed');
    expect((await checkpoint.load())!.evaluations).toBe(4);
    const runs: string[] = [];
    const resumed = await metaTrain({ config: FAKE_CONFIG, checkpoint, runSession: fakeRunSession((l) => runs.push(l)), propose: fakePropose });
    expect(runs).toHaveLength(13 - 4);
    expect(resumed.state.history).toEqual(reference.state.history);
    expect(resumed.state.pool).toEqual(reference.state.pool);
    expect(resumed.selected.id).toBe(reference.selected.id);
  });

  it('refuses a checkpoint written for other settings', async () => {
    const checkpoint = memoryCheckpoint();
    await metaTrain({ config: FAKE_CONFIG, checkpoint, runSession: fakeRunSession(), propose: fakePropose });
    await expect(metaTrain({ config: { ...FAKE_CONFIG, seed: 8 }, checkpoint, runSession: fakeRunSession(), propose: fakePropose }))
      .rejects.toThrow(/other settings.*--fresh/);
  });

  it('resumes after the process is killed (SIGKILL) mid-run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meta-train-kill-'));
    const script = resolve(import.meta.dirname, '../support/meta-train-fake-run.ts');
    // node itself with tsx as a loader: killing it kills the run (the tsx wrapper would leave its child running).
    const files = { checkpoint: join(dir, 'ck.json'), runs: join(dir, 'runs.log'), result: join(dir, 'result.json') };
    const run = () => spawn(process.execPath, ['--import', 'tsx', script, files.checkpoint, files.runs, files.result, '150'], { stdio: 'ignore' });
    const evaluations = () => {
      try {
        return (JSON.parse(readFileSync(files.checkpoint, 'utf8')) as { evaluations: number }).evaluations;
      } catch {
        return 0;
      }
    };

    const first = run();
    const exited = new Promise<number | null>((r) => first.on('exit', (code) => r(code)));
    const t0 = Date.now();
    while (evaluations() < 3 && Date.now() - t0 < 90_000) await new Promise((r) => setTimeout(r, 20));
    first.kill('SIGKILL');
    await exited;
    const atKill = evaluations();
    expect(atKill).toBeGreaterThanOrEqual(3);
    expect(atKill).toBeLessThan(13);
    expect(existsSync(files.result)).toBe(false);
    // A fresh checkpoint store reads what the killed process left.
    expect((await fileCheckpoint(files.checkpoint).load())!.done).toBe(false);

    const second = run();
    expect(await new Promise<number | null>((r) => second.on('exit', (code) => r(code)))).toBe(0);
    const result = JSON.parse(readFileSync(files.result, 'utf8')) as { selected: string; evaluations: number; history: unknown[] };
    expect(result.selected).toBe('c4');
    expect(result.evaluations).toBe(13);
    expect(result.history).toHaveLength(4);
    // Only the session that was running when the process died ran twice.
    const runs = readFileSync(files.runs, 'utf8').trim().split('\n');
    expect(runs.length).toBeGreaterThanOrEqual(13);
    expect(runs.length).toBeLessThanOrEqual(14);
  }, 240_000);
});
