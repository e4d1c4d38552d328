/**
 * Whether typing a text may submit a form by its line breaks. A line break
 * typed into a field of lines (`SnapshotNode.multiline`: a <textarea>,
 * aria-multiline) is text: the page layer inserts it without an Enter key
 * event, so neither the browser nor a page's own Enter handler sends anything.
 * Anywhere else (or with a carriage return, typed as a key) it is an Enter.
 */
import type { SnapshotNode } from './observation.ts';

export function lineBreakMaySubmit(text: string, node: Pick<SnapshotNode, 'multiline'> | undefined): boolean {
  return node?.multiline === true ? text.includes('\r') : /[\r\n]/.test(text);
}
