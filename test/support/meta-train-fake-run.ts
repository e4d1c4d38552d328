/**
 * Runs meta-training on the fake world of meta-train-fake.ts with a file
 * checkpoint, slowly, so a test can kill it mid-run and start it again.
 * Usage: tsx meta-train-fake-run.ts <checkpoint.json> <runs.log> <result.json> <delayMs>
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { fileCheckpoint } from '../../bench/metattl/meta-train-checkpoint.ts';
import { metaTrain } from '../../bench/metattl/meta-train-loop.ts';
import { FAKE_CONFIG, fakePropose, fakeRunSession } from './meta-train-fake.ts';

const [checkpointPath, runsLog, resultPath, delay] = process.argv.slice(2);
const outcome = await metaTrain({
  config: FAKE_CONFIG,
  checkpoint: fileCheckpoint(checkpointPath!),
  runSession: fakeRunSession((label, strategy, taskId) => appendFileSync(runsLog!, `${label} ${strategy} ${taskId}\n`), Number(delay)),
  propose: fakePropose,
});
writeFileSync(resultPath!, JSON.stringify({ selected: outcome.selected.id, pool: outcome.state.pool, history: outcome.state.history, evaluations: outcome.state.evaluations }));
