/**
 * The built-in offline policy: a deterministic scorer over the observation
 * and the task, with no network and no key. It proposes candidates from
 * lexical overlap of task terms with element names and their nearby headings,
 * role priors, form-field intents (values the task gives), checkbox intents,
 * navigation cues, searching for the thing the task names when the page shows
 * no trace of it, submitting once the fields are filled, avoiding the
 * just-executed or failed action, answering a question from what the page
 * shows, and the actions suggested by replayed experience. It does not
 * know any site; it reads only the task's words and the page.
 *
 * Scores are in nats: each cue adds a fixed amount, and the logits returned
 * are log-softmax(scores) over every action it considered, so they are
 * log-probabilities on the same scale as the model's token logprobs.
 *
 * What it reads first is in offline-reading.ts; the cues per element in
 * offline-node-scores.ts; the page-wide cues in offline-page-cues.ts.
 */
import { formatAction } from '../page/action-grammar.ts';
import type { CandidatePolicy, PolicyInput, PolicyProposal, ProposedCandidate } from './policy.ts';
import { readPage, ScoreBoard, type Scored } from './offline-reading.ts';
import { scoreNode } from './offline-node-scores.ts';
import { addDiscouraged, addFinish, addPageMoves, addSuggested, penalizeRepeats, scoreAnswer } from './offline-page-cues.ts';

export { OFFLINE_WEIGHTS } from './offline-weights.ts';
export type { Scored } from './offline-reading.ts';

/** No options yet; the object keeps the signature stable as cues become settings. */
export type OfflinePolicyOptions = Record<string, never>;

/** Every action the scorer considers on this page, best first, with scores. */
export function scoreOfflineActions(input: PolicyInput): Scored[] {
  const reading = readPage(input);
  const board = new ScoreBoard();
  reading.obs.nodes.forEach((n, order) => scoreNode(reading, board, n, order));
  scoreAnswer(reading, board);
  addSuggested(reading, board, input.sections);
  addDiscouraged(reading, board, input.sections);
  addPageMoves(reading, board);
  addFinish(reading, board);
  penalizeRepeats(reading, board);

  const list = [...board.scored.values()];
  if (list.length === 0) {
    list.push({ action: { type: 'report_infeasible', reason: 'Nothing on this page can be acted on.' }, score: 0, reasons: ['no actions'], order: 0 });
  }
  return list.sort((a, b) => b.score - a.score || a.order - b.order || formatAction(a.action).localeCompare(formatAction(b.action)));
}

const logSumExp = (xs: number[]): number => {
  const m = Math.max(...xs);
  return m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
};

export function createOfflinePolicy(_options: OfflinePolicyOptions = {}): CandidatePolicy {
  return {
    id: 'offline',
    async propose(input: PolicyInput, signal?: AbortSignal): Promise<PolicyProposal> {
      signal?.throwIfAborted();
      const all = scoreOfflineActions(input);
      const norm = logSumExp(all.map((s) => s.score));
      const candidates: ProposedCandidate[] = all.slice(0, Math.max(1, input.numCandidates)).map((s) => ({
        action: s.action,
        logit: s.score - norm,
        rationale: s.reasons.join('; '),
      }));
      return { candidates, logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}
