/**
 * Procedures from what the learners already store: a learned template (a
 * skill) gives the task pattern and its {variables}; the steps that ran in
 * the verified successes it came from (remembered steps) give the steps, in order,
 * with the page type of each. A step of the procedure is a skill step found
 * in a success's transitions, so a success's detours (steps that went round
 * and came back to a page as it was — the template leaves them out) are
 * not replayed. A success that changed state on an item the task does not
 * name, next to the same change on the item it does name, yields no
 * procedure: replay never copies a mistake.
 */
import type { LearnedTemplate, RanStep } from '../learning/learner-definition.ts';
import { variablesIn } from '../learning/shared/skill-variables.ts';
import { matchNamePattern } from '../learning/shared/skill-variables.ts';
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { Action, Target, TargetContext } from '../page/action.ts';
import { kindsWhere, mapSlots } from '../page/action-vocabulary.ts';
import type { TargetFingerprint } from '../page/target-fingerprint.ts';
import type { Procedure, ProcedureSource, ProcedureStep } from './procedure.ts';
import { abstractEffect } from './step-effect.ts';

/** One success a skill came from, as the stores know it. */
export interface SourceSuccess {
  episodeId: string;
  task: string;
  source: ProcedureSource['source'];
  taught: boolean;
  endedAt: number | null;
  /** The steps that ran in the episode (rejected proposals left out), in step order; `effect`: its element as it ran (the episode's record). */
  transitions: (RanStep & { effect?: TargetFingerprint })[];
}

/** What a procedure is built from: a learned template (its source episodes are read by the library). */
type Template = Pick<LearnedTemplate, 'id' | 'origin' | 'name' | 'steps'>;

export type BuildResult = { ok: true; procedure: Procedure } | { ok: false; reason: string };

const isAnswer = (a: Action): boolean => a.type === 'send_msg_to_user' || a.type === 'report_infeasible';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const normalize = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** The task's values bound to the template's variables; {} for a template without variables that is the task itself. */
export function bindTemplate(template: string, task: string): Record<string, string> | null {
  if (variablesIn(template).length === 0) {
    return normalize(template.replace(/[.!]+$/, '')) === normalize(task.replace(/[.!]+$/, '')) ? {} : null;
  }
  return matchNamePattern(template, task);
}

