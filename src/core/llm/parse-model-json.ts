/**
 * Turning a model's text into validated data: cut out the JSON (dropping
 * <think> blocks, prose and code fences), repair the usual malformations with
 * jsonrepair, validate with the zod schema. For candidate lists, every action
 * is also parsed with the action grammar and checked against the current page;
 * the ones that do not fit are dropped with a note.
 */
import { jsonrepair } from 'jsonrepair';
import type * as z from 'zod';
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { resolveSemanticAction } from '../page/semantic-action.ts';
import { candidateOutputSchema } from './candidate-prompt.ts';

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

export interface ParsedCandidate {
  /** The option number the model wrote. */
  option: number;
  /** Resolved to a ref target on the current observation. */
  action: Action;
  confidence: number;
  why: string;
}

export type CandidateParse =
  | { ok: true; candidates: ParsedCandidate[]; best: number | null; notes: string[]; repaired: boolean }
  | { ok: false; error: string; notes: string[] };

/**
 * Parses a candidate-proposal answer for `n` options on `observation`.
 * Extra options beyond n are cut (noted); actions that do not parse or do not
 * resolve on the page are dropped (noted); duplicates keep the first. Fails
 * when no usable action is left.
 */
export function parseCandidateOutput(raw: string, observation: PageObservation, n: number): CandidateParse {
  const notes: string[] = [];
  const trimToN = (value: unknown): unknown => {
    if (typeof value === 'object' && value !== null && Array.isArray((value as { candidates?: unknown }).candidates)) {
      const list = (value as { candidates: unknown[] }).candidates;
      if (list.length > n) {
        notes.push(`The model gave ${list.length} options; the first ${n} were kept.`);
        return { ...value, candidates: list.slice(0, n) };
      }
    }
    return value;
  };
  const parsed = parseModelJson(raw, candidateOutputSchema(n), trimToN);
  if (!parsed.ok) return { ok: false, error: parsed.error, notes };
  if (parsed.repaired) notes.push('The model output was malformed JSON and was repaired.');

  const candidates: ParsedCandidate[] = [];
  const seen = new Set<string>();
  for (const item of parsed.value.candidates) {
    const grammar = parseAction(item.action.trim());
    if (!grammar.ok) {
      notes.push(`Option ${item.option} dropped: "${item.action}" is not a valid action (${grammar.error.message}).`);
      continue;
    }
    const resolved = resolveSemanticAction(grammar.action, observation);
    if (!resolved.ok) {
      notes.push(`Option ${item.option} dropped: ${resolved.message}.`);
      continue;
    }
    const key = formatAction(resolved.action);
    if (seen.has(key)) {
      notes.push(`Option ${item.option} dropped: it repeats ${key}.`);
      continue;
    }
    seen.add(key);
    candidates.push({ option: item.option, action: resolved.action, confidence: item.confidence, why: item.why });
  }
  if (candidates.length === 0) {
    return { ok: false, error: `none of the proposed actions can run on this page (${notes.join(' ')})`, notes };
  }
  return { ok: true, candidates, best: parsed.value.best ?? null, notes, repaired: parsed.repaired };
}
