/**
 * The candidate policy backed by any OpenAI-compatible chat model: one call
 * for N candidates, logits from token logprobs at the `"best"` index token
 * (see llm/logprob-logits.ts) or from verbalized confidences, with one repair
 * and one corrective retry for malformed answers.
 */
import { ModelOutputError, ProviderError } from '../errors.ts';
import { buildCandidateMessages, correctiveMessage } from '../llm/candidate-prompt.ts';
import { bestOptionLogits, verbalizedLogits } from '../llm/logprob-logits.ts';
import { parseCandidateOutput, type ParsedCandidate } from '../llm/parse-model-json.ts';
import type { ChatMessage, ChatModel, ChatResponse } from '../ports.ts';
import type { CandidatePolicy, PolicyInput, PolicyProposal, ProposedCandidate } from './policy.ts';

export interface LlmPolicyOptions {
  logitMode: 'auto' | 'logprobs' | 'verbalized';
  /** Completion budget per call. */
  maxTokens?: number;
}

export const DEFAULT_MAX_TOKENS = 1200;

/** Alternatives asked per token: enough to see every option digit at the index token. */
const topLogprobsFor = (n: number): number => Math.min(20, Math.max(5, n + 2));

export function createLlmPolicy(model: ChatModel, options: LlmPolicyOptions): CandidatePolicy {
  // 'auto' learns once per policy instance that the provider gives no logprobs.
  let logprobsUnavailable = false;

  return {
    id: 'llm',
    async propose(input: PolicyInput, signal?: AbortSignal): Promise<PolicyProposal> {
      const n = input.numCandidates;
      const notes: string[] = [];
      const usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
      const wantLogprobs = options.logitMode === 'logprobs' || (options.logitMode === 'auto' && !logprobsUnavailable);

      const call = async (messages: ChatMessage[]): Promise<ChatResponse> => {
        if (signal?.aborted) throw new ProviderError('aborted', 'The request was cancelled.');
        const response = await model.chat(
          {
            messages,
            temperature: input.temperature,
            maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
            logprobs: wantLogprobs,
            topLogprobs: wantLogprobs ? topLogprobsFor(n) : 0,
            json: true,
          },
          signal,
        );
        usage.calls++;
        usage.promptTokens += response.usage.promptTokens;
        usage.completionTokens += response.usage.completionTokens;
        return response;
      };

      const messages = buildCandidateMessages(input);
      let response = await call(messages);
      let parsed = parseCandidateOutput(response.text, input.observation, n);
      if (!parsed.ok) {
        // The repair already ran inside parseCandidateOutput; now one corrective retry.
        notes.push(`The model's first answer was unusable (${parsed.error}); asked again.`);
        response = await call([
          ...messages,
          { role: 'assistant', content: response.text.slice(0, 4000) },
          correctiveMessage(parsed.error, n),
        ]);
        parsed = parseCandidateOutput(response.text, input.observation, n);
        if (!parsed.ok) {
          throw new ModelOutputError(`after a repair and a retry: ${parsed.error}`, response.text);
        }
      }
      notes.push(...parsed.notes);
      const found = parsed.candidates;
      if (found.length < n) notes.push(`The model proposed ${found.length} usable action(s) out of ${n} asked.`);

      let logits: number[] | null = null;
      let logitSource: PolicyProposal['logitSource'] = 'verbalized';
      if (wantLogprobs) {
        if (response.tokens === null || response.tokens.length === 0) {
          if (options.logitMode === 'auto') {
            logprobsUnavailable = true;
            notes.push('The provider returned no token logprobs; using verbalized confidences from now on.');
          } else {
            notes.push('The provider returned no token logprobs; verbalized confidences were used for this step.');
          }
        } else {
          logits = tokenLogits(response, found, notes);
          if (logits) logitSource = 'logprobs';
        }
      }
      logits ??= verbalizedLogits(found.map((c) => c.confidence));

      const candidates: ProposedCandidate[] = found.map((c, i) => ({
        action: c.action,
        logit: logits[i] ?? 0,
        ...(c.why ? { rationale: c.why } : {}),
      }));
      return { candidates, logitSource, usage, notes };
    },
  };
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
