/**
 * What is open on a page (issue 35 part 4, "order within one page"): the
 * dialogs it shows and the controls it shows expanded (a disclosure button,
 * a `<details>` summary, a menu button, a tree item). A click that opens a
 * section or a dialog leaves no value behind, so the actions alone cannot
 * tell "before Save note" (dialog open) from "after it" (dialog closed) on
 * one URL; what the page shows open can.
 *
 * A mark is one line, `open <dialog "Gift note">` or
 * `expanded <button "Change address" in group "Delivery address">`: the
 * target written as the action grammar writes it, after a word the grammar
 * never starts an action with. The effective state lists the marks the
 * episode's own steps opened (`effective-state.ts`), so memory (state
 * tokens, state keys) and the memory tab see them.
 */
import { formatTarget } from './action-grammar.ts';
import type { PageObservation, SnapshotNode } from './observation.ts';
import { semanticTargetOf } from './semantic-action.ts';

const DIALOG_ROLES: ReadonlySet<string> = new Set(['dialog', 'alertdialog']);
/** A combobox's list opens while one types and closes on its own: its value, not its list, is what stays. */
const TRANSIENT_EXPANDERS: ReadonlySet<string> = new Set(['combobox', 'searchbox', 'textbox']);
/** Enough for any page a person works through; a page that shows more open is capped, in page order. */
export const MAX_PAGE_MARKS = 20;

const OPEN = 'open ';
const EXPANDED = 'expanded ';

function markOf(node: SnapshotNode): string | null {
  const role = node.role.toLowerCase();
  if (node.kind === 'landmark' && DIALOG_ROLES.has(role)) return `${OPEN}${formatTarget(semanticTargetOf(node))}`;
  if (node.kind === 'interactive' && node.states.expanded === true && !TRANSIENT_EXPANDERS.has(role)) {
    return `${EXPANDED}${formatTarget(semanticTargetOf(node))}`;
  }
  return null;
}

/** The page's marks, in page order, each once. */
export function pageMarks(observation: Pick<PageObservation, 'nodes'>): string[] {
  const out = new Set<string>();
  for (const node of observation.nodes) {
    const mark = markOf(node);
    if (mark !== null) out.add(mark);
    if (out.size >= MAX_PAGE_MARKS) break;
  }
  return [...out];
}

/**
 * The page's progress since the episode arrived on it: what it shows open now
 * that it did not show on arrival. A dialog or an expanded menu the site
 * opens on every load is the page, not a step of the task. Null baseline
 * (a step recorded before marks were kept): nothing, as before.
 */
export function openedSince(arrival: readonly string[] | null, now: readonly string[]): string[] {
  if (arrival === null) return [];
  const before = new Set(arrival);
  return now.filter((m) => !before.has(m));
}
