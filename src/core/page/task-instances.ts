/**
 * Two tasks that are instances of one template ("Add the Kettle to my cart",
 * "Add the Desk lamp to my cart") differ only in their values. This module
 * finds those values by aligning the two texts word by word (the longest
 * common subsequence is the template; the gaps between its words, on both
 * sides, are the values), and rewrites what one instance's person taught in
 * the other's values: `fill(<searchbox "Search">, "Kettle")` becomes
 * `fill(<searchbox "Search">, "Desk lamp")`. The stored experience keeps its
 * literal values; each value stands as a variable bound at retrieval time
 * (skill variables, applied to remembered steps). It uses no
 * site's vocabulary: only the two task texts.
 */

interface Word { text: string; start: number; end: number }

/**
 * Words, and the brackets and separators between values: "Invite Ada Byron
 * (ada@example.com)" has two values, not one "Ada Byron (ada@example.com".
 * A quoted phrase is one value, whatever words it shares with the template:
 * "Dark theme for the editor" is not split at its "the".
 */
const WORD = /"([^"\n]+)"|“([^”\n]+)”|[\p{L}\p{N}](?:[\p{L}\p{N}@._'’+-]*[\p{L}\p{N}])?|[()[\]{}:;,]/gu;
function words(text: string): Word[] {
  return [...text.matchAll(WORD)].map((m) => {
    const quoted = m[1] ?? m[2];
    if (quoted === undefined) return { text: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length };
    // The value is what is inside the quotes; its text keeps a mark so it never equals a bare word.
    return { text: `"${quoted.toLowerCase()}"`, start: m.index + 1, end: m.index + 1 + quoted.length };
  });
}

/**
 * A possessive ending both values share ("Lee Chen's role" / "Aiko Tanaka's
 * role") is the template's, not the value's: the item a page shows is "Lee
 * Chen", and only the bare name is found in its row (page/row-identifier.ts).
 */
const POSSESSIVE = /['’]s$/u;

/** At most this many values: more gaps than that is another task, not another instance. */
export const MAX_VALUES = 4;

/**
 * source value (lower case) → target value (as the target task writes it),
 * or null when the tasks are not two instances of one template: identical,
 * a gap on one side only (a word added or dropped), fewer template words than
 * value words, or more than MAX_VALUES values.
 */
export function instanceValues(source: string, target: string): Map<string, string> | null {
  const a = words(source);
  const b = words(target);
  if (a.length === 0 || b.length === 0) return null;
  // LCS table over words.
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i]!.text === b[j]!.text ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const common = lcs[0]![0]!;
  if (common === 0 || common === Math.max(a.length, b.length)) return null;
  if (common < Math.max(a.length, b.length) - common) return null;
  const values = new Map<string, string>();
  let i = 0;
  let j = 0;
  const gap = (i0: number, i1: number, j0: number, j1: number): boolean => {
    if (i0 === i1 && j0 === j1) return true;
    if (i0 === i1 || j0 === j1) return false;
    let from = source.slice(a[i0]!.start, a[i1 - 1]!.end).toLowerCase();
    let to = target.slice(b[j0]!.start, b[j1 - 1]!.end);
    if (POSSESSIVE.test(from) && POSSESSIVE.test(to)) {
      from = from.slice(0, -2);
      to = to.slice(0, -2);
    }
    const known = values.get(from);
    if (known !== undefined && known.toLowerCase() !== to.toLowerCase()) return false;
    values.set(from, to);
    return true;
  };
  let gi = 0;
  let gj = 0;
  while (i < a.length && j < b.length) {
    if (a[i]!.text === b[j]!.text) {
      if (!gap(gi, i, gj, j)) return null;
      i++;
      j++;
      gi = i;
      gj = j;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else j++;
  }
  if (!gap(gi, a.length, gj, b.length)) return null;
  if (values.size === 0 || values.size > MAX_VALUES) return null;
  return values;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces each source value (whole words, any case) by its target value; longer values first, in one pass. */
export function rebindValues(text: string, values: ReadonlyMap<string, string>): string {
  const sources = [...values.keys()].sort((x, y) => y.length - x.length);
  if (sources.length === 0) return text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${sources.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(pattern, (m) => values.get(m.toLowerCase()) ?? m);
}

/** Whether any source value occurs in the text (whole words, any case). */
export function mentionsValues(text: string, values: ReadonlyMap<string, string>): boolean {
  return rebindValues(text, values) !== text;
}
