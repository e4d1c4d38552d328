/**
 * The optional step evaluator: after an episode, a model reads the whole
 * trajectory and its outcome and scores every step from −3 to +3, the product
 * of how useful the step was and how sure the evaluator is (docs/learning.md, "Papers" and
 * App. G.1.2, in our own words). Missing steps score 0; scores are clamped.
 */
import * as z from 'zod';
import { ModelOutputError, ProviderError } from '../errors.ts';
import type { ChatMessage, ChatModel } from '../ports.ts';
import type { Verdict } from '../episode/episode.ts';
import { parseModelJson } from './parse-model-json.ts';
import { DATA_SECTION_RULE, dataSection, inlineData } from './data-section.ts';

export const StepScoreSchema = z.object({
  step: z.number().int().min(1).describe('The step number as listed (1-based).'),
  result: z.string().describe('What happened after this action, in a few words.'),
  usefulness: z.string().describe('"useful", "harmful" or "neutral".'),
  certainty: z.string().describe('"certain", "somewhat uncertain" or "very uncertain".'),
  score: z.number().describe('−3..+3: sign from usefulness, size from certainty (3 certain, 2 somewhat, 1 very uncertain); 0 for neutral.'),
});
export const EvaluationSchema = z.object({
  steps: z.array(StepScoreSchema).describe('One entry per step of the trajectory, in order.'),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;

export interface EvaluatorInput {
  task: string;
  steps: { action: string; url: string; outcome: string }[];
  verdict: Verdict;
  answer: string | null;
}

export interface EvaluatorResult {
  /** One integer score in −3..+3 per step, in step order. */
  scores: number[];
  /** One note per step: what the evaluator said, or why the score is 0. */
  notes: string[];
}

export const MIN_STEP_SCORE = -3;
export const MAX_STEP_SCORE = 3;

export function buildEvaluatorMessages(input: EvaluatorInput): ChatMessage[] {
  const system = [
    'You review what a web agent did during one task and score each of its actions. The scores teach the agent which actions to repeat and which to avoid on this site.',
    'For each step: look at what followed the action, decide whether it moved the task forward (useful), set it back or wasted effort (harmful), or had no lasting effect (neutral), and how sure you are.',
    'Scoring:',
    '+3 useful and certain; +2 useful, somewhat uncertain; +1 possibly useful, very uncertain;',
    '−3 harmful or useless and certain; −2 harmful, somewhat uncertain; −1 possibly harmful, very uncertain;',
    '0 when you cannot tell, when it had no effect, or when a later step undid it.',
    'Use the final outcome: in a successful episode the steps that led to the result are useful; in a failed one, look for where it went wrong.',
    DATA_SECTION_RULE,
    `Answer with one JSON object and nothing else, following this JSON Schema: ${JSON.stringify(z.toJSONSchema(EvaluationSchema))}`,
  ].join('\n');
  const steps = input.steps
    .map((s, i) => `${i + 1}. ${s.action} → ${s.outcome}\n   on ${s.url}`)
    .join('\n');
  const user = [
    `Task: ${input.task}`,
    `Outcome: ${input.verdict}${input.answer !== null ? ` (answer given: ${JSON.stringify(inlineData(input.answer))})` : ''}`,
    '',
    `Steps (${input.steps.length}):`,
    steps ? dataSection('the steps, with names and URLs from the pages', steps) : '(no steps)',
    '',
    `Score all ${input.steps.length} steps.`,
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

const clampScore = (s: number): number => Math.max(MIN_STEP_SCORE, Math.min(MAX_STEP_SCORE, Math.round(s)));

/** Scores every step; one corrective retry on a malformed answer, then ModelOutputError. */
export async function evaluateSteps(model: ChatModel, input: EvaluatorInput, signal?: AbortSignal): Promise<EvaluatorResult> {
  if (input.steps.length === 0) return { scores: [], notes: [] };
  const messages = buildEvaluatorMessages(input);
  const ask = async (msgs: ChatMessage[]) => {
    if (signal?.aborted) throw new ProviderError('aborted', 'The request was cancelled.');
    return model.chat({ messages: msgs, temperature: 0, maxTokens: 200 + 80 * input.steps.length, logprobs: false, topLogprobs: 0, json: true }, signal);
  };
  let response = await ask(messages);
  let parsed = parseModelJson(response.text, EvaluationSchema);
  if (!parsed.ok) {
    response = await ask([
      ...messages,
      { role: 'assistant', content: response.text.slice(0, 4000) },
      { role: 'user', content: `Your previous answer could not be used: ${parsed.error}\nAnswer again with only the JSON object {"steps": [...]}, one entry per step.` },
    ]);
    parsed = parseModelJson(response.text, EvaluationSchema);
    if (!parsed.ok) throw new ModelOutputError(`step evaluation: ${parsed.error}`, response.text);
  }

  const scores = input.steps.map(() => 0);
  const notes = input.steps.map(() => 'The evaluator gave no score for this step; 0 was used.');
  const filled = new Set<number>();
  for (const entry of parsed.value.steps) {
    const i = entry.step - 1;
    // Out-of-range step numbers and repeats are ignored: the first score for a step wins.
    if (i < 0 || i >= scores.length || filled.has(i)) continue;
    filled.add(i);
    scores[i] = Number.isFinite(entry.score) ? clampScore(entry.score) : 0;
    notes[i] = `${entry.result.trim() || 'no result given'} (${entry.usefulness}, ${entry.certainty})`;
  }
  return { scores, notes };
}
