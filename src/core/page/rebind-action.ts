/**
 * A remembered action rewritten in another instance's values (issue 35 part
 * 3): a name, a container's name or an option is rebound only where it *is*
 * the value — its whole text (case, underscores and hyphens aside), or a
 * quoted phrase inside it that is the whole value (`Edit “Weekend plans”`,
 * as row actions name their item). Never a word inside a longer name: the
 * taught "Electric kettle" for "kettle" is not "Electric teapot" for "teapot",
 * which may be another product or none; that step stays the other instance's,
 * and the task-binding rule keeps it out. Typed text is the person's words,
 * not a name: a value in it is rewritten wherever it stands as whole words.
 */
import type { Action, SemanticTarget, Target } from './action.ts';
import { formatAction, parseAction } from './action-grammar.ts';
import { sameOptionText } from './option-text.ts';
import { rebindValues } from './task-instances.ts';

/** Opening and closing quote pairs a page uses around an item's name inside a label. */
const QUOTED = /“([^”]+)”|"([^"]+)"|‘([^’]+)’/gu;

/** The target value a source value maps to, matched as option text; undefined when the text is no value. */
function valueFor(text: string, values: ReadonlyMap<string, string>): string | undefined {
  for (const [source, target] of values) if (sameOptionText(text, source)) return target;
  return undefined;
}

/** A name rebound where it is a value, whole or as a whole quoted phrase; otherwise as it is. */
export function rebindName(name: string, values: ReadonlyMap<string, string>): string {
  const whole = valueFor(name, values);
  if (whole !== undefined) return whole;
  return name.replace(QUOTED, (match, a?: string, b?: string, c?: string) => {
    const inner = a ?? b ?? c ?? '';
    const to = valueFor(inner, values);
    return to === undefined ? match : match.replace(inner, to);
  });
}

function rebindTarget(target: Target, values: ReadonlyMap<string, string>): Target {
  if (target.kind !== 'semantic') return target;
  const out: SemanticTarget = { ...target, name: rebindName(target.name, values) };
  if (target.context) out.context = target.context.map((c) => ({ role: c.role, name: rebindName(c.name, values) }));
  return out;
}

function rebound(action: Action, values: ReadonlyMap<string, string>): Action {
  switch (action.type) {
    case 'fill':
      return { ...action, target: rebindTarget(action.target, values), text: rebindValues(action.text, values) };
    case 'select_option':
      return { ...action, target: rebindTarget(action.target, values), option: valueFor(action.option, values) ?? action.option };
    case 'send_msg_to_user':
      return { ...action, text: rebindValues(action.text, values) };
    case 'report_infeasible':
      return { ...action, reason: rebindValues(action.reason, values) };
    default:
      return 'target' in action && action.target !== undefined ? { ...action, target: rebindTarget(action.target, values) } : action;
  }
}

/** The action, in semantic form, in the other instance's values; text that does not parse, by whole words. */
export function rebindAction(semantic: string, values: ReadonlyMap<string, string>): string {
  if (values.size === 0) return semantic;
  const parsed = parseAction(semantic);
  if (!parsed.ok) return rebindValues(semantic, values);
  return formatAction(rebound(parsed.action, values));
}
