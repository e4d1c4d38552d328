/**
 * `npm start`: the apprentice loop on the built-in default. Serves the shipped
 * demo sites on 127.0.0.1 and runs, in headless Chromium, through the
 * extension's own agent loop, observation and action code (offline policy,
 * the showcase learners learning between attempts):
 *
 *   1. the first instance of a task template, taught: wherever the proposal
 *      is wrong, a scripted person presses Show me and does the step in the
 *      page (the suite's teacher for that task);
 *   2. the same instance again, alone;
 *   3. a second instance of the template (other values), with the person
 *      watching: it should need no correction;
 *   4. that instance again, alone.
 *
 * Every step prints its candidates with base versus adjusted logits and how
 * it was decided, so you can watch one correction change what happens next.
 *
 *   npm start -- [--template shop.add-to-cart] [--learners <ids>] [--headed]   (default: the registry's showcase configuration)
 *   npm start -- --task <id> [--attempts 4]   (one task, alone, as before)
 */
import { resolve } from 'node:path';
import { markdownTable } from 'markdown-table';
import type { Episode } from '../src/core/episode/episode.ts';
import { parseLearnerConfig, runBench, type LearnerConfig } from './bench-runner.ts';
import { BENCH_CONFIGURATIONS, REGISTERED_LEARNERS } from '../src/core/learning/registry/registry-factories.ts';
import type { AttemptRecord } from './metrics.ts';
import { loadSuite, resolveTasks } from './suite.ts';
import { parseCli, runCli } from './cli.ts';
import { chromiumPath } from '../test/support/chromium.ts';

const ABOUT = `npm start -- [flags]: the apprentice loop on the shipped demo sites, in headless Chromium
(CHROMIUM_PATH, else /usr/bin/chromium, chromium-browser, google-chrome, ...).
Without --task: a task template taught once by Show me, then alone, then a second instance.`;

const fmt = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const pct = (p: number) => `${(100 * p).toFixed(1)}%`;

/** The episode's learners that can say their evidence in words (LearnerFactory.evidenceText), in registry order. */
const textsOf = (episode: Episode) =>
  REGISTERED_LEARNERS.flatMap((d) => (d.evidenceText && episode.learners.includes(d.id) ? [{ id: d.id, text: d.evidenceText }] : []));

function printAttempt(record: AttemptRecord, episode: Episode): void {
  const texts = textsOf(episode);
  // Candidate columns: every learner's, in registry order; an `evidence` column ends the table (barred is said there too).
  const columns = [...new Set(texts.flatMap(({ text }) => Object.keys(text.candidate?.(undefined) ?? {})).filter((k) => k !== 'evidence'))];
  const verdict = record.outcome === 'success' ? 'SUCCESS' : record.outcome === 'error' ? 'ERROR' : 'failure';
  const t = record.teaching;
  const who = !record.taught ? 'alone' : `taught: ${(t?.shows ?? 0) + (t?.picks ?? 0) + (t?.edits ?? 0)} correction(s) by Show me, ${t?.asks ?? 0} proposal(s) approved`;
  console.log(`\n## ${record.taskId} · attempt ${record.attempt} — ${verdict} (reward ${record.reward ?? '—'}, ${record.steps} steps; ${who})`);
  for (const step of episode.steps) {
    if (!step.chosen) continue;
    const path = step.url.replace(/^https?:\/\/[^/]+/, '');
    const how = step.selection
      ? ` · proposal ${step.selection.how === 'sampled' ? `sampled (p = ${pct(step.selection.probability)})` : step.selection.how === 'exploited' ? 'repeats what worked' : 'argmax'}`
      : '';
    const decided = step.chosen.correction === 'show' ? `SHOWN by the person: ${step.chosen.semantic}` : step.chosen.decision === 'auto' ? 'ran alone' : step.chosen.decision;
    const said = texts.flatMap(({ id, text }) => (text.step ? [` · ${text.step(step.evidence?.[id])}`] : [])).join('');
    console.log(`\nstep ${step.index + 1} on ${path}${said}${step.replayed.length ? ` · replayed: ${step.replayed.join(', ')}` : ''}${how} · ${decided}`);
    if (step.loop) console.log(`LOOP: back at the page as it was before step ${step.loop.since + 1}; not proposed again here: ${step.loop.repeated.join('; ')}`);
    const rows = step.candidates.map((c) => {
      const cells = texts.map(({ id, text }) => text.candidate?.(c.evidence?.[id]) ?? {});
      const evidence = cells.map((x) => x['evidence']).filter((x) => x !== undefined).join(' · ');
      return [
      c.semantic === step.chosen!.semantic ? '→' : '',
      c.semantic.length > 60 ? `${c.semantic.slice(0, 57)}…` : c.semantic,
      c.origin,
      fmt(c.baseLogit),
      fmt(c.adjustedLogit),
      pct(c.baseProb),
      pct(c.adjustedProb),
      ...columns.map((k) => cells.find((x) => x[k] !== undefined)?.[k] ?? ''),
      `${evidence}${c.barred ? `${evidence ? ' · ' : ''}barred (${c.barred})` : ''}`,
      ];
    });
    console.log(markdownTable([['', 'candidate', 'from', 'base z', "adjusted z'", 'base p', "adjusted p", ...columns, 'evidence'], ...rows], { align: ['c', 'l', 'l', 'r', 'r', 'r', 'r', ...columns.map(() => 'r' as const), 'l'] }));
    const why = step.candidates.find((c) => c.semantic === step.chosen!.semantic)?.rationale;
    if (why) console.log(`why the policy proposed it: ${why}`);
  }
  if (episode.answer) console.log(`\nanswer: ${episode.answer}`);
}

