/**
 * One question to a model whose answer must be JSON matching a zod schema:
 * a system and a user message, JSON mode, no logprobs; the answer is cut out,
 * repaired once and validated (parse-model-json.ts). A failed call or an
 * unusable answer comes back as `{ ok: false, error }`, never as a throw, so
 * learners can stay best-effort.
 */
import type * as z from 'zod';
import { describeError } from '../errors.ts';
import type { ChatModel } from '../ports.ts';
import { parseModelJson, type ModelJsonResult } from './parse-model-json.ts';

export interface JsonQuestion<T> {
  system: string;
  user: string;
  schema: z.ZodType<T>;
  temperature: number;
  maxTokens: number;
}

const CALL_FAILED = 'the model call failed: ';

/** Why the call itself failed (the provider, the network), or null when the model answered, usably or not. */
export function modelCallFailure(result: ModelJsonResult<unknown>): string | null {
  return !result.ok && result.error.startsWith(CALL_FAILED) ? result.error.slice(CALL_FAILED.length) : null;
}

export async function askModelJson<T>(model: ChatModel, question: JsonQuestion<T>, signal?: AbortSignal): Promise<ModelJsonResult<T>> {
  let text: string;
  try {
    const response = await model.chat({
      messages: [{ role: 'system', content: question.system }, { role: 'user', content: question.user }],
      temperature: question.temperature,
      maxTokens: question.maxTokens,
      logprobs: false,
      topLogprobs: 0,
      json: true,
    }, signal);
    text = response.text;
  } catch (err) {
    return { ok: false, error: `${CALL_FAILED}${describeError(err)}` };
  }
  return parseModelJson(text, question.schema);
}
