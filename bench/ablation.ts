/**
 * `npm run bench -- --ablate`: for each registry learner with ablation rows
 * (LearnerFactory.ablation; for example: the paper's method, then each of our
 * additions alone, then all, then each left out), one benchmark run of that
 * learner per row on the same tasks, seed and profile, next to `static`.
 * Published in docs/learning-ablation.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { markdownTable } from 'markdown-table';
import type { AblationRow } from '../src/core/learning/learner-definition.ts';
import { REGISTERED_LEARNERS } from '../src/core/learning/registry/registry-factories.ts';
import { runBench, type BenchOptions } from './bench-runner.ts';
import type { LearnerSummary } from './metrics.ts';

export interface AblatedLearner {
  id: string;
  label: string;
  rows: { row: AblationRow; summary: LearnerSummary; seconds: number }[];
}

export interface AblationResult {
  learners: AblatedLearner[];
  staticSummary: LearnerSummary | null;
  options: Pick<BenchOptions, 'policy' | 'seed' | 'attempts' | 'profile' | 'memory' | 'selection' | 'taskFilter'>;
}

/** The registry learners that have ablation rows, with them. */
export const ABLATED = REGISTERED_LEARNERS.flatMap((d) => (d.ablation && d.ablation.length > 0 ? [{ id: d.id, label: d.label, rows: d.ablation }] : []));

/** Runs `static` once, then each ablated learner once per row. */
export async function runAblation(base: Omit<BenchOptions, 'learners' | 'learnerSettings'>, learners = ABLATED): Promise<AblationResult> {
  const staticRun = await runBench({ ...base, learners: ['static'] });
  const out: AblatedLearner[] = [];
  for (const { id, label, rows } of learners) {
    const done: AblatedLearner['rows'] = [];
    for (const row of rows) {
      const started = Date.now();
      const result = await runBench({ ...base, learners: [id], learnerSettings: { [id]: row.settings } });
      const summary = result.summaries.find((s) => s.learner === id);
      if (!summary) throw new Error(`ablation row "${row.name}": no ${label} summary`);
      done.push({ row, summary, seconds: Math.round((Date.now() - started) / 1000) });
    }
    out.push({ id, label, rows: done });
  }
  return {
    learners: out,
    staticSummary: staticRun.summaries.find((s) => s.learner === 'static') ?? null,
    options: { policy: base.policy, seed: base.seed, attempts: base.attempts, profile: base.profile, memory: base.memory, selection: base.selection ?? 'sampling', taskFilter: base.taskFilter },
  };
}

const pct = (x: number) => (100 * x).toFixed(1);

/** One learner's table: static, then its rows, each with its Final against the first row's (the paper's method). */
function learnerTable(result: AblationResult, learner: AblatedLearner): string {
  const header = ['Configuration', 'Avg %', 'Final %', 'AUC %', 'W-AUC %', 'Limit %', 'Final / Limit %', 'Steps/attempt', 'Δ Final vs paper'];
  const paper = learner.rows[0]?.summary.final ?? 0;
  const line = (name: string, s: LearnerSummary, delta: string) => [
    name, pct(s.avg), pct(s.final), pct(s.auc), pct(s.wauc), pct(s.limit), s.finalOfLimit === null ? '–' : pct(s.finalOfLimit), s.meanSteps.toFixed(1), delta,
  ];
  const body = learner.rows.map(({ row, summary }, i) => line(row.name, summary, i === 0 ? '–' : `${summary.final >= paper ? '+' : ''}${pct(summary.final - paper)}`));
  if (result.staticSummary) body.unshift(line('static (no learner)', result.staticSummary, '–'));
  return markdownTable([header, ...body], { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] });
}

export function ablationMarkdown(result: AblationResult): string {
  const o = result.options;
  const setting = `Policy ${o.policy} (${o.selection}), profile ${o.profile}${o.taskFilter ? `, tasks ${o.taskFilter}` : ''}, ${o.attempts} attempts per task, memory ${o.memory}, seed ${o.seed}.`;
  // One learner: the table as before; more: one headed section each.
  if (result.learners.length === 1) return [setting, '', learnerTable(result, result.learners[0]!), ''].join('\n');
  return [setting, '', ...result.learners.flatMap((l) => [`## ${l.label}`, '', learnerTable(result, l), ''])].join('\n');
}

export async function writeAblation(result: AblationResult, outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, 'ablation.md');
  const title = result.learners.map((l) => l.label).join(', ') || 'No learner has';
  await writeFile(path, `# ${title} ablation\n\n${ablationMarkdown(result)}`);
  return path;
}
