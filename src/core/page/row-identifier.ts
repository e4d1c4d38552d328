/**
 * Which item a carried step means. A ticket report's row is opened by its id
 * link (`<link "0ba033313b">`): the link's own name is the row's name, so the
 * step names the taught ticket and nothing in it is the task's value. Carried
 * to another instance of the task ("…the ticket "Toolbar icons are blurry"…"
 * after one taught on "Crash when saving an empty note"), that step would open
 * the taught ticket again: the wrong item.
 *
 * The snapshot keeps the whole row's text on such elements (`rowText`). A step
 * whose element sits in a row showing the other instance's value is moved to
 * the one element of the same role whose row shows this instance's value, and
 * not the other's; with no such element, or more than one, it is the other
 * instance's and counts for nothing here. Never the first or the nearest.
 */
import { formatAction, parseAction } from './action-grammar.ts';
import type { PageObservation, SnapshotNode } from './observation.ts';
import { matchingNodes, semanticTargetOf } from './semantic-action.ts';

export type RowRebinding =
  /** The step does not act on a row named by another instance's value: as it is. */
  | { kind: 'same' }
  /** The same element of this instance's row. */
  | { kind: 'moved'; semantic: string }
  /** It acts on the other instance's row, and this instance's is not one element here. */
  | { kind: 'other-instance'; reason: string };

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A value as whole words, in any case; null for an empty value (it shows nowhere). */
export function wholeWords(value: string): RegExp | null {
  const v = value.trim();
  return v === '' ? null : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(v)}(?![\\p{L}\\p{N}])`, 'iu');
}

/** Whether a text shows a value as whole words, in any case. */
export function showsValue(text: string, value: string): boolean {
  return wholeWords(value)?.test(text) ?? false;
}

/** A remembered step in semantic form and the one element it names here, if exactly one. */
function uniqueTarget(semantic: string, observation: Pick<PageObservation, 'nodes'>) {
  const parsed = parseAction(semantic);
  if (!parsed.ok || !('target' in parsed.action) || parsed.action.target?.kind !== 'semantic') return null;
  const matches = matchingNodes(parsed.action.target, observation);
  return matches.length === 1 ? { action: parsed.action, target: parsed.action.target, node: matches[0]! } : null;
}

/** The row text of the one element a remembered step names here, when it names its row (`rowText`). */
export function rowTextOf(semantic: string, observation: Pick<PageObservation, 'nodes'>): string | undefined {
  return uniqueTarget(semantic, observation)?.node.rowText;
}

/**
 * Moves a remembered step from another instance's row to this instance's.
 * `values`: the other instance's value (lower case) → this instance's, as
 * `memory/task-instances.ts` aligns them.
 */
export function rebindRowIdentifier(semantic: string, observation: Pick<PageObservation, 'nodes'>, values: ReadonlyMap<string, string>): RowRebinding {
  const found = uniqueTarget(semantic, observation);
  if (found === null || found.node.rowText === undefined) return { kind: 'same' };
  const { action, target } = found;
  const rowText = found.node.rowText;
  // Values the step itself names were rebound already (a row context, a link's name): not a row picked by the task.
  const picked = [...values].filter(([from]) => showsValue(rowText, from) && !showsValue(semantic, from));
  if (picked.length === 0) return { kind: 'same' };
  const sameRole = (n: SnapshotNode): n is SnapshotNode & { ref: string } =>
    n.ref !== null && n.rowText !== undefined && n.role.toLowerCase() === target.role.toLowerCase();
  const instanceRows = observation.nodes.filter((n) => sameRole(n)
    && picked.every(([from, to]) => showsValue(n.rowText!, to) && !showsValue(n.rowText!, from)));
  const moved = samePlaceInRow(found.node, observation.nodes.filter(sameRole), instanceRows);
  if (moved === null) {
    const said = picked.map(([, to]) => `"${to}"`).join(' and ');
    return { kind: 'other-instance', reason: `it opens another item's row; ${instanceRows.length === 0 ? 'no' : instanceRows.length} ${target.role} in a row showing ${said}` };
  }
  return { kind: 'moved', semantic: formatAction({ ...action, target: semanticTargetOf(moved) }) };
}

/**
 * The element of the new row in the taught element's place. A row may name
 * itself on several elements of one role (a user's login link, their e-mail
 * link, "View posts by …"): the taught one is the k-th of its row, so the
 * new row's k-th is its counterpart, when the new row is one row (one text)
 * with as many of them. Anything else is not one element: null.
 */
function samePlaceInRow<T extends SnapshotNode>(taught: SnapshotNode, all: readonly T[], inNewRow: readonly T[]): T | null {
  if (inNewRow.length === 0 || inNewRow.some((n) => n.rowText !== inNewRow[0]!.rowText)) return null;
  const taughtRow = all.filter((n) => n.rowText === taught.rowText);
  const k = taughtRow.indexOf(taught as T);
  return k >= 0 && taughtRow.length === inNewRow.length ? inNewRow[k]! : null;
}
