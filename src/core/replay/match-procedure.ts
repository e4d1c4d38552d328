/**
 * Which procedure, if any, replays a task: its template must read the task
 * with every variable the steps use bound to the task's own values (a strict
 * pattern match, never a loose guess), it must not be blocked (never replay,
 * deleted, failed twice in a row), and demoted procedures come last.
 */
import { instantiateAction } from '../learning/shared/skill-variables.ts';
import { parseAction } from '../page/action-grammar.ts';
import { bindTemplate } from './build-procedures.ts';
import type { TargetFingerprint } from '../page/target-fingerprint.ts';
import { bindEffect } from './step-effect.ts';
import { replayBlocked, type Procedure, type ReplayStatus, EMPTY_REPLAY_STATUS } from './procedure.ts';

/** A procedure bound to a task: the plan a replay follows. */
export interface BoundPlan {
  procedure: Procedure;
  values: Record<string, string>;
  /** The steps with the task's values in place (semantic form, no {variables} left), and in their effects. */
  steps: { regUrl: string; action: string; effect?: TargetFingerprint }[];
  /** Every origin a step acts on (the site's own, and any goto's). */
  origins: string[];
}

export type PlanMatch =
  | { kind: 'plan'; plan: BoundPlan; notes: string[] }
  /** A procedure fits the template but cannot run: said plainly, and the policy runs. */
  | { kind: 'refused'; message: string; notes: string[] }
  | { kind: 'none'; notes: string[] };

/** Binds a procedure to values; a message naming what is missing when any variable stays unbound. */
export function bindPlan(procedure: Procedure, values: Record<string, string>): { ok: true; plan: BoundPlan } | { ok: false; message: string } {
  const missing = procedure.variables.filter((v) => values[v] === undefined || values[v]!.trim() === '');
  if (missing.length > 0) {
    return { ok: false, message: `Not replayed: "${procedure.template}" needs ${missing.map((v) => `{${v}}`).join(', ')}, which the task does not give. The policy runs instead.` };
  }
  const steps: BoundPlan['steps'] = [];
  const origins = new Set([procedure.origin]);
  for (const [i, step] of procedure.steps.entries()) {
    const action = instantiateAction(step.action, values);
    if (action === null) return { ok: false, message: `Not replayed: step ${i + 1} of "${procedure.template}" keeps an unbound value. The policy runs instead.` };
    const parsed = parseAction(action);
    if (parsed.ok && parsed.action.type === 'goto') {
      try {
        origins.add(new URL(parsed.action.url, procedure.origin).origin);
      } catch {
        return { ok: false, message: `Not replayed: step ${i + 1} goes to an address that does not parse (${parsed.action.url}).` };
      }
    }
    steps.push({ regUrl: step.regUrl, action, ...(step.effect ? { effect: bindEffect(step.effect, values) } : {}) });
  }
  return { ok: true, plan: { procedure, values, steps, origins: [...origins] } };
}

/** Demoted first by failures in a row, then by total failures; then more successes and newer first. */
function rank(a: { procedure: Procedure; status: ReplayStatus }, b: { procedure: Procedure; status: ReplayStatus }): number {
  return a.status.failuresInRow - b.status.failuresInRow
    || a.status.failures - b.status.failures
    || (b.status.successes + b.procedure.sources.length) - (a.status.successes + a.procedure.sources.length)
    || b.procedure.steps.length - a.procedure.steps.length;
}

export function matchPlan(task: string, procedures: readonly Procedure[], statuses: ReadonlyMap<string, ReplayStatus>): PlanMatch {
  const notes: string[] = [];
  const fitting: { procedure: Procedure; status: ReplayStatus; values: Record<string, string> }[] = [];
  for (const procedure of procedures) {
    const values = bindTemplate(procedure.template, task);
    if (values === null) continue;
    const status = statuses.get(procedure.id) ?? EMPTY_REPLAY_STATUS;
    const blocked = replayBlocked(procedure, status);
    if (blocked !== null) {
      notes.push(`procedure "${procedure.template}" not replayed: ${blocked}`);
      continue;
    }
    fitting.push({ procedure, status, values });
  }
  fitting.sort(rank);
  let refused: string | null = null;
  for (const f of fitting) {
    const bound = bindPlan(f.procedure, f.values);
    if (bound.ok) return { kind: 'plan', plan: bound.plan, notes };
    refused ??= bound.message;
  }
  return refused !== null ? { kind: 'refused', message: refused, notes } : { kind: 'none', notes };
}
