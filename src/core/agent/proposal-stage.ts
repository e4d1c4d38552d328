/**
 * The last part of a proposal, after the learners adjusted the logits:
 * notice a loop (bar the actions that led round it), choose the proposal
 * (Softmax(z′/T) sampling, argmax, or exploitation — `proposal-choice.ts`)
 * and order the candidates: the proposal first, then the rest by rank.
 * Pure: the draw comes from a seed of the episode and step, so a step is
 * reproducible and survives a worker restart.
 */
import type { Candidate } from '../learning/candidate.ts';
import { chooseProposal, rankForProposal, type SelectionMode } from './proposal-choice.ts';
import { detectLoop, type LoopFinding } from './loops.ts';
import { fnv1a } from '../fnv1a.ts';
import { seededRandom } from '../random.ts';
import type { StepRecord } from '../episode/episode.ts';
import { samePage } from '../page/same-page.ts';

export interface ProposalStageInput {
  candidates: readonly Candidate[];
  /** The episode's steps before this one. */
  earlier: readonly StepRecord[];
  /** `pageKeyOf` the current observation. */
  pageKey: string;
  /** The current page's URL. */
  url: string;
  selection: { mode: SelectionMode; temperature: number };
  /** What the draw is seeded with (settings seed, task, attempt, step, rejections). */
  drawKey: string;
  /** Bar the actions that led round a loop (the ranking's rule `bar-loops`, ranking-rules.ts); default on. */
  barLoops?: boolean;
}

export interface ProposalStageOutput {
  /** The proposal first, then the others by rank. */
  candidates: Candidate[];
  selection: NonNullable<StepRecord['selection']>;
  loop: LoopFinding | null;
  notes: string[];
}

/** This step's uniform draw, seeded by the hash of its draw key. */
export function proposalDraw(drawKey: string): number {
  return seededRandom(fnv1a(drawKey) | 0).next();
}

export function finishProposal(input: ProposalStageInput): ProposalStageOutput {
  const notes: string[] = [];
  const executed = input.earlier.filter((s) => s.chosen !== null && s.chosen.decision !== 'rejected');
  const loop = detectLoop(executed.map((s) => ({ pageKey: s.pageKey ?? null, action: s.chosen!.semantic })), input.pageKey);
  const records = [...input.candidates];
  if (loop && input.barLoops !== false) {
    const repeated = new Set(loop.repeated);
    let barred = 0;
    records.forEach((r, i) => {
      if (r.barred === undefined && repeated.has(r.semantic)) {
        records[i] = { ...r, barred: 'loop' };
        barred++;
      }
    });
    const since = executed[loop.since]!.index;
    notes.push(`loop: back at the page as it was before step ${since + 1} (${loop.length} step${loop.length === 1 ? '' : 's'} without progress)${barred ? `; ${barred} action(s) that led round it barred here` : ''}`);
  }
  // Exploitation repeats what worked from a state, once: an action already
  // done on this very page since arriving is not repeated outright. A click
  // that leaves no lasting state ("Add to cart") leaves the effective state
  // as it was, so the same memory would otherwise settle it again and again.
  const doneHere = actionsSinceArrival(executed, input.url);
  records.forEach((r, i) => {
    if (r.settled && doneHere.has(r.semantic)) {
      const { settled: _settled, ...rest } = r;
      records[i] = rest;
      notes.push(`not repeated outright: ${r.semantic} was already done on this page`);
    }
  });
  const choice = chooseProposal(records, { ...input.selection, u: proposalDraw(input.drawKey) });
  const rest = rankForProposal(records).filter((i) => i !== choice.index);
  const since = loop ? executed[loop.since]!.index : null;
  return {
    candidates: [choice.index, ...rest].map((i) => records[i]!),
    selection: { how: choice.how, probability: choice.probability, temperature: input.selection.temperature },
    loop: loop && since !== null ? { ...loop, since } : null,
    notes,
  };
}

/** The actions run on this page (same URL) since the episode last arrived on it. */
function actionsSinceArrival(executed: readonly StepRecord[], url: string): Set<string> {
  const out = new Set<string>();
  for (let i = executed.length - 1; i >= 0; i--) {
    const step = executed[i]!;
    if (!samePage(step.url, url)) break;
    if (step.result?.ok !== false) out.add(step.chosen!.semantic);
  }
  return out;
}
