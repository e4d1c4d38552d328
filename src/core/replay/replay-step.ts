/**
 * A replayed step's precondition, checked on the page as it is now, before
 * the step is proposed: the page type it was learned on, and a target that
 * resolves to exactly one element of the same role, name and context (no
 * nearest match: a replay never runs on a guess), outside of any dialog the
 * procedure did not expect. The first mismatch ends the replay.
 */
import { formatTarget, parseAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation, SnapshotNode } from '../page/observation.ts';
import { regularizeUrl } from '../page/regularize-url.ts';
import { matchingNodes } from '../page/semantic-action.ts';
import { showsValue, wholeWords } from '../page/row-identifier.ts';

export type Precondition = { ok: true; action: Action } | { ok: false; reason: string };

const DIALOG_ROLES = new Set(['dialog', 'alertdialog']);

/** Indexes of nodes inside an open dialog (the nodes after it, deeper than it). */
function insideDialogs(nodes: readonly SnapshotNode[]): { inside: Set<number>; dialogs: SnapshotNode[] } {
  const inside = new Set<number>();
  const dialogs: SnapshotNode[] = [];
  nodes.forEach((node, i) => {
    if (!DIALOG_ROLES.has(node.role.toLowerCase())) return;
    dialogs.push(node);
    for (let j = i + 1; j < nodes.length && nodes[j]!.depth > node.depth; j++) inside.add(j);
  });
  return { inside, dialogs };
}

const VARIABLE = /\{([A-Za-z_][A-Za-z0-9_ -]*)\}/g;

/**
 * The task values a step's page must show: the values of every variable an
 * earlier step found its element by (a link "{item}" clicked, a row "{item}"
 * acted in). The item the plan went to must still be the item on the page: a
 * product page showing a substitute under the same "Add to cart" is not it.
 * Only for steps that act on a control without a value of their own.
 */
export function valuesThePageMustShow(abstractSteps: readonly { action: string }[], values: Readonly<Record<string, string>>, step: number): string[] {
  const current = parseAction(abstractSteps[step]?.action ?? '');
  if (!current.ok || !['click', 'dblclick', 'press', 'check', 'uncheck'].includes(current.action.type)) return [];
  const names = new Set<string>();
  for (const earlier of abstractSteps.slice(0, step)) {
    const parsed = parseAction(earlier.action);
    const target = parsed.ok && 'target' in parsed.action ? parsed.action.target : undefined;
    if (!target || target.kind !== 'semantic') continue;
    for (const text of [target.name, ...(target.context ?? []).map((c) => c.name)]) for (const m of text.matchAll(VARIABLE)) names.add(m[1]!.trim());
  }
  return [...names].map((n) => values[n]).filter((v): v is string => v !== undefined && v.trim() !== '');
}

/**
 * Whether the page shows a value as its item, as whole words: in its title, in a heading of its top level
 * (the lowest level on the page), or in the row, card or dialog of the element the step acts on. Not anywhere:
 * a product page lists related products (cards with their own headings and links), and the item the plan
 * opened among them is not the item on the page (the changed-shop check: "Red teapot" in the related cards of
 * the substitute's page let the replay add the substitute).
 */
function pageShows(observation: PageObservation, value: string, target: SnapshotNode | undefined): boolean {
  const re = wholeWords(value);
  if (re === null) return true; // nothing to show (valuesThePageMustShow leaves out empty values)
  if (re.test(observation.title)) return true;
  const headings = observation.nodes.filter((n) => n.kind === 'heading' && n.name.trim() !== '');
  const top = Math.min(...headings.map((n) => n.level ?? 6));
  if (headings.some((n) => (n.level ?? 6) === top && re.test(n.name))) return true;
  return (target?.context ?? []).some((c) => re.test(c.name));
}

/**
 * A step on the element that names its row (a ticket's id link, `rowText` in
 * the snapshot) opens the item of that row. When the step names none of the
 * task's values and that row shows none either, it is the item of the success
 * the plan was learned from, not this task's (page/row-identifier.ts).
 */
function rowOfAnotherItem(node: SnapshotNode, action: string, taskValues: readonly string[]): boolean {
  const values = taskValues.filter((v) => v.trim() !== '');
  if (node.rowText === undefined || values.length === 0) return false;
  return !values.some((v) => showsValue(node.rowText!, v) || showsValue(action, v));
}

export function checkPrecondition(
  step: { regUrl: string; action: string }, observation: PageObservation, mustShow: readonly string[] = [], taskValues: readonly string[] = [],
): Precondition {
  const parsed = parseAction(step.action);
  if (!parsed.ok) return { ok: false, reason: `the step does not parse (${parsed.error.message})` };
  const here = regularizeUrl(observation.url).regUrl;
  if (here !== step.regUrl) return { ok: false, reason: `a different page type (${here}, not ${step.regUrl})` };
  const action = parsed.action;
  const target = 'target' in action ? action.target : undefined;
  const { inside, dialogs } = insideDialogs(observation.nodes);
  const notShown = (node?: SnapshotNode): Precondition | null => {
    const missing = mustShow.find((v) => !pageShows(observation, v, node));
    return missing === undefined ? null : { ok: false, reason: `the page does not show "${missing}", the item the plan acts on` };
  };
  if (!target) {
    if (dialogs.length > 0) return { ok: false, reason: `an unexpected dialog is open ("${dialogs[0]!.name}")` };
    return notShown() ?? { ok: true, action };
  }
  if (target.kind === 'ref') return { ok: false, reason: 'the step targets a ref, not a role and name' };
  const matches = matchingNodes(target, observation).map((node) => ({ node, index: observation.nodes.indexOf(node) }));
  const shown = formatTarget(target);
  if (matches.length === 0) return { ok: false, reason: `${shown} is not on the page` };
  if (matches.length > 1) return { ok: false, reason: `${matches.length} elements match ${shown}` };
  const only = matches[0]!;
  const unshown = notShown(only.node);
  if (unshown) return unshown;
  if (dialogs.length > 0 && !inside.has(only.index)) return { ok: false, reason: `an unexpected dialog is open ("${dialogs[0]!.name}")` };
  if (rowOfAnotherItem(only.node, step.action, taskValues)) return { ok: false, reason: `${shown} opens a row that shows none of the task's values: another item` };
  return { ok: true, action: { ...action, target: { kind: 'ref', ref: only.node.ref! } } as Action };
}
