/**
 * Where a taught answer was read. An answer ("Sync Protocol") names its own
 * task's item, so it is no evidence for another instance of the task's
 * template (memory/task-binding.ts). What does carry is where the person read
 * it: the page showed it as the link `"Wiki: Sync Protocol"`, so on another
 * instance's page of that type the answer is what stands in the same place, the
 * link `"Wiki: Build Instructions"` → "Build Instructions". The place is the
 * element's role and the fixed text around the answer in its name, read once:
 * from the whole page as observed when the answer was given (the step's
 * `answerFrom`), or for records older than that from the step's rendered page
 * (secrets/page-digest.ts), which keeps only the first 4,000 characters. It is used only when exactly one text fits on each side: an answer
 * shown in several places of several shapes has no place, and a page showing
 * several elements of that shape gives no answer (which one is not known).
 */
import * as z from 'zod';
import type { PageObservation, SnapshotNode } from './observation.ts';
import { wholeWords } from './row-identifier.ts';

export const AnswerSourceSchema = z.strictObject({
  /** The element's role as the snapshot renders it ('text' for a text node). */
  role: z.string().min(1),
  /** Its name's text before the answer, and after it. */
  before: z.string(),
  after: z.string(),
});
export type AnswerSource = z.infer<typeof AnswerSourceSchema>;

/** A rendered node line: `  [12] link "Wiki: Sync Protocol" · …` or `  text "…"`. */
const LINE = /^\s*(?:\[[^\]\s]+\]\s+)?([A-Za-z][\w-]*)\s+("(?:[^"\\]|\\.)*")/;

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

function nameOf(quoted: string): string | null {
  try {
    const parsed: unknown = JSON.parse(quoted);
    return typeof parsed === 'string' ? collapse(parsed) : null;
  } catch {
    return null;
  }
}

/** The one place a rendered page (`pageDigest`) shows `answer` in an element's name; null for none or several shapes. */
export function answerSourceIn(digest: string, answer: string): AnswerSource | null {
  return placeAmong(digest.split('\n').flatMap((line) => {
    const m = LINE.exec(line);
    const name = m ? nameOf(m[2]!) : null;
    return name === null ? [] : [{ role: m![1]!, name }];
  }), answer);
}

/**
 * The same, read from the page as observed when the answer was given, whole:
 * an answer shown below what the digest keeps (a long page) still has its place.
 */
export function answerSourceOn(observation: Pick<PageObservation, 'nodes'>, answer: string): AnswerSource | null {
  return placeAmong(observation.nodes.map((n) => ({ role: roleOf(n), name: collapse(n.name) })), answer);
}

function placeAmong(elements: readonly { role: string; name: string }[], answer: string): AnswerSource | null {
  const words = wholeWords(collapse(answer));
  if (words === null) return null;
  const every = new RegExp(words.source, 'giu');
  const shapes = new Map<string, AnswerSource>();
  for (const { role, name } of elements) {
    const hits = [...name.matchAll(every)];
    if (hits.length === 0) continue;
    // The same text twice in one name: which is the answer is not known.
    if (hits.length > 1) return null;
    const at = hits[0]!.index;
    const source = { role, before: name.slice(0, at), after: name.slice(at + hits[0]![0].length) };
    shapes.set(JSON.stringify(source), source);
  }
  return shapes.size === 1 ? [...shapes.values()][0]! : null;
}

const WORD_START = /^[\p{L}\p{N}]/u;
const WORD_END = /[\p{L}\p{N}]$/u;
const roleOf = (n: SnapshotNode): string => (n.kind === 'text' ? 'text' : n.role);

/** The answer this page shows in the place `source` names: the one text there, or null for none or several. */
export function answerAt(source: AnswerSource, observation: Pick<PageObservation, 'nodes'>): string | null {
  const before = source.before.toLowerCase();
  const after = source.after.toLowerCase();
  const found = new Set<string>();
  for (const n of observation.nodes) {
    if (roleOf(n) !== source.role) continue;
    const name = collapse(n.name);
    const lower = name.toLowerCase();
    if (name.length <= before.length + after.length || !lower.startsWith(before) || !lower.endsWith(after)) continue;
    const middle = name.slice(before.length, name.length - after.length);
    // Whole words only: "Wik" + "i" is not a place around an answer.
    if ((WORD_END.test(before) && WORD_START.test(middle)) || (WORD_END.test(middle) && WORD_START.test(after))) continue;
    if (middle.trim() !== '') found.add(middle.trim());
  }
  return found.size === 1 ? [...found][0]! : null;
}
