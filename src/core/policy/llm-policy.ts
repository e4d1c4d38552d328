/**
 * The candidate policy backed by any OpenAI-compatible chat model: one call
 * for N candidates, logits from token logprobs at the `"best"` index token
 * (see llm/logprob-logits.ts) or from verbalized confidences, with one repair
 * and one corrective retry for malformed answers. The request itself, fitted
 * to the model's context window, is in llm-request.ts.
 */
import { ModelOutputError } from '../errors.ts';
import { candidateOutputSchema, correctiveMessage } from './candidate-prompt.ts';
import * as z from 'zod';
import { bestOptionLogits, verbalizedLogits } from '../llm/logprob-logits.ts';
import { parseCandidateOutput, type ParsedCandidate } from './parse-candidate-output.ts';
import type { ChatMessage, ChatModel, ChatResponse } from '../ports.ts';
import type { CandidatePolicy, PolicyInput, PolicyProposal, ProposedCandidate } from './policy.ts';
import { chatOnce, sendFitting, type ProviderState, type StepRequest } from './llm-request.ts';

export interface LlmPolicyOptions {
  logitMode: 'auto' | 'logprobs' | 'verbalized';
  /** Completion budget per call. */
  maxTokens?: number;
  /** The model's context window in tokens when known; otherwise learned from the first context-length error. */
  contextTokens?: number;
  /** Characters per token assumed until a server count measures it (a per-provider default). */
  charsPerToken?: number;
}

/** Answers in a row without logprobs after which 'auto' stops asking for them. */
export const NO_LOGPROBS_LIMIT = 3;

export const DEFAULT_MAX_TOKENS = 1200;

export function createLlmPolicy(model: ChatModel, options: LlmPolicyOptions): CandidatePolicy {
  const state: ProviderState = {
    // 'auto' stops asking for logprobs only after this many answers in a row came without them:
    // one answer without (an OpenRouter request routed to another upstream, say) changes nothing.
    answersWithoutLogprobs: 0,
    // The window and the token ratio, learned from the server's errors and usage counts.
    contextTokens: options.contextTokens && options.contextTokens > 0 ? options.contextTokens : null,
    charsPerToken: options.charsPerToken ?? 3.5,
  };

  return {
    id: 'llm',
    async propose(input: PolicyInput, signal?: AbortSignal): Promise<PolicyProposal> {
      const n = input.numCandidates;
      const req: StepRequest = {
        model,
        state,
        input,
        signal,
        maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
        wantLogprobs: options.logitMode === 'logprobs' || (options.logitMode === 'auto' && state.answersWithoutLogprobs < NO_LOGPROBS_LIMIT),
        jsonSchema: z.toJSONSchema(candidateOutputSchema(n)) as Record<string, unknown>,
        notes: [],
        usage: { calls: 0, promptTokens: 0, completionTokens: 0 },
      };
      const sent = await sendFitting(req);
      const { response, found } = await parseWithRetry(req, sent.response, sent.messages);
      req.notes.push(...found.notes);
      if (found.candidates.length < n) req.notes.push(`The model proposed ${found.candidates.length} usable action(s) out of ${n} asked.`);
      const { logits, logitSource } = chooseLogits(req, options.logitMode, response, found.candidates);
      const candidates: ProposedCandidate[] = found.candidates.map((c, i) => ({
        action: c.action,
        logit: logits[i] ?? 0,
        ...(c.why ? { rationale: c.why } : {}),
      }));
      return { candidates, logitSource, usage: req.usage, notes: req.notes };
    },
  };
}

/** Parses the answer; when it is unusable (after the parser's own repair), asks once more with a corrective message. */
async function parseWithRetry(
  req: StepRequest,
  first: ChatResponse,
  messages: ChatMessage[],
): Promise<{ response: ChatResponse; found: { candidates: ParsedCandidate[]; notes: string[] } }> {
  const n = req.input.numCandidates;
  let response = first;
  let parsed = parseCandidateOutput(response.text, req.input.observation, n);
  if (!parsed.ok) {
    // The repair already ran inside parseCandidateOutput; now one corrective retry.
    req.notes.push(`The model's first answer was unusable (${parsed.error}); asked again.`);
    response = await chatOnce(req, [
      ...messages,
      { role: 'assistant', content: response.text.slice(0, 4000) },
      correctiveMessage(parsed.error, n),
    ]);
    parsed = parseCandidateOutput(response.text, req.input.observation, n);
    if (!parsed.ok) {
      throw new ModelOutputError(`after a repair and a retry: ${parsed.error}`, response.text);
    }
  }
  return { response, found: { candidates: parsed.candidates, notes: parsed.notes } };
}

/** Token logits when asked for and readable; else verbalized confidences. Counts answers without logprobs for 'auto'. */
function chooseLogits(
  req: StepRequest,
  logitMode: LlmPolicyOptions['logitMode'],
  response: ChatResponse,
  found: readonly ParsedCandidate[],
): { logits: number[]; logitSource: PolicyProposal['logitSource'] } {
  const { state, notes } = req;
  let logits: number[] | null = null;
  let logitSource: PolicyProposal['logitSource'] = 'verbalized';
  if (req.wantLogprobs) {
    if (response.tokens === null || response.tokens.length === 0) {
      if (logitMode === 'auto') {
        state.answersWithoutLogprobs++;
        notes.push(
          state.answersWithoutLogprobs >= NO_LOGPROBS_LIMIT
            ? `The provider returned no token logprobs ${NO_LOGPROBS_LIMIT} times in a row; using verbalized confidences from now on.`
            : 'The provider returned no token logprobs; verbalized confidences were used for this step.',
        );
      } else {
        notes.push('The provider returned no token logprobs; verbalized confidences were used for this step.');
      }
    } else {
      state.answersWithoutLogprobs = 0;
      logits = tokenLogits(response, found, notes);
      if (logits) logitSource = 'logprobs';
    }
  }
  logits ??= verbalizedLogits(found.map((c) => c.confidence));
  return { logits, logitSource };
}

/** Logits read at the `"best"` token, or null (noted) when they cannot be read. */
function tokenLogits(response: ChatResponse, found: readonly ParsedCandidate[], notes: string[]): number[] | null {
  const numbers = found.map((c) => c.option);
  if (new Set(numbers).size !== numbers.length) {
    notes.push('Option numbers repeat, so token logprobs cannot tell them apart; verbalized confidences were used.');
    return null;
  }
  const read = bestOptionLogits(response.tokens, numbers);
  if (!read) {
    notes.push('No "best" option token was found in the answer; verbalized confidences were used for this step.');
    return null;
  }
  if (read.floored.length > 0) {
    notes.push(`Option(s) ${read.floored.join(', ')} were not among the top logprobs; they got the floor logit.`);
  }
  return numbers.map((o) => read.logits.get(o) ?? 0);
}
