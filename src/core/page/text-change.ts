/**
 * An edit of text already in a field, kept as the change rather than the
 * whole new text (issue 34, part 5): adding a line to a long page is
 * `fill(<textbox "Content">, "\n[[Category:Bridges]]", "append")`, not the
 * page plus one line. A change is read off the field's text before and after
 * the edit, and applied to whatever the field holds when it runs again.
 *
 * Kinds: append (at the end), prepend (at the start), insert after an anchor
 * (the text up to the insertion point on its line), replace an old text. An
 * anchor or an old text must occur exactly once in the field, never "the
 * first": otherwise the change does not apply and says why.
 */
import * as z from 'zod';

export const TextChangeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('append') }),
  z.strictObject({ kind: z.literal('prepend') }),
  /** Inserted right after `after`, which the field holds exactly once. */
  z.strictObject({ kind: z.literal('insert'), after: z.string().min(1) }),
  /** `old`, which the field holds exactly once, becomes the text ('' deletes it). */
  z.strictObject({ kind: z.literal('replace'), old: z.string().min(1) }),
]);
export type TextChange = z.infer<typeof TextChangeSchema>;

/** How the grammar names each kind: `fill(<t>, "text", "append")`, `fill(<t>, "text", "insert after", "anchor")`. */
export const CHANGE_WORDS = { append: 'append', prepend: 'prepend', insert: 'insert after', replace: 'replace' } as const;

/** The change's arguments after the text, as the grammar writes them. */
export function changeArgs(change: TextChange): string[] {
  switch (change.kind) {
    case 'append': case 'prepend': return [CHANGE_WORDS[change.kind]];
    case 'insert': return [CHANGE_WORDS.insert, change.after];
    case 'replace': return [CHANGE_WORDS.replace, change.old];
  }
}

/** The change the grammar's words describe, or a sentence on what is wrong. */
export function changeFromArgs(args: readonly string[]): TextChange | string {
  const [word, arg] = args;
  const extra = (kind: string) => `"${kind}" takes no further text`;
  switch (word) {
    case CHANGE_WORDS.append: return arg === undefined ? { kind: 'append' } : extra(word);
    case CHANGE_WORDS.prepend: return arg === undefined ? { kind: 'prepend' } : extra(word);
    case CHANGE_WORDS.insert: return arg ? { kind: 'insert', after: arg } : '"insert after" needs the text to insert after';
    case CHANGE_WORDS.replace: return arg ? { kind: 'replace', old: arg } : '"replace" needs the old text';
    default: return `expected "append", "prepend", "insert after" or "replace", not ${JSON.stringify(word ?? '')}`;
  }
}

export interface RecordedChange {
  /** What the change adds (inserted, or put in place of `old`). */
  text: string;
  change: TextChange;
}

const lineStart = (s: string, at: number): number => s.lastIndexOf('\n', at - 1) + 1;
const lineEnd = (s: string, at: number): number => {
  const i = s.indexOf('\n', at);
  return i < 0 ? s.length : i;
};
const count = (haystack: string, needle: string): number => {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) n++;
  return n;
};

/**
 * The edit that turned `before` into `after`, as a change; null when it is
 * no edit of kept text: the field held one line or nothing (a value typed
 * over is a new value), nothing changed, or nothing of the old text is kept.
 * The edited span is the one between the longest common start and end.
 * `multiline`: the field holds lines (SnapshotNode.multiline); there a line
 * added before or after its one line is a change too, while any other edit of
 * one line is still a new value ("abc" → "abcd" is the value "abcd").
 */
