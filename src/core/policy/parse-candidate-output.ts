/**
 * Parses the model's candidate proposal: the JSON answer, repaired once, then
 * each option's action parsed and resolved on the current page. Generic JSON
 * extraction and repair live in llm/parse-model-json.ts.
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { resolveSemanticAction } from '../page/semantic-action.ts';
import { parseModelJson } from '../llm/parse-model-json.ts';
import { candidateOutputSchema } from './candidate-prompt.ts';

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
