/**
 * One step's request to the model (llm-policy.ts): the chat call with its
 * usage accounting, and the page listing shrunk to fit the context window —
 * before sending when the window is known, and after each context-length
 * error, which tells the window (often the prompt's size too).
 */
import { isProviderError, ProviderError } from '../errors.ts';
import { buildCandidateMessages } from './candidate-prompt.ts';
import { completionReserve, estimateTokens, measuredCharsPerToken, MIN_OBSERVATION_CHARS, observationBudget } from '../llm/context-budget.ts';
import { renderObservation, truncateObservation } from '../page/render-observation.ts';
import type { ChatMessage, ChatModel, ChatResponse } from '../ports.ts';
import type { PolicyInput, PolicyProposal } from './policy.ts';

/** What the policy learns about its provider across steps. */
export interface ProviderState {
  /** Answers in a row that came without token logprobs ('auto' stops asking after NO_LOGPROBS_LIMIT). */
  answersWithoutLogprobs: number;
  /** The context window in tokens, once known. */
  contextTokens: number | null;
  /** Characters per token, measured from the server's usage counts. */
  charsPerToken: number;
}

/** One proposal's request: what every call of the step shares. */
export interface StepRequest {
  model: ChatModel;
  state: ProviderState;
  input: PolicyInput;
  signal: AbortSignal | undefined;
  maxTokens: number;
  wantLogprobs: boolean;
  jsonSchema: Record<string, unknown>;
  notes: string[];
  usage: PolicyProposal['usage'];
}

/** Shrinks after context-length errors, each to a smaller listing; then the error stands. */
const MAX_SHRINKS = 3;

export const promptChars = (messages: readonly ChatMessage[]): number => messages.reduce((n, m) => n + m.content.length, 0);

/** Alternatives asked per token: enough to see every option digit at the index token. */
const topLogprobsFor = (n: number): number => Math.min(20, Math.max(5, n + 2));

/** One chat call: counts usage, keeps the provider's notes, and measures characters per token. */
export async function chatOnce(req: StepRequest, messages: ChatMessage[]): Promise<ChatResponse> {
  const { state, signal } = req;
  if (signal?.aborted) throw new ProviderError('aborted', 'The request was cancelled.');
  const response = await req.model.chat(
    {
      messages,
      temperature: req.input.temperature,
      maxTokens: state.contextTokens ? completionReserve(state.contextTokens, req.maxTokens) : req.maxTokens,
      logprobs: req.wantLogprobs,
      topLogprobs: req.wantLogprobs ? topLogprobsFor(req.input.numCandidates) : 0,
      json: true,
      jsonSchema: req.jsonSchema,
    },
    signal,
  );
  req.usage.calls++;
  req.usage.promptTokens += response.usage.promptTokens;
  req.usage.completionTokens += response.usage.completionTokens;
  if (response.notes) req.notes.push(...response.notes);
  // A count at the window's edge may be a silent truncation (Ollama): not a measurement.
  if (!state.contextTokens || response.usage.promptTokens < 0.95 * state.contextTokens) {
    state.charsPerToken = measuredCharsPerToken(promptChars(messages), response.usage.promptTokens, state.charsPerToken);
  }
  return response;
}

/** The step's page listing, shrunk as the window requires. */
class PageListing {
  /** The input with the listing as it stands now. */
  current: PolicyInput;

  constructor(private readonly req: StepRequest) {
    this.current = req.input;
  }

  /** Shrinks the listing to at most `budget` characters (and by a quarter at least); false when it cannot get smaller. */
  shrinkTo(budget: number, why: string): boolean {
    const { input, state, notes } = this.req;
    const before = this.current.renderedObservation.length;
    if (budget < MIN_OBSERVATION_CHARS) {
      throw new ProviderError(
        'context_length',
        `The model's context window (${state.contextTokens ?? '?'} tokens) is too small even for a ${MIN_OBSERVATION_CHARS}-character page listing. Load the model with a larger context length.`,
        { detail: state.contextTokens ? { contextTokens: state.contextTokens } : {} },
      );
    }
    const target = Math.min(budget, Math.floor(before * 0.75));
    const observation = truncateObservation(input.observation, { maxChars: target, task: input.task });
    const rendered = renderObservation(observation);
    if (rendered.length >= before) return false;
    this.current = { ...input, observation, renderedObservation: rendered };
    notes.push(`${why} The page listing was shrunk from ${before} to ${rendered.length} characters to fit.`);
    return true;
  }

  /** The messages, shrunk first when the window is known and they would not fit. */
  fittedMessages(): ChatMessage[] {
    const { state, maxTokens } = this.req;
    const messages = buildCandidateMessages(this.current);
    if (!state.contextTokens) return messages;
    const size = { promptChars: promptChars(messages), observationChars: this.current.renderedObservation.length };
    const budget = observationBudget(size, state.contextTokens, maxTokens, state.charsPerToken);
    if (budget === null) return messages;
    const estimate = estimateTokens(size.promptChars, state.charsPerToken);
    return this.shrinkTo(budget, `The prompt (about ${estimate} tokens) would not fit the model's context window of ${state.contextTokens} tokens.`)
      ? buildCandidateMessages(this.current)
      : messages;
  }
}

/** Sends the step's prompt, shrinking the listing after each context-length error (at most MAX_SHRINKS times). */
export async function sendFitting(req: StepRequest): Promise<{ response: ChatResponse; messages: ChatMessage[] }> {
  const { state, maxTokens } = req;
  const listing = new PageListing(req);
  let messages = listing.fittedMessages();
  let response: ChatResponse | null = null;
  for (let shrinks = 0; response === null; shrinks++) {
    try {
      response = await chatOnce(req, messages);
    } catch (err) {
      if (!isProviderError(err) || err.kind !== 'context_length' || shrinks >= MAX_SHRINKS) throw err;
      const detail = err.detail ?? {};
      if (detail.contextTokens) state.contextTokens = detail.contextTokens;
      if (detail.promptTokens) state.charsPerToken = measuredCharsPerToken(promptChars(messages), detail.promptTokens, state.charsPerToken);
      const size = { promptChars: promptChars(messages), observationChars: listing.current.renderedObservation.length };
      const budget = state.contextTokens ? observationBudget(size, state.contextTokens, maxTokens, state.charsPerToken) : null;
      const said = `The provider said the prompt exceeds the model's context window${state.contextTokens ? ` of ${state.contextTokens} tokens` : ''}.`;
      if (!listing.shrinkTo(budget ?? Math.floor(size.observationChars / 2), said)) throw err;
      messages = buildCandidateMessages(listing.current);
    }
  }
  return { response, messages };
}
