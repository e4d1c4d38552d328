/**
 * Writes a benchmark run's results: a Markdown table, the full JSON, and the
 * success-by-attempt chart as SVG and PNG, into one output directory.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { costTable, fallbackLines } from './cost-metrics.ts';
import { refusalTable } from './action-failures.ts';
import { Resvg } from '@resvg/resvg-js';
import { markdownTable } from 'markdown-table';
import { setReport } from './set-report.ts';
import type { RunReport } from '../src/core/learning/learner-definition.ts';
import type { AttemptRecord, LearnerSummary, TargetCheck } from './metrics.ts';
import { teachingReport } from './teaching-report.ts';
import type { TeachingSummary } from './teaching-metrics.ts';
import { renderSuccessChart } from './success-chart.tsx';

export interface BenchResult {
  suite: string;
  /** Which base policy produced the numbers, stated in every output. */
  policy: string;
  policyDescription: string;
  seed: number;
  attempts: number;
  memory: 'fresh' | 'carry';
  profile: string;
  /** `--teach N` (0: nobody taught). */
  teach?: number;
  /** `--mutant`: the defence switched off for this run, said in every report of it. */
  mutant?: string;
  /** Per learner, with a teacher: corrections, asks, unteachable steps, alone success. */
  teaching?: TeachingSummary[];
  teachingTargets?: Record<string, TargetCheck[]>;
  learners: string[];
  /** `set`: the task's set when the suite names one (set-report.ts prints the sets apart). */
  tasks: { id: string; template: string | null; set?: 'development' | 'test' }[];
  summaries: LearnerSummary[];
  /** Targets of each learner against 'static', when static ran. */
  targets: Record<string, TargetCheck[]>;
  /** What a learner's run report says (`factory.runReport`), per learner configuration that includes it. */
  /** What the registry learners reported of the run, by configuration (LearnerFactory.runReport). */
  learnerReports?: Record<string, RunReport[]>;
  records: AttemptRecord[];
  /** Tasks that crashed Chromium twice, with the error. */
  crashed: { learner: string; taskId: string; error: string }[];
  /** Configurations not run because a learner in them needs a model and none was given: why. */
  needsModel?: Record<string, string>;
  startedAt: string;
  durationMs: number;
}

const pct = (x: number) => (x * 100).toFixed(1);
const ms = (x: number | null) => (x === null ? '–' : x.toFixed(1));

export function markdownReport(r: BenchResult): string {
  const lines: string[] = [];
  lines.push(`# Benchmark: ${r.suite}${r.mutant ? ` — mutant ${r.mutant}` : ''}`, '');
  lines.push(`**Policy: ${r.policy}** — ${r.policyDescription}`, '');
  lines.push(`Tasks: ${r.tasks.length} (profile ${r.profile}) · attempts per task: ${r.attempts} · memory: ${r.memory === 'fresh' ? 'fresh per task (same-task setting)' : 'carried across tasks (cross-task setting)'} · seed: ${r.seed} · ${(r.durationMs / 1000).toFixed(0)} s`, '');
  lines.push(markdownTable([
    ['Learner', 'Avg %', 'Final %', 'Final − Avg', 'Limit %', 'Final / Limit %', 'AUC %', 'W-AUC %', 'W-AUC unpadded %', 'Errors', 'Steps/attempt', 'Model calls', 'Tokens (prompt/completion)', 'Decision p50/p95 ms'],
    ...r.summaries.map((s) => [
      s.learner, pct(s.avg), pct(s.final), pct(s.final - s.avg), pct(s.limit), s.finalOfLimit === null ? '–' : pct(s.finalOfLimit), pct(s.auc), pct(s.wauc), pct(s.waucUnpadded), String(s.errors + s.missing),
      s.meanSteps.toFixed(1), String(s.modelCalls), `${s.promptTokens}/${s.completionTokens}`, `${ms(s.latencyP50Ms)}/${ms(s.latencyP95Ms)}`,
    ]),
    ...Object.keys(r.needsModel ?? {}).map((l) => [l, 'needs a model', '–', '–', '–', '–', '–', '–', '–', '–', '–', '–', '–', '–']),
  ], { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] }), '');
  if ((r.teach ?? 0) > 0) lines.push(...teachingReport(r));
  lines.push(...setReport(r));
  lines.push(`Limit: the perfect-learner limit, the share of tasks solved at least once in attempts 1..${Math.max(1, r.attempts - 1)}; Final / Limit: how much of what was found was kept at attempt ${r.attempts}.`, '');
  if (r.memory === 'carry') {
    lines.push('Cross-instance carry — attempt-1 success on every instance of a template after the first one run:', '');
    lines.push(markdownTable([
      ['Learner', 'Later instances', 'Solved', '%'],
      ...r.summaries.map((s) => [s.learner, String(s.laterInstances.tasks), String(s.laterInstances.successes), pct(s.laterInstances.rate)]),
    ]), '');
  }
  lines.push('Cost by attempt — model calls and policy calls per success, steps replayed from learned procedures (configurations ending in +replay replay them):', '');
  lines.push(markdownTable(costTable(r.records, r.learners.filter((l) => !(l in (r.needsModel ?? {}))), r.attempts)), '');
  lines.push('Refused actions by cause — failed steps (attempts that failed with one as their last step):', '');
  lines.push(markdownTable(refusalTable(r.records, r.learners.filter((l) => !(l in (r.needsModel ?? {}))))), '');
  const fallbacks = fallbackLines(r.records);
  if (fallbacks.length > 0) lines.push('Replay fallbacks (the step where a procedure stopped, and why; the policy finished the attempt):', '', ...fallbacks, '');
  lines.push('Success rate by attempt (%):', '');
  lines.push(markdownTable([
    ['Learner', ...Array.from({ length: r.attempts }, (_, k) => `k=${k + 1}`)],
    ...r.summaries.map((s) => [s.learner, ...s.successByAttempt.map(pct)]),
  ]), '');
  const templates = [...new Set(r.summaries.flatMap((s) => Object.keys(s.byTemplate)))].sort();
  const multi = templates.filter((t) => (r.summaries[0]?.byTemplate[t]?.tasks ?? 0) > 1);
  if (multi.length > 0) {
    lines.push('Templates with several instances — tasks solved at the last attempt / instances:', '');
    lines.push(markdownTable([
      ['Template', ...r.summaries.map((s) => s.learner)],
      ...multi.map((t) => [t, ...r.summaries.map((s) => {
        const b = s.byTemplate[t];
        return b ? `${b.finalSuccesses}/${b.tasks}` : '–';
      })]),
    ]), '');
  }
  const needing = Object.entries(r.needsModel ?? {});
  if (needing.length > 0) {
    lines.push(`Not run with the ${r.policy} policy, because a learner in them needs a model (run with --policy openai):`, '');
    for (const [learner, why] of needing) lines.push(`- ${learner}: ${why}`);
    lines.push('');
  }
  for (const [learner, checks] of Object.entries(r.targets)) {
    lines.push(`Targets for ${learner} against static:`, '');
    for (const c of checks) lines.push(`- ${c.met ? 'met' : 'MISSED'}: ${c.name} (${c.detail})`);
    lines.push('');
  }
  for (const [learner, reports] of Object.entries(r.learnerReports ?? {})) {
    for (const report of reports) {
      lines.push(`${report.title} (${learner}): ${report.text}`, '');
      if (report.table) lines.push(markdownTable(report.table, { align: report.table[0]!.map((_, i) => (i === 0 ? 'l' : 'r')) }), '');
    }
  }
  if (r.crashed.length > 0) {
    lines.push('Tasks whose browser crashed twice (reported, not scored as failures of the agent):', '');
    for (const c of r.crashed) lines.push(`- ${c.learner} / ${c.taskId}: ${c.error}`);
    lines.push('');
  }
  return lines.join('\n');
}