/** Replaces each bound value (longest first, whole words, any case) by its {variable}, inside the action's texts. */
export function abstractWith(semantic: string, values: Readonly<Record<string, string>>): string {
  const parsed = parseAction(semantic);
  if (!parsed.ok) return semantic;
  const pairs = Object.entries(values).filter(([, v]) => v.trim()).sort((a, b) => b[1].length - a[1].length);
  const sub = (text: string): string => {
    let out = text;
    for (const [name, value] of pairs) {
      out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}{])${escapeRegExp(value.trim())}(?![\\p{L}\\p{N}}])`, 'giu'), `{${name}}`);
    }
    return out;
  };
  // A container (the row the element sits in) is abstracted only where its whole name is a bound value, as the
  // skill's abstraction does (abstractActions): row "Alan Turing" for "Alan Turing" becomes row "{item}".
  const byValue = new Map(pairs.map(([name, value]) => [normalize(value), name]));
  const context = (c: TargetContext): TargetContext => {
    const name = byValue.get(normalize(c.name));
    return name !== undefined ? { ...c, name: `{${name}}` } : c;
  };
  const target = (t: Target): Target =>
    t.kind === 'semantic' ? { ...t, name: sub(t.name), ...(t.context ? { context: t.context.map(context) } : {}) } : t;
  // Keys and answers keep their text: a task value inside them is not part of the step.
  return formatAction(mapSlots(parsed.action, { target, value: sub, url: sub }));
}

const canonical = (semantic: string): string => {
  const parsed = parseAction(semantic);
  return parsed.ok ? formatAction(parsed.action) : semantic;
};

/**
 * Finds the skill's steps, in order, among one success's transitions. Null
 * (with a reason) when a step is missing: the skill then does not describe
 * what this success did.
 */
function stepsFromSuccess(skill: Template, success: SourceSuccess): { steps: ProcedureStep[]; endsWithAnswer: boolean } | string {
  const values = bindTemplate(skill.name, success.task);
  if (values === null) return `its source task "${success.task}" does not fit the template`;
  const ran = success.transitions.map((t) => ({ t, abstract: canonical(abstractWith(t.action, values)) }));
  const steps: ProcedureStep[] = [];
  let endsWithAnswer = false;
  let from = 0;
  for (const [k, step] of skill.steps.entries()) {
    const wanted = new Set(step.exampleActions.map(canonical));
    // An answer's text is the episode's result ({answer} in the skill): any answer of the same kind matches.
    const answerKinds = new Set(step.exampleActions.map((a) => /^(send_msg_to_user|report_infeasible)\(/.exec(a)?.[1]).filter((k) => k !== undefined));
    const fits = (abstract: string) => wanted.has(abstract) || [...answerKinds].some((k) => abstract.startsWith(`${k}(`));
    const at = ran.findIndex((r, i) => i >= from && fits(r.abstract) && (step.regUrl === undefined || step.regUrl === r.t.regUrl));
    if (at < 0) return `step ${k + 1} ("${step.text}") is not among the steps that ran in episode ${success.episodeId}`;
    from = at + 1;
    const parsed = parseAction(ran[at]!.abstract);
    if (!parsed.ok) return `step ${k + 1} is not a valid action`;
    if ('target' in parsed.action && parsed.action.target?.kind === 'ref') return `step ${k + 1} targets a ref, not a role and name`;
    if (isAnswer(parsed.action)) {
      if (k !== skill.steps.length - 1) return `step ${k + 1} answers before the end`;
      endsWithAnswer = true;
      break;
    }
    const effect = ran[at]!.t.effect;
    steps.push({ regUrl: ran[at]!.t.regUrl, action: ran[at]!.abstract, ...(effect ? { effect: abstractEffect(effect, values) } : {}) });
  }
  if (steps.length === 0) return 'no step to replay before the answer';
  return { steps, endsWithAnswer };
}

const STATE_CHANGES = kindsWhere('changesElement');

/**
 * A step that changed state on an item the task does not name, where another
 * step made the same change on the item it names: `click(<button "Add Red mug
 * to cart">)` next to `click(<button "Add {item} to cart">)`. Only templates
 * with literal words around the variable count ("{item}" alone says nothing).
 */
export function wrongItemStep(steps: readonly ProcedureStep[]): number | null {
  const parsed = steps.map((s) => parseAction(s.action));
  for (const [j, pj] of parsed.entries()) {
    if (!pj.ok || !STATE_CHANGES.has(pj.action.type) || !('target' in pj.action) || pj.action.target?.kind !== 'semantic') continue;
    const named = pj.action.target;
    const literal = named.name.replace(/\{[^}]*\}/g, '').replace(/[^\p{L}\p{N}]+/gu, '');
    if (variablesIn(named.name).length === 0 || literal === '') continue;
    const pattern = new RegExp(`^${named.name.trim().split(/\{[^}]*\}/).map((p) => escapeRegExp(normalize(p))).join('(.+)')}$`, 'iu');
    for (const [i, pi] of parsed.entries()) {
      if (i === j || !pi.ok || pi.action.type !== pj.action.type || !('target' in pi.action) || pi.action.target?.kind !== 'semantic') continue;
      const other = pi.action.target;
      if (other.role.toLowerCase() !== named.role.toLowerCase() || variablesIn(other.name).length > 0) continue;
      if (pattern.test(normalize(other.name))) return i;
    }
  }
  return null;
}

/** The procedure of one skill, from the newest of its verified successes whose transitions hold every step. */
export function buildProcedure(skill: Template, successes: readonly SourceSuccess[]): BuildResult {
  if (successes.length === 0) return { ok: false, reason: 'no verified success whose steps a learner stored' };
  const reasons: string[] = [];
  const fitting: { success: SourceSuccess; steps: ProcedureStep[]; endsWithAnswer: boolean }[] = [];
  for (const success of successes) {
    const found = stepsFromSuccess(skill, success);
    if (typeof found === 'string') reasons.push(found);
    else fitting.push({ success, ...found });
  }
  const chosen = fitting.at(-1);
  if (!chosen) return { ok: false, reason: reasons.join('; ') };
  const wrong = wrongItemStep(chosen.steps);
  if (wrong !== null) {
    return { ok: false, reason: `step ${wrong + 1} (${chosen.steps[wrong]!.action}) changed state on an item the task does not name` };
  }
  const variables = [...new Set(chosen.steps.flatMap((s) => variablesIn(s.action)))];
  return {
    ok: true,
    procedure: {
      id: skill.id,
      origin: skill.origin,
      template: skill.name,
      variables,
      steps: chosen.steps,
      sources: fitting.map(({ success }) => ({ episodeId: success.episodeId, source: success.source, taught: success.taught, endedAt: success.endedAt })),
      endsWithAnswer: chosen.endsWithAnswer,
    },
  };
}