async function main(): Promise<number> {
  const cli = parseCli({
    options: {
      template: { type: 'string', default: 'shop.add-to-cart' },
      task: { type: 'string' },
      attempts: { type: 'string', default: '4' },
      learners: { type: 'string', default: BENCH_CONFIGURATIONS.showcase },
      seed: { type: 'string', default: '0' },
      headed: { type: 'boolean', default: false },
    },
    strict: true,
  }, ABOUT);
  if ('exit' in cli) return cli.exit;
  const { values } = cli.args;
  // Before any site starts: no browser is one line on how to get one (runCli prints it).
  chromiumPath();
  const learner: LearnerConfig = values.learners;
  const parsed = parseLearnerConfig(learner);
  if (!parsed.ok) {
    console.error(`--learners: ${parsed.message}`);
    return 2;
  }
  const suite = await loadSuite(resolve(import.meta.dirname, 'suites/apprentice-sites/index.ts'));
  const common = { suite, learners: [learner], policy: 'offline' as const, noise: 0, seed: Number(values.seed), profile: 'full', progress: false, headed: values.headed };
  if (values.task) {
    console.log(`# Apprentice demo — task ${values.task}, ${values.attempts} attempts alone, offline policy, learner ${learner}`);
    const result = await runBench({ ...common, attempts: Number(values.attempts), memory: 'fresh', taskFilter: values.task, onAttempt: printAttempt });
    console.log(`\n# Success by attempt: ${result.records.map((r) => (r.outcome === 'success' ? '✓' : '✗')).join(' ')}`);
    return 0;
  }
  // The first two instances of the template, in the suite's order.
  const started = await suite.start?.();
  const all = resolveTasks(suite, { baseUrl: started ? started.baseUrl : '' });
  await suite.stop?.();
  const instances = all.filter((t) => t.template === values.template).slice(0, 2);
  if (instances.length < 2) {
    console.error(`--template ${values.template}: the suite has fewer than two instances of it`);
    return 2;
  }
  console.log(`# Apprentice demo — the loop on ${values.template}: ${instances.map((t) => t.id).join(' then ')}, offline policy, learner ${learner}`);
  const result = await runBench({
    ...common,
    attempts: 2,
    memory: 'carry',
    taskFilter: instances.map((t) => t.id).join(','),
    // Attempt 1 of each instance with the person there (teaching the first, watching the second); attempt 2 alone.
    teachWhen: ({ attempt }) => attempt === 1,
    teachBy: 'show',
    onAttempt: (record, episode) => {
      if (record.attempt === 1) console.log(`\n# ${record.taskId}: ${record.instruction}`);
      printAttempt(record, episode);
    },
  });
  const rec = (i: number, attempt: number) => result.records.find((r) => r.taskId === instances[i]!.id && r.attempt === attempt);
  const corrections = (r: AttemptRecord | undefined) => (r?.teaching ? (r.teaching.shows ?? 0) + r.teaching.picks + r.teaching.edits : 0);
  const rows = [[0, 1], [0, 2], [1, 1], [1, 2]].map(([i, k]) => {
    const r = rec(i!, k!);
    return [`instance ${i! + 1} (${instances[i!]!.id})`, String(k), r?.taught ? 'the person' : 'alone', String(corrections(r)), String(r?.teaching?.asks ?? 0), r?.outcome ?? '—'];
  });
  console.log(`\n# The loop\n\n${markdownTable([['', 'attempt', 'with', 'corrections', 'approvals', 'outcome'], ...rows])}`);
  const holds = {
    taught: corrections(rec(0, 1)) > 0,
    alone: rec(0, 2)?.outcome === 'success',
    transfer: rec(1, 1)?.outcome === 'success' && corrections(rec(1, 1)) === 0,
  };
  console.log(`\n- attempt 1 was taught by Show me: ${holds.taught ? 'yes' : 'NO (the proposals needed no correction)'}`);
  console.log(`- attempt 2 alone succeeded: ${holds.alone ? 'yes' : 'NO'}`);
  console.log(`- the second instance needed no correction: ${holds.transfer ? 'yes' : 'NO'}`);
  return 0;
}

runCli(main);
