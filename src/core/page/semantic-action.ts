/**
 * The semantic form of actions, the form memory keeps: `click([12])` ⇄
 * `click(<button "Sign in">)`. Refs die with the page; role + accessible name
 * survive across sessions ("Action Handling", docs/learning.md, "Papers"), and so do the
 * context that tells look-alikes apart (`in row "Alan Turing"`) and, as a last
 * resort, the ordinal among identical ones. Resolution maps a remembered
 * semantic action back onto the current observation only when exactly one
 * element matches; otherwise it fails with a typed code.
 */
import type { Action, SemanticTarget, Target, TargetContext } from './action.ts';
import { formatAction, formatTarget } from './action-grammar.ts';
import type { PageObservation, SnapshotNode } from './observation.ts';
import { optionNamed } from './option-text.ts';

export type ResolveResult =
  | { ok: true; action: Action; match: 'exact' | 'ref' }
  | { ok: false; code: 'unresolved' | 'element_gone'; message: string; candidates?: number };

export const normalizeName = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

const targetOf = (action: Action): Target | undefined => ('target' in action ? action.target : undefined);

const withTarget = (action: Action, target: Target): Action => ({ ...action, target }) as Action;

/** The snapshot node a ref-targeted action points at, if it is in the observation. */
export function targetNode(action: Action, observation: PageObservation): SnapshotNode | undefined {
  const t = targetOf(action);
  if (!t || t.kind !== 'ref') return undefined;
  return observation.nodes.find((n) => n.ref === t.ref);
}

/**
 * Ref target → `{kind:'semantic', role, name}` taken from the snapshot node
 * (whitespace-collapsed name). Texts (`fill`, messages) stay as they are, so
 * distinct messages stay distinct in memory. An unknown ref is left as is.
 */
export function toSemanticAction(action: Action, observation: PageObservation): Action {
  const node = targetNode(action, observation);
  if (!node) return action;
  return withTarget(action, semanticTargetOf(node));
}

/** The semantic target of a snapshot node: role, name, and the context and ordinal that tell it apart. */
export function semanticTargetOf(node: SnapshotNode): SemanticTarget {
  return {
    kind: 'semantic',
    role: node.role,
    name: node.name.replace(/\s+/g, ' ').trim(),
    ...(node.context ? { context: node.context.map((c) => ({ role: c.role, name: c.name.replace(/\s+/g, ' ').trim() })) } : {}),
    ...(node.nth !== undefined ? { nth: node.nth } : {}),
  };
}

/** The memory key of an action on this page: the canonical text of its semantic form. */
export function semanticKey(action: Action, observation: PageObservation): string {
  return formatAction(toSemanticAction(action, observation));
}

const sameContext = (a: readonly TargetContext[] | undefined, b: readonly TargetContext[] | undefined): boolean =>
  (a?.length ?? 0) === (b?.length ?? 0) &&
  (a ?? []).every((c, i) => c.role.toLowerCase() === b![i]!.role.toLowerCase() && normalizeName(c.name) === normalizeName(b![i]!.name));

/**
 * Whether a node is the element a semantic target describes: the same role
 * and name, and, where the target says them, the same context and ordinal.
 * A target without a context (written by a model, or remembered before
 * contexts existed) names every element of its role and name.
 */
export function nodeMatchesTarget(node: SnapshotNode, target: SemanticTarget): boolean {
  if (node.role.toLowerCase() !== target.role.toLowerCase()) return false;
  if (normalizeName(node.name) !== normalizeName(target.name)) return false;
  if (target.context !== undefined && !sameContext(node.context, target.context)) return false;
  if (target.nth !== undefined && node.nth !== target.nth) return false;
  return true;
}

/** Every element on the page a semantic target describes, in document order. */
export function matchingNodes(target: SemanticTarget, observation: Pick<PageObservation, 'nodes'>): (SnapshotNode & { ref: string })[] {
  return observation.nodes.filter((n): n is SnapshotNode & { ref: string } => n.ref !== null && nodeMatchesTarget(n, target));
}

/**
 * Puts an action onto the current page. A ref target is checked to exist; a
 * semantic target becomes a ref target only when exactly one element matches
 * its role, name, context and ordinal. Several matches are no match: the
 * caller asks, or lets the policy choose, never "the first" or "the nearest".
 * Actions without a target need no resolution (match 'exact').
 */
export function resolveSemanticAction(action: Action, observation: PageObservation, options: { remembered?: boolean } = {}): ResolveResult {
  const t = targetOf(action);
  if (!t) return { ok: true, action, match: 'exact' };
  if (t.kind === 'ref') {
    if (observation.nodes.some((n) => n.ref === t.ref)) return { ok: true, action, match: 'ref' };
    return { ok: false, code: 'element_gone', message: `ref [${t.ref}] is not on the current page` };
  }
  const matches = matchingNodes(t, observation);
  if (matches.length === 1) {
    const only = matches[0]!;
    // A remembered choice is rebound only to an option the list has (by its label): never to a
    // look-alike. A person's or a model's choice may name an option's value; the page layer checks it.
    if (options.remembered === true && action.type === 'select_option' && only.options !== undefined && !only.options.some((o) => normalizeName(o) === normalizeName(action.option))) {
      // The same text as a person reads it ("code defect" for "Code_Defect") is that option, written as the list has it.
      const named = optionNamed(only.options, action.option);
      if (named === null) return { ok: false, code: 'unresolved', message: `${formatTarget(t)} has no option ${JSON.stringify(action.option)}`, candidates: 1 };
      return { ok: true, action: { ...action, option: named, target: { kind: 'ref', ref: only.ref } }, match: 'exact' };
    }
    return { ok: true, action: withTarget(action, { kind: 'ref', ref: only.ref }), match: 'exact' };
  }
  const shown = formatTarget(t);
  if (matches.length === 0) return { ok: false, code: 'unresolved', message: `${shown} is not on the current page`, candidates: 0 };
  return { ok: false, code: 'unresolved', message: `${matches.length} elements match ${shown}: which one is not known`, candidates: matches.length };
}
