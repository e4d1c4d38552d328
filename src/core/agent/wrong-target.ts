/**
 * Commits on the wrong target (issue 34, part 6). "Delete the page
 * 'Golden Gate Bridge'" reached the delete form of whatever page was open and
 * pressed "Delete page" there. Before a step that changes state (it submits a
 * form, its name says it destroys or commits, it posts), when the task names
 * an item, the page must show that item in its title or a heading; when it
 * does not, the step asks, with the reason, in every ask mode: earned autonomy
 * and an approved plan included.
 *
 * The item is what the task quotes, less what the task only types or chooses
 * (a value in a field, a ticked option) and what is too long to be a name (a
 * sentence to write): those are values, not the item the step acts on. No site's words: only the task's quotes and the page's title
 * and headings. Outside its quotes, a task names an item without guessing
 * only by a number sign ("close #3"): that reference must be shown as written
 * (a page of issue 30, or one saying only "Issue 3", does not show "#3"). An
 * unquoted title ("Delete the page Golden Gate Bridge") is not read: where
 * the name ends would be a guess.
 */
import type { Action } from '../page/action.ts';
import { mainKeyOf } from '../page/key-names.ts';
import { nodeActedOn } from '../page/node-acted-on.ts';
import type { PageObservation, SnapshotNode } from '../page/observation.ts';
import { destructiveWordIn } from './sensitive-actions.ts';

const QUOTED = /"([^"]+)"|“([^”]+)”|«([^»]+)»|(?<![\p{L}\p{N}])'([^']+)'(?![\p{L}\p{N}])|‘([^’]+)’/gu;

/** Past this many words a quoted text is something to write (a sentence, a page's text), not an item's name. */
export const MAX_ITEM_WORDS = 6;

/** The texts a task quotes, in order, without repeats (any case). */
export function quotedInTask(task: string): string[] {
  const out: string[] = [];
  for (const m of task.matchAll(QUOTED)) {
    const v = (m.slice(1).find((g) => g !== undefined) ?? '').trim();
    if (v !== '' && !out.some((o) => o.toLowerCase() === v.toLowerCase())) out.push(v);
  }
  return out;
}

/** The task's "#3" references outside its quotes, in order, without repeats: items by number. */
export function numberedInTask(task: string): string[] {
  const unquoted = task.replace(QUOTED, ' ');
  return [...new Set(Array.from(unquoted.matchAll(/(?<![\p{L}\p{N}&#])#(\d+)(?![\p{L}\p{N}])/gu), (m) => `#${m[1]}`))];
}

/** Spaces and underscores alike, any case: a title "Golden_Gate_Bridge" shows "Golden Gate Bridge". */
const norm = (s: string): string => s.replace(/[\s_]+/g, ' ').trim().toLowerCase();
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shows = (text: string, item: string): boolean =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escape(norm(item))}(?![\\p{L}\\p{N}])`, 'u').test(norm(text));

/**
 * A form sent by GET asks for a page (a search, a filter): it changes nothing by itself, so it is not a
 * commit (its name may still say it is one). "Search customers" before the edit page of a task that
 * quotes the new email address asked at every attempt, whatever the person had approved.
 */
const sendsByGet = (node: SnapshotNode | null | undefined): boolean => node?.formMethod?.toLowerCase() === 'get';

/** Why the step changes state, or null: it submits (but by GET), posts, or its name says it destroys or commits. */
export function commitsState(action: Action, observation: PageObservation): string | null {
  const node = nodeActedOn(action, observation);
  switch (action.type) {
    case 'press':
      return mainKeyOf(action.keys) === 'Enter' && node?.inForm === true && !sendsByGet(node) ? 'Enter submits its form' : null;
    case 'check': case 'uncheck': case 'select_option':
      return node?.submits === true && !sendsByGet(node) ? 'changing it submits its form' : null;
    case 'click': case 'dblclick': {
      if (!node) return null;
      if (node.formMethod?.toLowerCase() === 'post' && (node.submits === true || node.role === 'button')) return `"${node.name}" posts a form`;
      if ((node.submits === true || node.inputType === 'submit' || node.inputType === 'image') && !sendsByGet(node)) return `"${node.name}" submits a form`;
      const word = destructiveWordIn(node.name) ?? destructiveWordIn(node.shownText ?? '');
      return word !== null ? `"${node.name}" says "${word}"` : null;
    }
    default:
      return null;
  }
}

/** A quoted value the page holds as a value (typed in a field, a chosen option) or the task typed in this episode. */
function isValue(item: string, nodes: readonly SnapshotNode[], typed: readonly string[]): boolean {
  if (typed.some((t) => shows(t, item))) return true;
  return nodes.some((n) => (n.value !== undefined && n.value !== '' && shows(n.value, item))
    || ((n.states.checked === true || n.states.selected === true) && shows(n.name, item)));
}

/**
 * The reason a state-changing step must ask because the page does not show
 * the item the task names; null when the step changes nothing, the task names
 * no item, or the title or a heading shows one of the items it names.
 * `typed`: the texts this episode's steps typed (values, not items).
 */
export function wrongTargetReason(task: string, action: Action, observation: PageObservation, typed: readonly string[] = []): string | null {
  const commits = commitsState(action, observation);
  if (commits === null) return null;
  // A "#3" is a reference even where it is also typed (into a quick search that leads to it).
  const items = [
    ...quotedInTask(task).filter((item) => item.split(/\s+/).length <= MAX_ITEM_WORDS && !isValue(item, observation.nodes, typed)),
    ...numberedInTask(task),
  ];
  if (items.length === 0) return null;
  const headings = observation.nodes.filter((n) => n.kind === 'heading' && n.name.trim() !== '').map((n) => n.name.replace(/\s+/g, ' ').trim());
  const shown = [observation.title, ...headings];
  if (items.some((item) => shown.some((text) => shows(text, item)))) return null;
  const named = items.map((i) => `"${i}"`).join(' or ');
  const where = [`title "${observation.title}"`, ...(headings.length > 0 ? [`headings ${headings.slice(0, 3).map((h) => `"${h}"`).join(', ')}`] : [])].join('; ');
  return `the task names ${named}, and this page does not show it (${where}): ${commits}, and may act on the wrong item`;
}
