/**
 * `npm start`: the main job on the built-in default. Serves the shipped demo
 * sites on 127.0.0.1, then runs one task several times in headless Chromium
 * through the extension's own agent loop, observation and action code, with
 * the offline policy and JitRL + CER learning between attempts. For each
 * attempt it prints every step's candidates with base versus adjusted logits,
 * so you can watch the adjustment change from one attempt to the next.
 *
 *   npm start -- [--task <id>] [--attempts 4] [--learners jitrl+cer] [--headed]
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { markdownTable } from 'markdown-table';
import type { Episode } from '../src/core/episode/episode.ts';
import { parseLearnerConfig, runBench, type LearnerConfig } from './bench-runner.ts';
import type { AttemptRecord } from './metrics.ts';
import { loadSuite } from './suite.ts';

const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const pct = (p: number) => `${(100 * p).toFixed(1)}%`;

function printAttempt(record: AttemptRecord, episode: Episode): void {
  const verdict = record.outcome === 'success' ? 'SUCCESS' : record.outcome === 'error' ? 'ERROR' : 'failure';
  console.log(`\n## Attempt ${record.attempt} — ${verdict} (reward ${record.reward ?? '—'}, ${record.steps} steps)`);
  for (const step of episode.steps) {
    if (!step.chosen) continue;
    const path = step.url.replace(/^https?:\/\/[^/]+/, '');
    const how = step.selection
      ? ` · proposal ${step.selection.how === 'sampled' ? `sampled (p = ${pct(step.selection.probability)})` : step.selection.how === 'exploited' ? 'repeats what worked' : 'argmax'}`
      : '';
    console.log(`\nstep ${step.index + 1} on ${path} · V(s) = ${fmt(step.v)} from ${step.neighbours.length} neighbours${step.replayed.length ? ` · replayed: ${step.replayed.join(', ')}` : ''}${how}`);
    if (step.loop) console.log(`LOOP: back at the page as it was before step ${step.loop.since + 1}; not proposed again here: ${step.loop.repeated.join('; ')}`);
    const rows = step.candidates.map((c) => [
      c.semantic === step.chosen!.semantic ? '→' : '',
      c.semantic.length > 60 ? `${c.semantic.slice(0, 57)}…` : c.semantic,
      c.origin,
      fmt(c.baseLogit),
      fmt(c.adjustedLogit),
      pct(c.baseProb),
      pct(c.adjustedProb),
      fmt(c.normAdvantage),
      `${c.valueKind}${c.support ? ` ×${c.support}` : ''}${c.barred ? ` · barred (${c.barred})` : ''}`,
    ]);
    console.log(markdownTable([['', 'candidate', 'from', 'base z', "adjusted z'", 'base p', "adjusted p", 'Ã', 'evidence'], ...rows], { align: ['c', 'l', 'l', 'r', 'r', 'r', 'r', 'r', 'l'] }));
    const why = step.candidates.find((c) => c.semantic === step.chosen!.semantic)?.rationale;
    if (why) console.log(`why the policy proposed it: ${why}`);
  }
  if (episode.answer) console.log(`\nanswer: ${episode.answer}`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      task: { type: 'string', default: 'shop.add-to-cart.202' },
      attempts: { type: 'string', default: '4' },
      learners: { type: 'string', default: 'jitrl+cer' },
      seed: { type: 'string', default: '0' },
      headed: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const learner: LearnerConfig = values.learners;
  const parsed = parseLearnerConfig(learner);
  if (!parsed.ok) {
    console.error(`--learners: ${parsed.message}`);
    return 2;
  }
  const suite = await loadSuite(resolve(import.meta.dirname, 'suites/apprentice-sites/index.ts'));
  console.log(`# Apprentice demo — task ${values.task}, ${values.attempts} attempts, offline policy, learner ${learner}`);
  const result = await runBench({
    suite,
    learners: [learner],
    attempts: Number(values.attempts),
    policy: 'offline',
    noise: 0,
    seed: Number(values.seed),
    memory: 'fresh',
    profile: 'full',
    taskFilter: values.task,
    progress: false,
    headed: values.headed,
    onAttempt: (record, episode) => {
      if (record.attempt === 1) console.log(`\ninstruction: ${record.instruction}`);
      printAttempt(record, episode);
    },
  });
  const summary = result.summaries[0]!;
  console.log(`\n# Success by attempt: ${result.records.map((r) => (r.outcome === 'success' ? '✓' : '✗')).join(' ')}  (Avg ${(100 * summary.avg).toFixed(0)}%, Final ${(100 * summary.final).toFixed(0)}%)`);
  return 0;
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => { console.error(err); process.exitCode = 1; });
