/**
 * `npm run bench -- --ablate`: JitRL as the paper has it (Algorithm 1 with
 * none of our additions), then each addition switched on alone, then all of
 * them (the shipped defaults), then the shipped set with each one left out.
 * Every row is one benchmark run of the `jitrl`
 * configuration on the same tasks, seed and profile, next to `static`.
 * Published in docs/learning-ablation.md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { markdownTable } from 'markdown-table';
import { DEFAULT_JITRL, type JitrlSettings } from '../src/core/learning/jitrl/settings.ts';
import { runBench, type BenchOptions } from './bench-runner.ts';
import type { LearnerSummary } from './metrics.ts';

type Switches = Pick<JitrlSettings, 'bars' | 'exploitSettled' | 'widenPool' | 'loopBars' | 'advantageFloor' | 'preferSameUrl'>;

/** Algorithm 1 alone: every addition off; Eq. 25's divisor without a floor; the page type's neighbours only. */
export const PAPER_ONLY: Switches = { bars: false, exploitSettled: false, widenPool: false, loopBars: false, advantageFloor: 0, preferSameUrl: false };

const SHIPPED: Switches = {
  bars: DEFAULT_JITRL.bars, exploitSettled: DEFAULT_JITRL.exploitSettled, widenPool: DEFAULT_JITRL.widenPool,
  loopBars: DEFAULT_JITRL.loopBars, advantageFloor: DEFAULT_JITRL.advantageFloor, preferSameUrl: DEFAULT_JITRL.preferSameUrl,
};

export interface AblationRow {
  name: string;
  settings: Switches;
}

export const ABLATION_ROWS: readonly AblationRow[] = [
  { name: 'paper only (Algorithm 1)', settings: PAPER_ONLY },
  { name: '+ bars (rejected / blamed here)', settings: { ...PAPER_ONLY, bars: true } },
  { name: '+ settled exploitation', settings: { ...PAPER_ONLY, exploitSettled: true } },
  { name: '+ pool widening', settings: { ...PAPER_ONLY, widenPool: true } },
  { name: '+ loop bars', settings: { ...PAPER_ONLY, loopBars: true } },
  { name: '+ advantage floor (1)', settings: { ...PAPER_ONLY, advantageFloor: SHIPPED.advantageFloor } },
  { name: '+ same-URL backoff', settings: { ...PAPER_ONLY, preferSameUrl: true } },
  { name: 'all additions (shipped)', settings: SHIPPED },
];

/** Each addition left out of the shipped set: what it adds given the others (interactions show here). */
export const LEAVE_ONE_OUT_ROWS: readonly AblationRow[] = [
  { name: 'shipped − bars', settings: { ...SHIPPED, bars: false } },
  { name: 'shipped − settled exploitation', settings: { ...SHIPPED, exploitSettled: false } },
  { name: 'shipped − pool widening', settings: { ...SHIPPED, widenPool: false } },
  { name: 'shipped − loop bars', settings: { ...SHIPPED, loopBars: false } },
  { name: 'shipped − advantage floor', settings: { ...SHIPPED, advantageFloor: 0 } },
  { name: 'shipped − same-URL backoff', settings: { ...SHIPPED, preferSameUrl: false } },
];

export interface AblationResult {
  rows: { row: AblationRow; jitrl: LearnerSummary; seconds: number }[];
  staticSummary: LearnerSummary | null;
  options: Pick<BenchOptions, 'policy' | 'seed' | 'attempts' | 'profile' | 'memory' | 'selection' | 'taskFilter'>;
}

/** Runs `static` once and `jitrl` once per row. */
export async function runAblation(base: Omit<BenchOptions, 'learners' | 'jitrl'>, rows: readonly AblationRow[] = [...ABLATION_ROWS, ...LEAVE_ONE_OUT_ROWS]): Promise<AblationResult> {
  const staticRun = await runBench({ ...base, learners: ['static'] });
  const out: AblationResult['rows'] = [];
  for (const row of rows) {
    const started = Date.now();
    const result = await runBench({ ...base, learners: ['jitrl'], jitrl: row.settings });
    const jitrl = result.summaries.find((s) => s.learner === 'jitrl');
    if (!jitrl) throw new Error(`ablation row "${row.name}": no jitrl summary`);
    out.push({ row, jitrl, seconds: Math.round((Date.now() - started) / 1000) });
  }
  return {
    rows: out,
    staticSummary: staticRun.summaries.find((s) => s.learner === 'static') ?? null,
    options: { policy: base.policy, seed: base.seed, attempts: base.attempts, profile: base.profile, memory: base.memory, selection: base.selection ?? 'sampling', taskFilter: base.taskFilter },
  };
}

const pct = (x: number) => (100 * x).toFixed(1);

export function ablationMarkdown(result: AblationResult): string {
  const header = ['Configuration', 'Avg %', 'Final %', 'AUC %', 'W-AUC %', 'Limit %', 'Final / Limit %', 'Steps/attempt', 'Δ Final vs paper'];
  const paper = result.rows[0]?.jitrl.final ?? 0;
  const line = (name: string, s: LearnerSummary, delta: string) => [
    name, pct(s.avg), pct(s.final), pct(s.auc), pct(s.wauc), pct(s.limit), s.finalOfLimit === null ? '–' : pct(s.finalOfLimit), s.meanSteps.toFixed(1), delta,
  ];
  const body = result.rows.map(({ row, jitrl }, i) => line(row.name, jitrl, i === 0 ? '–' : `${jitrl.final >= paper ? '+' : ''}${pct(jitrl.final - paper)}`));
  if (result.staticSummary) body.unshift(line('static (no learner)', result.staticSummary, '–'));
  const o = result.options;
  return [
    `Policy ${o.policy} (${o.selection}), profile ${o.profile}${o.taskFilter ? `, tasks ${o.taskFilter}` : ''}, ${o.attempts} attempts per task, memory ${o.memory}, seed ${o.seed}.`,
    '',
    markdownTable([header, ...body], { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] }),
    '',
  ].join('\n');
}

export async function writeAblation(result: AblationResult, outDir: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, 'ablation.md');
  await writeFile(path, `# JitRL ablation\n\n${ablationMarkdown(result)}`);
  return path;
}
