/**
 * The meta-agent's answer: a diagnosis and the complete next guide. Parsed
 * once; a malformed answer is repaired (JSON repair, or the authors'
 * `<learn>…</learn>` form) or dropped with a reason — it never reaches storage.
 */
import * as z from 'zod';
import { parseModelJson, stripThinking } from '../../../core/llm/parse-model-json.ts';

export const MAX_GUIDE_CHARS = 4_000;
export const MAX_DIAGNOSIS_CHARS = 2_000;

export const MetaAnswerSchema = z.object({
  diagnosis: z.string().describe('What happened in the latest attempt and why, in a few sentences.'),
  guide: z.string().min(1).describe('The complete guide for the next attempt, addressed to the actor. It replaces the previous guide.'),
});
export type MetaAnswer = z.infer<typeof MetaAnswerSchema>;

export type MetaAnswerParse =
  | { ok: true; answer: MetaAnswer; repairs: string[] }
  | { ok: false; error: string };

const LEARN_BLOCK = /<learn>([\s\S]*?)(?:<\/learn>|$)/i;

/** Trims, caps, and rejects a guide that is empty or only punctuation. */
function settle(answer: MetaAnswer, repairs: string[]): MetaAnswerParse {
  const guide = answer.guide.trim();
  if (!/[\p{L}\p{N}]/u.test(guide)) return { ok: false, error: 'the guide is empty' };
  const out: MetaAnswer = { diagnosis: answer.diagnosis.trim().slice(0, MAX_DIAGNOSIS_CHARS), guide };
  if (guide.length > MAX_GUIDE_CHARS) {
    out.guide = guide.slice(0, MAX_GUIDE_CHARS).trimEnd();
    repairs.push(`the guide was cut to ${MAX_GUIDE_CHARS} characters`);
  }
  return { ok: true, answer: out, repairs };
}

export function parseMetaAnswer(raw: string): MetaAnswerParse {
  const parsed = parseModelJson(raw, MetaAnswerSchema);
  if (parsed.ok) return settle(parsed.value, parsed.repaired ? ['the JSON was malformed and was repaired'] : []);
  // The authors' answer form: <think>…</think><learn>guide</learn>.
  const learn = LEARN_BLOCK.exec(raw.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, ''));
  if (learn && learn[1]?.trim()) {
    const thinking = /<think(?:ing)?>([\s\S]*?)<\/think(?:ing)?>/i.exec(raw)?.[1] ?? '';
    return settle({ diagnosis: thinking, guide: learn[1] }, ['the answer used <learn> tags instead of JSON']);
  }
  const bare = stripThinking(raw).trim();
  if (bare.length === 0) return { ok: false, error: 'the answer was empty' };
  return { ok: false, error: parsed.error };
}
