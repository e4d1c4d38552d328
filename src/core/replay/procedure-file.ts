/**
 * Procedures in a file (export, import). A file is another person's memory,
 * not this person's approval: it is validated with zod, and a procedure with
 * a step of a kind that always asks (ending the task, a secret, submitting
 * with Enter, another origin, a download, a destructive or paying control) is
 * refused with a message naming the step, because a plan approved once must
 * not carry such a step past the person. Nothing of a refused file is kept.
 */
import * as z from 'zod';
import { parseAction } from '../page/action-grammar.ts';
import { secretFieldOf } from '../secrets/secret-fields.ts';
import { ProcedureSchema, type Procedure } from './procedure.ts';

export const ProcedureFileSchema = z.strictObject({
  kind: z.literal('apprentice-procedures'),
  version: z.literal(1),
  procedures: z.array(ProcedureSchema),
});

const DOWNLOAD = /\.(zip|exe|dmg|msi|pkg|deb|rpm|apk|pdf|csv|xlsx?|docx?|tar|gz|7z|iso|bat|sh|ps1|jar)(\?|#|$)/i;

/**
 * The gate's word list, passed in (it lives with the gate in core/agent,
 * which imports this folder): the first destructive word in a name, or null.
 */
export type DestructiveWordIn = (name: string) => string | null;

/** Why a step always asks, judged from its semantic form alone (no page to look at), or null. */
export function alwaysAskKind(action: string, origin: string, destructiveWordIn: DestructiveWordIn): string | null {
  const parsed = parseAction(action);
  if (!parsed.ok) return `it does not parse (${parsed.error.message})`;
  const a = parsed.action;
  const name = 'target' in a && a.target?.kind === 'semantic' ? a.target.name : '';
  if (a.type === 'send_msg_to_user' || a.type === 'report_infeasible') return 'it ends the task';
  if ((a.type === 'fill' || a.type === 'press' || a.type === 'clear') && secretFieldOf(a) !== null) return 'it types into a secret field';
  if (a.type === 'press' && /enter|return/i.test(a.keys)) return 'Enter may submit a form';
  if (a.type === 'fill' && /[\r\n]/.test(a.text)) return 'its text has a line break, which may submit a form';
  if (a.type === 'goto') {
    let to: URL;
    try { to = new URL(a.url, origin); } catch { return 'its address does not parse'; }
    if (to.origin !== origin) return `it goes to another origin (${to.origin})`;
    if (DOWNLOAD.test(to.pathname)) return 'it downloads a file';
  }
  const word = name ? destructiveWordIn(name) : null;
  if (word) return `"${name}" may be irreversible (${word})`;
  return null;
}

export type ProcedureFileResult = { ok: true; procedures: Procedure[] } | { ok: false; message: string };

export function readProcedureFile(text: string, destructiveWordIn: DestructiveWordIn): ProcedureFileResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `The file is not JSON (${err instanceof Error ? err.message : String(err)}). Nothing imported.` };
  }
  const parsed = ProcedureFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `The file is not a procedures file: ${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid'}. Nothing imported.` };
  }
  for (const p of parsed.data.procedures) {
    for (const [i, step] of p.steps.entries()) {
      const kind = alwaysAskKind(step.action, p.origin, destructiveWordIn);
      if (kind !== null) {
        return { ok: false, message: `Step ${i + 1} of "${p.template}" (${step.action}) always asks: ${kind}. An imported procedure cannot carry such a step. Nothing imported.` };
      }
    }
  }
  return { ok: true, procedures: parsed.data.procedures };
}
