/**
 * How often the page refused an action, by cause (issue 34): `not_run` (the
 * element changed since it was shown, or our pointer check refused the
 * click), `obscured` (something else covers it at every point) and
 * `element_gone` (a stale ref that was not found again). Per learner: the
 * steps that failed so, and the attempts that failed with such a step last —
 * the attempts they ended. Read from the attempts' executed actions
 * ("… → code"), so older results.json files can be read the same way.
 */
import type { AttemptRecord } from './metrics.ts';

export const REFUSAL_CODES = ['not_run', 'obscured', 'element_gone'] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface RefusalCounts {
  steps: Record<RefusalCode, number>;
  endedBy: Record<RefusalCode, number>;
}

const codeOf = (action: string): string | null => /→ ([a-z_]+)(?: \(|$)/.exec(action)?.[1] ?? null;
const isRefusal = (code: string | null): code is RefusalCode => code !== null && (REFUSAL_CODES as readonly string[]).includes(code);

export function refusalCounts(records: readonly AttemptRecord[]): RefusalCounts {
  const zero = (): Record<RefusalCode, number> => ({ not_run: 0, obscured: 0, element_gone: 0 });
  const out: RefusalCounts = { steps: zero(), endedBy: zero() };
  for (const r of records) {
    for (const a of r.actions) {
      const code = codeOf(a);
      if (isRefusal(code)) out.steps[code]++;
    }
    const last = codeOf(r.actions.at(-1) ?? '');
    if (r.outcome !== 'success' && isRefusal(last)) out.endedBy[last]++;
  }
  return out;
}

/** The report's table: per learner, "steps (attempts ended)" for each cause. */
export function refusalTable(records: readonly AttemptRecord[], learners: readonly string[]): string[][] {
  const rows = learners.map((learner) => {
    const c = refusalCounts(records.filter((r) => r.learner === learner));
    return [learner, ...REFUSAL_CODES.map((code) => `${c.steps[code]} (${c.endedBy[code]})`)];
  });
  return [['Learner', 'not_run', 'obscured', 'element_gone (stale ref)'], ...rows];
}
