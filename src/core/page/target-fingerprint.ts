/**
 * What an approval was about, beyond the words on the card: the element's
 * role and name, where its link goes, where its form goes and how, and
 * whether activating it submits. Recorded when the person approves; compared
 * when the gate considers running the same action again, and once more just
 * before the action runs. A page that keeps the name and swaps the `href`, or
 * moves a button into another form, no longer matches what was approved.
 */
import * as z from 'zod';
import { TargetContextSchema, type Action } from './action.ts';
import { formatContext } from './action-grammar.ts';
import { FormFieldSchema, type PageObservation, type SnapshotNode } from './observation.ts';
import { nodeActedOn } from './node-acted-on.ts';
import { effectUrl } from './effect-url.ts';
import { formDataChanges } from './form-data-changes.ts';

export const TargetFingerprintSchema = z.strictObject({
  role: z.string(),
  name: z.string(),
  /** The link's absolute href (the gate compares it without tracking keys; the act-time check the whole of it). */
  href: z.string().optional(),
  download: z.literal(true).optional(),
  formAction: z.string().optional(),
  formMethod: z.string().optional(),
  /** What its form sends, secrets as keyed digests (SnapshotNode.formData); absent on records older than issue 30. */
  formData: z.array(FormFieldSchema).max(100).optional(),
  /** The row, card, group or dialog it sits in (SnapshotNode.context): an approval of one row's Remove is not another row's. */
  context: z.array(TargetContextSchema).optional(),
  /** Activating it submits a form (a submit button, a check or select whose change submits). */
  submits: z.boolean(),
  inputType: z.string().optional(),
});
export type TargetFingerprint = z.infer<typeof TargetFingerprintSchema>;

const normalized = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Whether activating the element submits a form, as the page layer reported it. */
export const submitsOf = (node: Pick<SnapshotNode, 'submits' | 'inputType'>): boolean =>
  node.submits === true || node.inputType === 'submit' || node.inputType === 'image';

export function fingerprintOf(node: SnapshotNode): TargetFingerprint {
  return {
    role: node.role,
    name: normalized(node.name),
    ...(node.href !== undefined ? { href: node.href } : {}),
    ...(node.download ? { download: true as const } : {}),
    ...(node.formAction !== undefined ? { formAction: node.formAction } : {}),
    ...(node.formMethod !== undefined ? { formMethod: node.formMethod.toLowerCase() } : {}),
    ...(node.formData !== undefined ? { formData: node.formData } : {}),
    ...(node.context !== undefined ? { context: node.context.map((c) => ({ role: c.role, name: normalized(c.name) })) } : {}),
    submits: submitsOf(node),
    ...(node.inputType !== undefined ? { inputType: node.inputType } : {}),
  };
}

/** Whether a fingerprint is of the element a semantic target names (role, and name up to whitespace). */
export function fingerprintNames(fingerprint: TargetFingerprint, role: string, name: string): boolean {
  return fingerprint.role === role && fingerprint.name === normalized(name);
}

/** The fingerprint of the element an action acts on (a press without a target: the focused one); null for actions without one (goto, answers). */
export function actionFingerprint(action: Action, observation: Pick<PageObservation, 'nodes' | 'focusedRef'>): TargetFingerprint | null {
  const node = nodeActedOn(action, observation);
  return node ? fingerprintOf(node) : null;
}

/**
 * What differs between the element as approved and as it is now, in words
 * for the person; empty when it is the same. `precision` 'site' compares
 * links and form actions as effects (effect-url.ts: query included, tracking
 * keys left out; the gate, across visits); 'exact' compares them whole (act
 * time, the page the person just saw).
 */
export function fingerprintChanges(then: TargetFingerprint, now: TargetFingerprint, precision: 'site' | 'exact'): string[] {
  const url = (u: string | undefined) => (precision === 'site' ? effectUrl(u) : u);
  const changes: string[] = [];
  if (then.role !== now.role) changes.push(`its role is ${now.role}, not ${then.role}`);
  if (then.name !== now.name) changes.push(`its name is "${now.name}", not "${then.name}"`);
  if (url(then.href) !== url(now.href)) changes.push(`its link goes to ${now.href ?? 'nowhere'}, not ${then.href ?? 'nowhere'}`);
  if ((then.download ?? false) !== (now.download ?? false)) changes.push(now.download ? 'it downloads a file now' : 'it no longer downloads');
  if (url(then.formAction) !== url(now.formAction)) changes.push(`its form goes to ${now.formAction ?? 'no form'}, not ${then.formAction ?? 'no form'}`);
  if ((then.formMethod ?? '') !== (now.formMethod ?? '')) changes.push(`its form method is ${now.formMethod ?? 'none'}, not ${then.formMethod ?? 'none'}`);
  changes.push(...formDataChanges(then.formData, now.formData));
  const where = (f: TargetFingerprint) => formatContext(f.context).trim();
  if (where(then) !== where(now)) changes.push(`it sits ${where(now) || 'in no row or dialog'}, not ${where(then) || 'in no row or dialog'}`);
  if (then.submits !== now.submits) changes.push(now.submits ? 'it submits a form now' : 'it no longer submits a form');
  if ((then.inputType ?? '') !== (now.inputType ?? '')) changes.push(`its input type is ${now.inputType ?? 'none'}, not ${then.inputType ?? 'none'}`);
  return changes;
}
