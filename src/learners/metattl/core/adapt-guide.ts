/**
 * Adapt(φ, H_k) of Meta-TTL Algorithm 1: one meta-agent call that reads the
 * kept episode logs and writes the next guide (Eq. 3). The conversation is the
 * system prompt built from the strategy φ plus one user message per kept
 * attempt. A malformed answer gets one corrective retry, then is dropped: the
 * caller keeps the guide in force.
 */
import { describeError } from '../../../core/errors.ts';
import type { ChatMessage, ChatModel } from '../../../core/ports.ts';
import { parseMetaAnswer, type MetaAnswer } from './meta-answer.ts';
import { buildMetaSystemPrompt } from './meta-prompt.ts';

export interface AdaptInput {
  strategy: string;
  /** Rendered episode logs, oldest first; the last one is the attempt just finished. */
  conversation: readonly string[];
  /** Attempts whose logs were dropped by the cap (said to the meta-agent). */
  omitted: number;
  temperature: number;
  maxTokens: number;
}

export interface AdaptUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export type AdaptResult =
  | { ok: true; answer: MetaAnswer; repairs: string[]; usage: AdaptUsage }
  | { ok: false; error: string; usage: AdaptUsage };

export function buildMetaMessages(input: Pick<AdaptInput, 'strategy' | 'conversation' | 'omitted'>): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'system', content: buildMetaSystemPrompt(input.strategy) }];
  input.conversation.forEach((log, i) => {
    const prefix = i === 0 && input.omitted > 0 ? `(${input.omitted} earlier attempt${input.omitted === 1 ? '' : 's'} not shown)\n` : '';
    const last = i === input.conversation.length - 1;
    messages.push({
      role: 'user',
      content: `${prefix}${log}${last ? '\n\nWrite the diagnosis and the complete guide for the next attempt, as the JSON object described above.' : ''}`,
    });
  });
  return messages;
}

export async function adaptGuide(model: ChatModel, input: AdaptInput, signal?: AbortSignal): Promise<AdaptResult> {
  const usage: AdaptUsage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  if (input.conversation.length === 0) return { ok: false, error: 'no attempt to learn from', usage };
  const messages = buildMetaMessages(input);
  let lastError = '';
  for (let tries = 0; tries < 2; tries++) {
    let text: string;
    try {
      const response = await model.chat({ messages, temperature: input.temperature, maxTokens: input.maxTokens, logprobs: false, topLogprobs: 0, json: true }, signal);
      usage.calls++;
      usage.promptTokens += response.usage.promptTokens;
      usage.completionTokens += response.usage.completionTokens;
      text = response.text;
    } catch (err) {
      return { ok: false, error: `the meta-agent call failed: ${describeError(err)}`, usage };
    }
    const parsed = parseMetaAnswer(text);
    if (parsed.ok) return { ok: true, answer: parsed.answer, repairs: parsed.repairs, usage };
    lastError = parsed.error;
    messages.push(
      { role: 'assistant', content: text.slice(0, 4_000) },
      { role: 'user', content: `That answer could not be used: ${parsed.error}. Answer again with only the JSON object {"diagnosis": "…", "guide": "…"}.` },
    );
  }
  return { ok: false, error: `the meta-agent's answer was unusable twice (${lastError}); the guide in force was kept`, usage };
}
