/**
 * One question to a chat model whose answer must be JSON matching a zod
 * schema: the call, then extract → repair → validate (parse-model-json.ts).
 * A failure says whether the call or the answer failed.
 */
import type * as z from 'zod';
import { describeError } from '../errors.ts';
import type { ChatModel } from '../ports.ts';
import { parseModelJson } from './parse-model-json.ts';

export type AskJsonResult<T> =
  | { ok: true; value: T; repaired: boolean }
  | { ok: false; stage: 'call' | 'answer'; error: string };

export async function askModelJson<T>(
  model: ChatModel,
  input: { system: string; user: string; schema: z.ZodType<T>; temperature: number; maxTokens: number },
  signal?: AbortSignal,
): Promise<AskJsonResult<T>> {
  let text: string;
  try {
    const response = await model.chat({
      messages: [{ role: 'system', content: input.system }, { role: 'user', content: input.user }],
      temperature: input.temperature,
      maxTokens: input.maxTokens,
      logprobs: false,
      topLogprobs: 0,
      json: true,
    }, signal);
    text = response.text;
  } catch (err) {
    return { ok: false, stage: 'call', error: describeError(err) };
  }
  const parsed = parseModelJson(text, input.schema);
  return parsed.ok ? parsed : { ok: false, stage: 'answer', error: parsed.error };
}
