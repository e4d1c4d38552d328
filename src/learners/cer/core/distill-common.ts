/**
 * What both CER distillers (distill-offline.ts, distill-model.ts) share: the
 * trajectory they read, what they return, the executed steps of an episode,
 * a sentence per action, and the provenance of a new entry.
 */
import type { Episode, StepRecord } from '../../../core/episode/episode.ts';
import { parseAction } from '../../../core/page/action-grammar.ts';
import type { Action, Target } from '../../../core/page/action.ts';
import { unhandledKind } from '../../../core/page/action-vocabulary.ts';
import type { ExperienceEntry, ExperienceSource, Provenance } from './experience.ts';

/** A trajectory to learn from: an episode, plus what imports and demonstrations know about each page. */
export interface DistillInput {
  episode: Episode;
  /** Parallel to episode.steps: the page title at that step, when known. */
  pageTitles?: readonly (string | null)[];
  /** Parallel to episode.steps: a short summary of what the page showed. */
  observations?: readonly (string | null)[];
}

export interface DistillResult {
  /** Candidate entries (not yet merged). Empty when `reason` is set. */
  entries: ExperienceEntry[];
  /** Why nothing was distilled (malformed or empty output, model failure, nothing executed). */
  reason: string | null;
  notes: string[];
}

export const MAX_SKILL_STEPS = 15;

export interface ExecutedStep {
  step: StepRecord;
  index: number;
  action: Action;
  ok: boolean;
}

/** Steps whose chosen action ran, parsed from their semantic form. Ref-form leftovers are dropped: refs mean nothing later. */
export function executedSteps(episode: Episode, notes: string[] = []): ExecutedStep[] {
  const out: ExecutedStep[] = [];
  episode.steps.forEach((step, index) => {
    if (!step.chosen) return;
    const parsed = parseAction(step.chosen.semantic);
    if (!parsed.ok) {
      notes.push(`step ${index}: "${step.chosen.semantic}" is not a valid action and was skipped`);
      return;
    }
    if (hasRefTarget(parsed.action)) {
      notes.push(`step ${index}: "${step.chosen.semantic}" targets a ref, not a role and name, and was skipped`);
      return;
    }
    out.push({ step, index, action: parsed.action, ok: step.result?.ok !== false });
  });
  return out;
}

export function hasRefTarget(a: Action): boolean {
  return 'target' in a && a.target !== undefined && a.target.kind === 'ref';
}

const targetText = (t: Target | undefined): string =>
  !t ? 'the focused element' : t.kind === 'ref' ? `element [${t.ref}]` : `the ${t.role}${t.name ? ` "${t.name}"` : ''}`;

/** One sentence for a step of a skill or a usage of a page. */
export function describeAction(a: Action): string {
  switch (a.type) {
    case 'click': return `Click ${targetText(a.target)}`;
    case 'dblclick': return `Double-click ${targetText(a.target)}`;
    case 'hover': return `Hover over ${targetText(a.target)}`;
    case 'focus': return `Focus ${targetText(a.target)}`;
    case 'clear': return `Clear ${targetText(a.target)}`;
    case 'check': return `Tick ${targetText(a.target)}`;
    case 'uncheck': return `Untick ${targetText(a.target)}`;
    case 'fill': return `Type ${a.text} into ${targetText(a.target)}`;
    case 'select_option': return `Choose ${a.option} in ${targetText(a.target)}`;
    case 'press': return `Press ${a.keys}${a.target ? ` in ${targetText(a.target)}` : ''}`;
    case 'scroll': return `Scroll ${a.dy >= 0 ? 'down' : 'up'}${a.target ? ` inside ${targetText(a.target)}` : ''}`;
    case 'goto': return `Go to ${a.url}`;
    case 'go_back': return 'Go back';
    case 'go_forward': return 'Go forward';
    case 'send_msg_to_user': return 'Give the person the answer';
    case 'report_infeasible': return 'Report that the task cannot be done here';
    default: return unhandledKind(a);
  }
}

export function newProvenance(episode: Episode, now: number): Provenance {
  return {
    episodeIds: [episode.id],
    createdAt: now,
    updatedAt: now,
    retrieved: 0,
    retrievedThenSucceeded: 0,
    source: episode.kind satisfies ExperienceSource,
  };
}

export function existingSkillId(existing: readonly ExperienceEntry[], name: string): string | undefined {
  const key = name.toLowerCase().replace(/\s+/g, ' ').trim();
  return existing.find((e) => e.kind === 'skill' && e.name.toLowerCase().replace(/\s+/g, ' ').trim() === key)?.id;
}

export const nonEmpty = (s: string | null | undefined): string | null => (s && s.trim() ? s.trim() : null);
