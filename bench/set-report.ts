/**
 * Development and test figures apart (issue 33): when any task of the run
 * names its set, the report gets one table per set and learner — taught
 * attempts (the teacher through the agent), attempts alone, the alone attempt
 * right after a taught success (fresh) or later instances alone (carry), and
 * the misses by task id. A run without a teacher shows every attempt as alone.
 */
import { markdownTable } from 'markdown-table';
import type { AttemptRecord } from './metrics.ts';
import type { BenchResult } from './report.ts';
import { summarizeTeaching } from './teaching-metrics.ts';

const frac = (n: number, d: number): string => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} (${n}/${d})`);

/** The record's task set, as the run's task list says ('development' when unnamed). */
export function setOf(r: BenchResult, taskId: string): 'development' | 'test' {
  return r.tasks.find((t) => t.id === taskId)?.set ?? 'development';
}

function misses(records: readonly AttemptRecord[]): string {
  const failed = records.filter((x) => !x.taught && x.outcome !== 'success').map((x) => `${x.taskId}#${x.attempt}${x.outcome === 'error' ? ' (error)' : ''}`);
  return failed.length === 0 ? 'none' : failed.join(', ');
}

export function setReport(r: BenchResult): string[] {
  if (!r.tasks.some((t) => t.set === 'test')) return [];
  const carry = r.memory === 'carry';
  const lines = ['Development and test sets apart (test templates are never tuned on; see docs/benchmarks.md):', ''];
  const rows: string[][] = [];
  const missLines: string[] = [];
  for (const set of ['development', 'test'] as const) {
    const mine = r.records.filter((x) => setOf(r, x.taskId) === set);
    const templates = new Set(r.tasks.filter((t) => (t.set ?? 'development') === set).map((t) => t.template ?? t.id));
    for (const learner of r.learners) {
      const own = mine.filter((x) => x.learner === learner);
      if (own.length === 0) continue;
      const t = summarizeTeaching(learner, own, r.attempts, r.memory);
      const taught = own.filter((x) => x.taught);
      const errors = own.filter((x) => x.outcome === 'error').length;
      rows.push([
        set, learner, `${templates.size} / ${new Set(own.map((x) => x.taskId)).size}`,
        frac(taught.filter((x) => x.outcome === 'success').length, taught.length),
        frac(t.alone.successes, t.alone.attempts),
        carry ? frac(t.laterAlone.successes, t.laterAlone.tasks) : frac(t.sameInstance.aloneSucceeded, t.sameInstance.completed),
        String(errors),
      ]);
      missLines.push(`- ${set} / ${learner}: ${misses(own)}`);
    }
  }
  lines.push(markdownTable([
    ['Set', 'Learner', 'Templates / tasks', 'Taught success %', 'Alone success %', carry ? 'Later instances alone %' : 'Alone right after a taught success %', 'Errors'],
    ...rows,
  ], { align: ['l', 'l', 'r', 'r', 'r', 'r', 'r'] }), '');
  lines.push('Misses (alone attempts that failed, task#attempt):', '', ...missLines, '');
  return lines;
}