export function textChangeOf(before: string, after: string, options: { multiline?: boolean } = {}): RecordedChange | null {
  if (before === after || before === '') return null;
  if (!before.includes('\n')) return options.multiline === true ? lineAddedTo(before, after) : null;
  let p = 0;
  const most = Math.min(before.length, after.length);
  while (p < most && before[p] === after[p]) p++;
  let s = 0;
  while (s < most - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  if (p + s === 0) return null;
  const removed = before.slice(p, before.length - s);
  const added = after.slice(p, after.length - s);
  if (removed === '') {
    if (p === before.length) return { text: added, change: { kind: 'append' } };
    if (p === 0) return { text: added, change: { kind: 'prepend' } };
    // The anchor is the inserted text's line up to the insertion point; the whole previous line when that is empty.
    const from = lineStart(before, p) === p ? lineStart(before, p - 1) : lineStart(before, p);
    const after_ = before.slice(from, p);
    return count(before, after_) === 1 ? { text: added, change: { kind: 'insert', after: after_ } } : null;
  }
  if (count(before, removed) === 1) return { text: added, change: { kind: 'replace', old: removed } };
  // A short old text found elsewhere too: the whole lines it sits on.
  const from = lineStart(before, p);
  const to = lineEnd(before, before.length - s);
  const old = before.slice(from, to);
  if (old === before || count(before, old) !== 1) return null;
  return { text: after.slice(from, after.length - (before.length - to)), change: { kind: 'replace', old } };
}

/** A whole line added after or before a field's one line of text, as a change; null for any other edit. */
function lineAddedTo(line: string, after: string): RecordedChange | null {
  if (after.startsWith(line) && after.charAt(line.length) === '\n') return { text: after.slice(line.length), change: { kind: 'append' } };
  if (after.endsWith(line) && after.charAt(after.length - line.length - 1) === '\n') return { text: after.slice(0, after.length - line.length), change: { kind: 'prepend' } };
  return null;
}

export type AppliedChange =
  | { ok: true; value: string; at: number; removed: number; inserted: string }
  | { ok: false; message: string };

const quoteShort = (s: string): string => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}…` : s);

/**
 * Applies a change to what the field holds now: the new value, and where the
 * edit sits (`removed` characters from `at` give way to `inserted`). A line
 * appended (text starting with a line break) to a field that ends with one,
 * or is empty, does not add a blank line.
 */
export function applyTextChange(current: string, text: string, change: TextChange): AppliedChange {
  const edit = (at: number, removed: number, inserted: string): AppliedChange =>
    ({ ok: true, value: current.slice(0, at) + inserted + current.slice(at + removed), at, removed, inserted });
  switch (change.kind) {
    case 'append': {
      const endsLine = current === '' || current.endsWith('\n');
      if (text.startsWith('\n') && endsLine) return edit(current.length, 0, text.slice(1));
      if (text.endsWith('\n') && !text.startsWith('\n') && !endsLine) return edit(current.length, 0, `\n${text}`);
      return edit(current.length, 0, text);
    }
    case 'prepend':
      return edit(0, 0, text);
    case 'insert':
    case 'replace': {
      const needle = change.kind === 'insert' ? change.after : change.old;
      const n = count(current, needle);
      if (n === 0) return { ok: false, message: `the field no longer holds ${quoteShort(needle)}` };
      if (n > 1) return { ok: false, message: `the field holds ${quoteShort(needle)} ${n} times: which one is not known` };
      const i = current.indexOf(needle);
      return change.kind === 'insert' ? edit(i + needle.length, 0, text) : edit(i, needle.length, text);
    }
  }
}

const lines = (s: string): string[] => s.split('\n').filter((l) => l.trim() !== '');
const oneLine = (s: string): string | null => {
  const l = lines(s);
  return l.length === 1 && s.replace(/^\n+|\n+$/g, '') === l[0] ? l[0]! : null;
};

/** The change in words, for the panel: adds the line '[[Category:Bridges]]' at the end. */
export function describeChange(text: string, change: TextChange): string {
  const line = oneLine(text);
  const what = line !== null && (text.startsWith('\n') || text.endsWith('\n')) ? `the line '${line}'` : `'${text}'`;
  switch (change.kind) {
    case 'append': return `adds ${what} at the end`;
    case 'prepend': return `adds ${what} at the start`;
    case 'insert': return `adds ${what} after '${change.after.replace(/\n+$/, '')}'`;
    case 'replace': return text === '' ? `removes '${change.old}'` : `replaces '${change.old}' with ${what}`;
  }
}
