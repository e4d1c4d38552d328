/**
 * The candidate policy backed by any OpenAI-compatible chat model: one call
 * for N candidates, logits from token logprobs at the `"best"` index token
 * (see llm/logprob-logits.ts) or from verbalized confidences, with one repair
 * and one corrective retry for malformed answers.
 */
import { isProviderError, ModelOutputError, ProviderError } from '../errors.ts';
import { buildCandidateMessages, candidateOutputSchema, correctiveMessage } from './candidate-prompt.ts';
import { completionReserve, estimateTokens, measuredCharsPerToken, MIN_OBSERVATION_CHARS, observationBudget } from '../llm/context-budget.ts';
import { renderObservation, truncateObservation } from '../page/render-observation.ts';
import * as z from 'zod';
import { bestOptionLogits, verbalizedLogits } from '../llm/logprob-logits.ts';
import { parseCandidateOutput, type ParsedCandidate } from './parse-candidate-output.ts';
import type { ChatMessage, ChatModel, ChatResponse } from '../ports.ts';
import type { CandidatePolicy, PolicyInput, PolicyProposal, ProposedCandidate } from './policy.ts';

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

/** Shrinks after context-length errors, each to a smaller listing; then the error stands. */
const MAX_SHRINKS = 3;

const promptChars = (messages: readonly ChatMessage[]): number => messages.reduce((n, m) => n + m.content.length, 0);

export const DEFAULT_MAX_TOKENS = 1200;

/** Alternatives asked per token: enough to see every option digit at the index token. */
const topLogprobsFor = (n: number): number => Math.min(20, Math.max(5, n + 2));

export function createLlmPolicy(model: ChatModel, options: LlmPolicyOptions): CandidatePolicy {
  // 'auto' stops asking for logprobs only after this many answers in a row came without them:
  // one answer without (an OpenRouter request routed to another upstream, say) changes nothing.
  let answersWithoutLogprobs = 0;
  // The window and the token ratio, learned from the server's errors and usage counts.
  let contextTokens = options.contextTokens && options.contextTokens > 0 ? options.contextTokens : null;
  let charsPerToken = options.charsPerToken ?? 3.5;

  return {
    id: 'llm',
    async propose(input: PolicyInput, signal?: AbortSignal): Promise<PolicyProposal> {
      const n = input.numCandidates;
      const notes: string[] = [];
      const usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
      const wantLogprobs = options.logitMode === 'logprobs' || (options.logitMode === 'auto' && answersWithoutLogprobs < NO_LOGPROBS_LIMIT);

      const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
      const jsonSchema = z.toJSONSchema(candidateOutputSchema(n)) as Record<string, unknown>;
      const call = async (messages: ChatMessage[]): Promise<ChatResponse> => {
        if (signal?.aborted) throw new ProviderError('aborted', 'The request was cancelled.');
        const response = await model.chat(
          {
            messages,
            temperature: input.temperature,
            maxTokens: contextTokens ? completionReserve(contextTokens, maxTokens) : maxTokens,
            logprobs: wantLogprobs,
            topLogprobs: wantLogprobs ? topLogprobsFor(n) : 0,
            json: true,
            jsonSchema,
          },
          signal,
        );
        usage.calls++;
        usage.promptTokens += response.usage.promptTokens;
        usage.completionTokens += response.usage.completionTokens;
        if (response.notes) notes.push(...response.notes);
        // A count at the window's edge may be a silent truncation (Ollama): not a measurement.
        if (!contextTokens || response.usage.promptTokens < 0.95 * contextTokens) {
          charsPerToken = measuredCharsPerToken(promptChars(messages), response.usage.promptTokens, charsPerToken);
        }
        return response;
      };

      // The page listing shrinks to fit the window: before sending when the window is known,
      // and after each context-length error (which tells the window, often the prompt's size too).
      let pageInput = input;
      const shrinkTo = (budget: number, why: string): boolean => {
        const before = pageInput.renderedObservation.length;
        if (budget < MIN_OBSERVATION_CHARS) {
          throw new ProviderError(
            'context_length',
            `The model's context window (${contextTokens ?? '?'} tokens) is too small even for a ${MIN_OBSERVATION_CHARS}-character page listing. Load the model with a larger context length.`,
            { detail: contextTokens ? { contextTokens } : {} },
          );
        }
        const target = Math.min(budget, Math.floor(before * 0.75));
        const observation = truncateObservation(input.observation, { maxChars: target });
        const rendered = renderObservation(observation);
        if (rendered.length >= before) return false;
        pageInput = { ...input, observation, renderedObservation: rendered };
        notes.push(`${why} The page listing was shrunk from ${before} to ${rendered.length} characters to fit.`);
        return true;
      };
      const fitMessages = (): ChatMessage[] => {
        const messages = buildCandidateMessages(pageInput);
        if (!contextTokens) return messages;
        const size = { promptChars: promptChars(messages), observationChars: pageInput.renderedObservation.length };
        const budget = observationBudget(size, contextTokens, maxTokens, charsPerToken);
        if (budget === null) return messages;
        const estimate = estimateTokens(size.promptChars, charsPerToken);
        return shrinkTo(budget, `The prompt (about ${estimate} tokens) would not fit the model's context window of ${contextTokens} tokens.`)
          ? buildCandidateMessages(pageInput)
          : messages;
      };

      let messages = fitMessages();
      let response: ChatResponse | null = null;
      for (let shrinks = 0; response === null; shrinks++) {
        try {
          response = await call(messages);
        } catch (err) {
          if (!isProviderError(err) || err.kind !== 'context_length' || shrinks >= MAX_SHRINKS) throw err;
          const detail = err.detail ?? {};
          if (detail.contextTokens) contextTokens = detail.contextTokens;
          if (detail.promptTokens) charsPerToken = measuredCharsPerToken(promptChars(messages), detail.promptTokens, charsPerToken);
          const size = { promptChars: promptChars(messages), observationChars: pageInput.renderedObservation.length };
          const budget = contextTokens ? observationBudget(size, contextTokens, maxTokens, charsPerToken) : null;
          const said = `The provider said the prompt exceeds the model's context window${contextTokens ? ` of ${contextTokens} tokens` : ''}.`;
          if (!shrinkTo(budget ?? Math.floor(size.observationChars / 2), said)) throw err;
          messages = buildCandidateMessages(pageInput);
        }
      }
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
            answersWithoutLogprobs++;
            notes.push(
              answersWithoutLogprobs >= NO_LOGPROBS_LIMIT
                ? `The provider returned no token logprobs ${NO_LOGPROBS_LIMIT} times in a row; using verbalized confidences from now on.`
                : 'The provider returned no token logprobs; verbalized confidences were used for this step.',
            );
          } else {
            notes.push('The provider returned no token logprobs; verbalized confidences were used for this step.');
          }
        } else {
          answersWithoutLogprobs = 0;
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
