/** Text helpers shared by the snapshot's parts: whitespace collapsing and length caps. */

/** Longest text line or name in a snapshot. */
export const MAX_TEXT = 200;

export const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
export const cap = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
