/** The Markdown section of a taught run (`--teach N`): the columns of issue 22 and its targets. */
import { markdownTable } from 'markdown-table';
import type { BenchResult } from './report.ts';

const pct = (x: number) => (x * 100).toFixed(1);
const num = (x: number | null | undefined) => (x === null || x === undefined ? '–' : x.toFixed(2));

export function teachingReport(r: BenchResult): string[] {
  const teaching = r.teaching ?? [];
  const carry = r.memory === 'carry';
  const lines: string[] = [];
  lines.push(carry
    ? `Taught by the suite's teacher: the first ${r.teach} instance(s) of each template; later instances alone.`
    : `Taught by the suite's teacher: attempts 1–${r.teach} of each task; the rest alone.`, '');
  lines.push(markdownTable([
    ['Learner', 'Taught attempts', 'Corrections/taught attempt', 'Asks/taught attempt', 'Unteachable steps', 'Alone success %', carry ? 'Later instances alone %' : 'Alone right after a taught success %', 'Policy calls/success', 'Model calls/success'],
    ...teaching.map((t) => {
      const taughtCorrections = t.correctionsByAttempt.filter((v): v is number => v !== null);
      const taughtAsks = t.asksByAttempt.filter((v): v is number => v !== null);
      const avg = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
      return [
        t.learner, String(t.taughtAttempts), num(avg(taughtCorrections)), num(avg(taughtAsks)), String(t.unteachable.length),
        `${pct(t.alone.rate)} (${t.alone.successes}/${t.alone.attempts})`,
        carry ? `${pct(t.laterAlone.rate)} (${t.laterAlone.successes}/${t.laterAlone.tasks})` : `${pct(t.sameInstance.rate)} (${t.sameInstance.aloneSucceeded}/${t.sameInstance.completed})`,
        num(t.policyCallsPerSuccess), num(t.modelCallsPerSuccess),
      ];
    }),
  ], { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] }), '');
  lines.push('Corrections (picked or edited steps) per taught attempt, by attempt (– = alone):', '');
  lines.push(markdownTable([
    ['Learner', ...Array.from({ length: r.attempts }, (_, k) => `k=${k + 1}`)],
    ...teaching.map((t) => [t.learner, ...t.correctionsByAttempt.map(num)]),
  ]), '');
  lines.push('Asks (approved proposals) per taught attempt, by attempt:', '');
  lines.push(markdownTable([
    ['Learner', ...Array.from({ length: r.attempts }, (_, k) => `k=${k + 1}`)],
    ...teaching.map((t) => [t.learner, ...t.asksByAttempt.map(num)]),
  ]), '');
  if (carry) {
    const n = Math.max(0, ...teaching.map((t) => t.correctionsByInstance.length));
    lines.push('Corrections per instance of a template (– = alone):', '');
    lines.push(markdownTable([
      ['Learner', ...Array.from({ length: n }, (_, i) => `instance ${i + 1}`)],
      ...teaching.map((t) => [t.learner, ...Array.from({ length: n }, (_, i) => num(t.correctionsByInstance[i]))]),
    ]), '');
  }
  const unteachable = teaching.flatMap((t) => t.unteachable.map((u) => `- ${t.learner} / ${u.taskId} attempt ${u.attempt}, step ${u.step + 1}: \`${u.selector}\` — ${u.reason}`));
  if (unteachable.length > 0) lines.push('Unteachable steps (the teacher\'s element had no ref in the agent\'s snapshot):', '', ...unteachable, '');
  for (const [learner, checks] of Object.entries(r.teachingTargets ?? {})) {
    lines.push(`Teaching targets for ${learner}:`, '');
    for (const c of checks) lines.push(`- ${c.met ? 'met' : c.detail.startsWith('not measured') ? 'not measured' : 'MISSED'}: ${c.name} (${c.detail})`);
    lines.push('');
  }
  return lines;
}