function pickFonts(): string[] {
  const candidates = [
    '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
    '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  ];
  return candidates.filter((f) => existsSync(f));
}

export function chartSvg(r: BenchResult): string {
  return renderSuccessChart({
    title: `Success rate by attempt — ${r.suite}`,
    subtitle: `policy: ${r.policy} · ${r.tasks.length} tasks · memory ${r.memory} · seed ${r.seed}${r.teach ? ` · taught: ${r.memory === 'carry' ? `first ${r.teach} instance(s)` : `attempts 1–${r.teach}`}` : ''}`,
    series: r.summaries.map((s) => ({ label: s.learner, values: s.successByAttempt })),
  });
}

/** Corrections per taught attempt, by attempt (or by instance with carry): the chart beside the success chart. */
export function correctionsChartSvg(r: BenchResult): string | null {
  const teaching = r.teaching ?? [];
  if (teaching.length === 0) return null;
  const byInstance = r.memory === 'carry';
  // Only the taught attempts (instances): they come first; alone ones have no corrections to count.
  const taughtPrefix = (xs: (number | null)[]) => {
    const end = xs.indexOf(null);
    return (end < 0 ? xs : xs.slice(0, end)) as number[];
  };
  const series = teaching.map((t) => ({ label: t.learner, values: taughtPrefix(byInstance ? t.correctionsByInstance : t.correctionsByAttempt) }));
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  return renderSuccessChart({
    title: `Corrections per taught ${byInstance ? 'instance' : 'attempt'} — ${r.suite}`,
    subtitle: `policy: ${r.policy} · ${r.tasks.length} tasks · taught: ${byInstance ? `first ${r.teach} instance(s) of each template` : `attempts 1–${r.teach}`}`,
    series,
    yMax: Math.ceil(max),
    yLabel: 'Corrections per attempt',
    xLabel: byInstance ? 'Instance of the template' : 'Attempt',
  });
}

export function svgToPng(svg: string): Buffer {
  const fontFiles = pickFonts();
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: 2 },
    font: { fontFiles, loadSystemFonts: fontFiles.length === 0, defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}

export interface WrittenReport {
  markdown: string;
  json: string;
  svg: string;
  png: string;
}

/** Writes results.md, results.json, success-by-attempt.svg and .png (and, taught, corrections-by-attempt.svg and .png) into `dir`. */
export async function writeReport(r: BenchResult, dir: string): Promise<WrittenReport> {
  await mkdir(dir, { recursive: true });
  const paths = {
    markdown: join(dir, 'results.md'),
    json: join(dir, 'results.json'),
    svg: join(dir, 'success-by-attempt.svg'),
    png: join(dir, 'success-by-attempt.png'),
  };
  const svg = chartSvg(r);
  await writeFile(paths.markdown, markdownReport(r));
  await writeFile(paths.json, `${JSON.stringify(r, null, 2)}\n`);
  await writeFile(paths.svg, svg);
  await writeFile(paths.png, svgToPng(svg));
  const corrections = correctionsChartSvg(r);
  if (corrections) {
    await writeFile(join(dir, 'corrections-by-attempt.svg'), corrections);
    await writeFile(join(dir, 'corrections-by-attempt.png'), svgToPng(corrections));
  }
  return paths;
}
