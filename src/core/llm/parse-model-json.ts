/**
 * Turning a model's text into validated data: cut out the JSON (dropping
 * <think> blocks, prose and code fences), repair the usual malformations with
 * jsonrepair, validate with the zod schema. Candidate lists are parsed on top
 * of this in policy/parse-candidate-output.ts.
 */
import { jsonrepair } from 'jsonrepair';
import type * as z from 'zod';

/** Removes reasoning blocks some models emit before the answer. */
export function stripThinking(raw: string): string {
  let s = raw.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '');
  // A provider that strips the opening tag leaves a lone closing one: drop what precedes it.
  const close = /<\/think(?:ing)?>/i.exec(s);
  if (close) s = s.slice(close.index + close[0].length);
  // An unterminated block (cut off while thinking) holds no answer.
  s = s.replace(/<think(?:ing)?>[\s\S]*$/i, '');
  return s;
}

/** The first balanced {...} from `start`, honouring strings; to the end when cut off. */
function balancedObject(s: string, start: number): string {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return s.slice(start, i + 1);
    }
  }
  return s.slice(start);
}

/** The JSON text in a model answer: the first fenced block holding an object, else the first {...}. */
export function extractJsonText(raw: string): string | null {
  const s = stripThinking(raw);
  for (const m of s.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)(?:```|$)/g)) {
    const body = m[1] ?? '';
    const brace = body.indexOf('{');
    if (brace >= 0) return balancedObject(body, brace).trim();
  }
  const brace = s.indexOf('{');
  return brace >= 0 ? balancedObject(s, brace).trim() : null;
}

export type JsonExtraction = { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string };

/** Extracts and parses the JSON object, repairing it once with jsonrepair when plain parsing fails. */
export function extractModelJson(raw: string): JsonExtraction {
  const text = extractJsonText(raw);
  if (text === null) return { ok: false, error: 'the answer contains no JSON object' };
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch {
    try {
      return { ok: true, value: JSON.parse(jsonrepair(text)), repaired: true };
    } catch (err) {
      return { ok: false, error: `the JSON could not be repaired (${err instanceof Error ? err.message : String(err)})` };
    }
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : 'answer'}: ${i.message}`)
    .join('; ');
}

export type ModelJsonResult<T> = { ok: true; value: T; repaired: boolean } | { ok: false; error: string };

/** Extract, repair, validate against `schema`. */
export function parseModelJson<T>(raw: string, schema: z.ZodType<T>, prepare?: (value: unknown) => unknown): ModelJsonResult<T> {
  const extracted = extractModelJson(raw);
  if (!extracted.ok) return extracted;
  const checked = schema.safeParse(prepare ? prepare(extracted.value) : extracted.value);
  if (!checked.success) return { ok: false, error: `the JSON does not match the schema (${describeIssues(checked.error)})` };
  return { ok: true, value: checked.data, repaired: extracted.repaired };
}
