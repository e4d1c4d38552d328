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

export function checkPrecondition(step: { regUrl: string; action: string }, observation: PageObservation): Precondition {
  const parsed = parseAction(step.action);
  if (!parsed.ok) return { ok: false, reason: `the step does not parse (${parsed.error.message})` };
  const here = regularizeUrl(observation.url).regUrl;
  if (here !== step.regUrl) return { ok: false, reason: `a different page type (${here}, not ${step.regUrl})` };
  const action = parsed.action;
  const target = 'target' in action ? action.target : undefined;
  const { inside, dialogs } = insideDialogs(observation.nodes);
  if (!target) {
    if (dialogs.length > 0) return { ok: false, reason: `an unexpected dialog is open ("${dialogs[0]!.name}")` };
    return { ok: true, action };
  }
  if (target.kind === 'ref') return { ok: false, reason: 'the step targets a ref, not a role and name' };
  const matches = matchingNodes(target, observation).map((node) => ({ node, index: observation.nodes.indexOf(node) }));
  const shown = formatTarget(target);
  if (matches.length === 0) return { ok: false, reason: `${shown} is not on the page` };
  if (matches.length > 1) return { ok: false, reason: `${matches.length} elements match ${shown}` };
  const only = matches[0]!;
  if (dialogs.length > 0 && !inside.has(only.index)) return { ok: false, reason: `an unexpected dialog is open ("${dialogs[0]!.name}")` };
  return { ok: true, action: { ...action, target: { kind: 'ref', ref: only.node.ref! } } as Action };
}
