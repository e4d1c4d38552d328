/**
 * Skills are stored in an abstract form ("navigate to forum {forum
 * name}", not "navigate to forum books") and instantiated for the next task.
 * This module finds the values of a task inside an action sequence, replaces
 * them with {variables}, and later binds those variables to a new task's
 * values.
 */
import type { Action, Target, TargetContext } from '../../page/action.ts';
import { formatAction, parseAction } from '../../page/action-grammar.ts';
import { mapSlots, unhandledKind } from '../../page/action-vocabulary.ts';
import { optionText } from '../../page/option-text.ts';
import { tokenize } from '../../page/tokenize.ts';
import { secretFieldOf } from '../../secrets/secret-fields.ts';

/** `{name}` placeholders, in order of first appearance, without braces. */
export function variablesIn(text: string): string[] {
  const seen = new Set<string>();
  for (const m of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_ -]*)\}/g)) seen.add(m[1]!.trim());
  return [...seen];
}

const QUOTED = /"([^"]+)"|'([^']+)'|“([^”]+)”|‘([^’]+)’|«([^»]+)»/g;
const NUMBER = /(?<![\p{L}\p{N}])\d+(?:[.,]\d+)?(?![\p{L}\p{N}])/gu;

/** Values a task names explicitly: quoted strings, then numbers, in order, deduplicated. */
export function explicitValues(task: string): string[] {
  const out: string[] = [];
  const add = (v: string) => {
    const t = v.trim();
    if (t && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  };
  for (const m of task.matchAll(QUOTED)) add(m.slice(1).find((g) => g !== undefined) ?? '');
  const unquoted = task.replace(QUOTED, ' ');
  for (const m of unquoted.matchAll(NUMBER)) add(m[0]);
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Case-insensitive whole-word occurrence of `value` in `text` (values may hold spaces). */
export function containsValue(text: string, value: string): boolean {
  const v = value.trim();
  if (!v) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(v)}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/** A variable name from a field label: "Display name" → display_name. */
export function variableNameFor(label: string, fallback: string): string {
  const words = label.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const name = words.slice(0, 3).join('_');
  return name || fallback;
}

const targetLabel = (t: Target): string => (t.kind === 'semantic' ? t.name || t.role : '');

function replaceValue(text: string, value: string, replacement: string): string {
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(value.trim())}(?![\\p{L}\\p{N}])`, 'giu'), replacement);
}

export interface Abstraction {
  /** The task with its bound values replaced by {variables}. */
  name: string;
  variables: string[];
  /** Each input action with values replaced, in the same order. */
  actions: Action[];
  /** value (lowercased) → variable name. */
  bindings: Map<string, string>;
}

/**
 * Replaces the values a task names inside the actions by {variables}:
 *  - typed text and chosen options that occur in the task (quoted, a number, or
 *    the same words) become a variable named after their field;
 *  - a clicked element whose name contains an already bound value, or a value
 *    the task quotes or numbers, is replaced by that variable as a whole (a link
 *    "Red mug — ceramic" after searching for "red mug" is "the result for {search}").
 * Other labels stay literal: they are the site's fixed UI ("Add to cart").
 */
export function abstractActions(task: string, actions: readonly Action[]): Abstraction {
  const bindings = new Map<string, string>();
  const used = new Set<string>();
  const explicit = explicitValues(task);
  const bind = (value: string, preferred: string): string => {
    const key = value.trim().toLowerCase();
    const known = bindings.get(key);
    if (known) return known;
    let name = preferred;
    for (let i = 2; used.has(name); i++) name = `${preferred}_${i}`;
    used.add(name);
    bindings.set(key, name);
    return name;
  };
  const slot = (value: string, target: Target | undefined, fallback: string): string => {
    const v = value.trim();
    if (v.length < 1 || !containsValue(task, v) || /^\{.*\}$/.test(v)) return value;
    return `{${bind(v, variableNameFor(target ? targetLabel(target) : '', fallback))}}`;
  };
  // "Code_Defect" for a task that says "code defect" is the same text as a person reads it (page/option-text.ts).
  const optionSlot = (option: string, target: Target): string => {
    const out = slot(option, target, 'option');
    const read = optionText(option);
    if (out !== option || read === option.trim().toLowerCase() || !containsValue(task, read)) return out;
    return slot(read, target, 'option');
  };
  // An edit of a field's text (text-change.ts) keeps its own words: the task's values inside what it adds become variables.
  const changeSlots = (text: string, target: Target): string => {
    let out = text;
    for (const value of explicit) {
      if (containsValue(out, value)) out = replaceValue(out, value, `{${bind(value, variableNameFor(targetLabel(target), 'text'))}}`);
    }
    return out;
  };
  // The value is replaced where it stands, so "Add Red teapot to cart" becomes "Add {item} to cart".
  const abstractName = (name: string): string => {
    if (!name) return name;
    for (const [value, variable] of bindings) if (containsValue(name, value)) return replaceValue(name, value, `{${variable}}`);
    for (const value of explicit) if (containsValue(name, value)) return replaceValue(name, value, `{${bind(value, 'item')}}`);
    return name;
  };
  // A container is rebound only where its whole name is the task's value (row "Alan Turing" for "Alan Turing"):
  // a row named by other words is another row, never a template.
  const abstractContext = (c: TargetContext): TargetContext => {
    const whole = c.name.trim().toLowerCase();
    // The task may name the item without quotes ("Put the teapot in my cart"): its whole name, in the task, is the value.
    const named = explicit.some((v) => v.toLowerCase() === whole) || containsValue(task, c.name);
    const variable = bindings.get(whole) ?? (named ? bind(c.name, 'item') : undefined);
    return variable !== undefined ? { ...c, name: `{${variable}}` } : c;
  };
  const abstractTarget = (target: Target): Target => {
    if (target.kind !== 'semantic') return target;
    const context = target.context?.map(abstractContext);
    return { ...target, name: abstractName(target.name), ...(context ? { context } : {}) };
  };

  const out: Action[] = [];
  for (const a of actions) {
    switch (a.type) {
      case 'fill': {
        // A secret typed during the episode must never be kept in the buffer.
        // A secret the task itself names is bound like any value (so the name hides it too).
        const text = secretFieldOf(a) !== null && !containsValue(task, a.text)
          ? `{${bind(`\u0000secret:${a.text}`, variableNameFor(targetLabel(a.target), 'secret'))}}`
          : a.change ? changeSlots(a.text, a.target) : slot(a.text, a.target, 'text');
        out.push({ ...a, text, target: abstractTarget(a.target) });
        break;
      }
      case 'select_option': {
        const option = optionSlot(a.option, a.target);
        out.push({ ...a, option, target: abstractTarget(a.target) });
        break;
      }
      case 'click': case 'dblclick': case 'hover': case 'focus': case 'clear': case 'check': case 'uncheck':
        out.push({ ...a, target: abstractTarget(a.target) });
        break;
      case 'press':
        out.push(a.target ? { ...a, target: abstractTarget(a.target) } : a);
        break;
      case 'scroll':
        out.push(a.target ? { ...a, target: abstractTarget(a.target) } : a);
        break;
      case 'send_msg_to_user':
        // The answer is the episode's result, not part of the recipe.
        out.push({ ...a, text: '{answer}' });
        break;
      case 'goto': case 'go_back': case 'go_forward': case 'report_infeasible':
        out.push(a);
        break;
      default:
        unhandledKind(a);
    }
  }

  let name = task.trim().replace(/[.!]+$/, '');
  // Longer values first, so "red mug" is replaced before "mug".
  for (const [value, variable] of [...bindings].sort((x, y) => y[0].length - x[0].length)) {
    const quoted = `["'“‘«]?${escapeRegExp(value)}["'”’»]?`;
    name = name.replace(new RegExp(`(?<![\\p{L}\\p{N}])${quoted}(?![\\p{L}\\p{N}])`, 'giu'), `{${variable}}`);
  }
  const variables = [...variablesIn(name)];
  for (const v of bindings.values()) if (!variables.includes(v)) variables.push(v);
  if (out.some((a) => a.type === 'send_msg_to_user')) variables.push('answer');
  return { name, variables, actions: out, bindings };
}

/**
 * Binds a skill's variables to a new task. First the skill's abstract name is
 * read as a pattern ("Search for {search} and add it to the cart" against
 * "Search for 'desk lamp' and add it to the cart"). Failing that, each
 * variable of the name takes an explicit value of the task (quoted or a
 * number) that stands next to the same word: "{product} and add" binds the
 * value followed by "… and add" in "Find the 'Blue kettle' and add it to the
 * cart". A variable with no such value stays unbound.
 */
export function bindVariables(skillName: string, variables: readonly string[], task: string): Record<string, string> {
  const wanted = new Set(variables.filter((v) => v !== 'answer'));
  if (wanted.size === 0) return {};
  const matched = matchNamePattern(skillName, task);
  if (matched) return matched;

  const out: Record<string, string> = {};
  const values = explicitValues(task);
  const taken = new Set<string>();
  const literal = (text: string) => contentWords(text.replace(/\{[^}]*\}/g, ' '));
  for (const occ of skillName.matchAll(/\{([^}]*)\}/g)) {
    const v = occ[1]!.trim();
    if (!wanted.has(v) || out[v] !== undefined) continue;
    const before = literal(skillName.slice(0, occ.index)).at(-1);
    const after = literal(skillName.slice(occ.index + occ[0].length))[0];
    for (const value of values) {
      if (taken.has(value)) continue;
      const at = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(value)}(?![\\p{L}\\p{N}])`, 'iu').exec(task);
      if (!at) continue;
      const tBefore = contentWords(task.slice(0, at.index)).at(-1);
      const tAfter = contentWords(task.slice(at.index + at[0].length))[0];
      if ((before !== undefined && before === tBefore) || (after !== undefined && after === tAfter)) {
        out[v] = value;
        taken.add(value);
        break;
      }
    }
  }
  return out;
}

/** Lowercase words in order, with repeats, stop words dropped (as the retrieval tokenizer drops them). */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => tokenize(w).length > 0);
}

/**
 * Reads a task as an instance of a skill's abstract name: the literal words
 * must match in order (any case, any spacing) and each {variable} takes the
 * text between them, without surrounding quotes. Null when the task does not
 * fit the pattern or the name has no variables.
 */
export function matchNamePattern(skillName: string, task: string): Record<string, string> | null {
  const inName = variablesIn(skillName);
  if (inName.length === 0) return null;
  const parts = skillName.trim().replace(/[.!]+$/, '').split(/\{[^}]*\}/);
  // A literal part is matched as whole words: "an" in "Make {item} an {role}" is not the "an" inside "Alan".
  const literal = (part: string): string => {
    const words = part.trim().split(/\s+/).filter(Boolean).map(escapeRegExp).join('\\s+');
    if (words === '') return '';
    const before = /^[\p{L}\p{N}]/u.test(part.trim()) ? '(?<![\\p{L}\\p{N}])' : '';
    const after = /[\p{L}\p{N}]$/u.test(part.trim()) ? '(?![\\p{L}\\p{N}])' : '';
    return `${before}${words}${after}`;
  };
  const pattern = parts.map(literal).join(`\\s*["'“‘«]?(.+?)["'”’»]?\\s*`);
  const m = new RegExp(`^\\s*${pattern}\\s*$`, 'iu').exec(task.trim().replace(/[.!]+$/, ''));
  if (!m) return null;
  const out: Record<string, string> = {};
  // One capture group per occurrence, so a variable named twice is read at its first place.
  const occurrences = [...skillName.matchAll(/\{([^}]*)\}/g)].map((o) => o[1]!.trim());
  for (const [i, v] of occurrences.entries()) {
    const value = m[i + 1]?.trim();
    if (!value) return null;
    if (out[v] === undefined) out[v] = value;
  }
  return out;
}

/** Replaces {variables} that have a value; leaves the others as they are. */
export function substitute(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_ -]*)\}/g, (whole, v: string) => values[v.trim()] ?? whole);
}

/**
 * Instantiates one example action. Values are substituted inside the parsed
 * action and re-formatted, so a value holding quotes stays well-formed.
 * Returns null when a variable stays unbound.
 */
export function instantiateAction(semantic: string, values: Readonly<Record<string, string>>): string | null {
  const parsed = parseAction(semantic);
  if (!parsed.ok) {
    const text = substitute(semantic, values);
    return variablesIn(text).length === 0 ? text : null;
  }
  const sub = (s: string) => substitute(s, values);
  const target = (t: Target): Target =>
    t.kind === 'semantic' ? { ...t, name: sub(t.name), ...(t.context ? { context: t.context.map((c) => ({ ...c, name: sub(c.name) })) } : {}) } : t;
  const out = mapSlots(parsed.action, { target, value: sub, keys: sub, url: sub, answer: sub });
  const text = formatAction(out);
  return variablesIn(text).length === 0 ? text : null;
}
