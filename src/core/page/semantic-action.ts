/**
 * The semantic form of actions, the form memory keeps: `click([12])` ⇄
 * `click(<button "Sign in">)`. Refs die with the page; role + accessible name
 * survive across sessions (JitRL App. F, "Action Handling"). Resolution maps a
 * remembered semantic action back onto the current observation — exact role and
 * name first, then the nearest plausible element — or fails with a typed code.
 */
import type { Action, Target } from './action.ts';
import { formatAction } from './action-grammar.ts';
import type { PageObservation, SnapshotNode } from './observation.ts';

export type ResolveResult =
  | { ok: true; action: Action; match: 'exact' | 'nearest' | 'ref' }
  | { ok: false; code: 'unresolved' | 'element_gone'; message: string };

/**
 * Nearest-match threshold on token Jaccard similarity of accessible names
 * (|A∩B| / |A∪B| over lower-cased word tokens). 0.5 accepts "Sign in" ↔
 * "Sign in now" (2/3) and rejects "Sign in" ↔ "Sign up" (1/3).
 */
export const NAME_JACCARD_THRESHOLD = 0.5;

/**
 * Roles that play the same part across sites: a search field may be a textbox
 * or a searchbox or a combobox; a "button" may be a styled link. A role is
 * compatible with another when they share a group.
 */
const ROLE_GROUPS: readonly (readonly string[])[] = [
  ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  ['combobox', 'listbox'],
  ['button', 'link', 'menuitem', 'clickable'],
  ['checkbox', 'switch', 'menuitemcheckbox'],
  ['radio', 'menuitemradio'],
  ['option', 'menuitem', 'treeitem', 'gridcell', 'clickable'],
  ['tab', 'button'],
];

export function rolesCompatible(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x === y || ROLE_GROUPS.some((g) => g.includes(x) && g.includes(y));
}

export const normalizeName = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

const tokens = (s: string): Set<string> => new Set(normalizeName(s).split(/[^\p{L}\p{N}]+/u).filter(Boolean));

export function nameJaccard(a: string, b: string): number {
  const A = tokens(a);
  const B = tokens(b);
  if (A.size === 0 || B.size === 0) return 0;
  let inter = 0;
  for (const t of A) if (B.has(t)) inter++;
  return inter / (A.size + B.size - inter);
}

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
  return withTarget(action, { kind: 'semantic', role: node.role, name: node.name.replace(/\s+/g, ' ').trim() });
}

/** The memory key of an action on this page: the canonical text of its semantic form. */
export function semanticKey(action: Action, observation: PageObservation): string {
  return formatAction(toSemanticAction(action, observation));
}

interface Candidate {
  node: SnapshotNode & { ref: string };
  index: number;
  score: number;
}

/** Lower is better: in-viewport first, then document order. */
const tieBreak = (a: Candidate, b: Candidate) =>
  Number(b.node.inViewport) - Number(a.node.inViewport) || a.index - b.index;

/**
 * Similarity of a candidate to the wanted element, or null when it is not a
 * plausible stand-in. Same role scores above a compatible role; name
 * containment (either way, both non-empty) scores by how much of the longer
 * name is covered; otherwise token Jaccard must reach NAME_JACCARD_THRESHOLD.
 */
function nearScore(wantRole: string, wantName: string, node: SnapshotNode): number | null {
  if (!rolesCompatible(wantRole, node.role)) return null;
  const a = normalizeName(wantName);
  const b = normalizeName(node.name);
  let nameScore: number;
  if (a === b) nameScore = 1;
  else if (a && b && (a.includes(b) || b.includes(a))) nameScore = 0.5 + (0.5 * Math.min(a.length, b.length)) / Math.max(a.length, b.length);
  else {
    const j = nameJaccard(a, b);
    if (j < NAME_JACCARD_THRESHOLD) return null;
    nameScore = j;
  }
  const roleBonus = wantRole.toLowerCase() === node.role.toLowerCase() ? 0.25 : 0;
  return nameScore + roleBonus;
}

/**
 * Puts an action onto the current page. Ref targets are checked to exist;
 * semantic targets become ref targets by exact role+name (case and space
 * normalized), else by the best nearest match, ties broken deterministically.
 * Actions without a target need no resolution (match 'exact').
 */
export function resolveSemanticAction(action: Action, observation: PageObservation): ResolveResult {
  const t = targetOf(action);
  if (!t) return { ok: true, action, match: 'exact' };
  if (t.kind === 'ref') {
    if (observation.nodes.some((n) => n.ref === t.ref)) return { ok: true, action, match: 'ref' };
    return { ok: false, code: 'element_gone', message: `ref [${t.ref}] is not on the current page` };
  }
  const candidates = observation.nodes
    .map((node, index) => ({ node, index }))
    .filter((c): c is { node: SnapshotNode & { ref: string }; index: number } => c.node.ref !== null);

  const role = t.role.toLowerCase();
  const name = normalizeName(t.name);
  const exact: Candidate[] = candidates
    .filter((c) => c.node.role.toLowerCase() === role && normalizeName(c.node.name) === name)
    .map((c) => ({ ...c, score: 1 }));
  if (exact.length > 0) {
    const best = exact.sort(tieBreak)[0]!;
    return { ok: true, action: withTarget(action, { kind: 'ref', ref: best.node.ref }), match: 'exact' };
  }

  const near: Candidate[] = [];
  for (const c of candidates) {
    const score = nearScore(t.role, t.name, c.node);
    if (score !== null) near.push({ ...c, score });
  }
  if (near.length > 0) {
    const best = near.sort((a, b) => b.score - a.score || tieBreak(a, b))[0]!;
    return { ok: true, action: withTarget(action, { kind: 'ref', ref: best.node.ref }), match: 'nearest' };
  }
  return {
    ok: false,
    code: 'unresolved',
    message: `no element like <${t.role} ${JSON.stringify(t.name)}> on the current page`,
  };
}
