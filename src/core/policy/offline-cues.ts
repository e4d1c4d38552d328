/**
 * What the offline policy reads from a page beside element names: the
 * heading and label context of each node, which task value a field wants, an
 * answer in a line of text, and name comparisons for remembered actions.
 * Generic English and page structure only.
 */
import type { Action } from '../page/action.ts';
import type { SnapshotNode } from '../page/observation.ts';
import { rawWords, terms, type FieldIntent } from './task-intents.ts';

export const overlap = (a: Set<string>, b: Set<string>): number => {
  let n = 0;
  for (const t of a) if (b.has(t)) n++;
  return n;
};

export const isSearchField = (n: SnapshotNode): boolean =>
  n.role === 'searchbox' || n.inputType === 'search' || terms(n.name).has('search') || /^q$/i.test(n.name.trim());

/**
 * Whether the page shows a thing the task names: the phrase in one node's
 * name, value or options, or at least its capitalized words as whole words of
 * one node's name ("Garden" for "Garden category", "Red" for "Red teapot").
 * Lenient on purpose: the page is searched only when it shows no trace of it.
 */
export function showsNamedThing(nodes: readonly SnapshotNode[], phrase: string): boolean {
  const lower = phrase.toLowerCase();
  const capitals = phrase.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w)).flatMap(rawWords);
  return nodes.some((n) => {
    if (n.name.toLowerCase().includes(lower) || (n.value ?? '').toLowerCase().includes(lower)) return true;
    if (n.options?.some((o) => o.toLowerCase().includes(lower))) return true;
    if (capitals.length === 0) return false;
    const own = new Set(rawWords(n.name));
    return capitals.every((c) => own.has(c));
  });
}

/** The heading or label text just before each node (same section), for context matching. */
export function contextTerms(nodes: readonly SnapshotNode[]): Set<string>[] {
  const out: Set<string>[] = [];
  let heading = new Set<string>();
  let headingText = '';
  let recent: string[] = [];
  for (const n of nodes) {
    if (n.kind === 'heading') {
      heading = terms(n.name);
      headingText = n.name.trim().toLowerCase();
      recent = [];
    }
    // A link that is its heading's whole text (a card's title) has no context of
    // its own there: counting the heading would count its name twice.
    const ownHeading = n.kind !== 'heading' && headingText !== '' && n.name.trim().toLowerCase() === headingText;
    // The row, card or dialog the page layer found around it names it best ("Remove" in row "Alan Turing").
    const around = (n.context ?? []).map((c) => c.name).join(' ');
    out.push(new Set([...(ownHeading ? [] : heading), ...terms(recent.join(' ')), ...terms(around)]));
    if (n.kind === 'text') recent = [...recent, n.name].slice(-2);
  }
  return out;
}

/** The intent for a text field: its name (or input type) names the intent's field. */
export function intentForField(node: SnapshotNode, intents: readonly FieldIntent[]): FieldIntent | null {
  const name = terms(node.name);
  let best: { intent: FieldIntent; score: number } | null = null;
  for (const intent of intents) {
    let score = overlap(intent.field, name) * 2;
    if (intent.shape === 'email' && (node.inputType === 'email' || name.has('email') || name.has('username'))) score += 1;
    if (intent.field.has('password') !== (node.inputType === 'password')) score = node.inputType === 'password' ? 0 : score;
    if (score > 0 && (!best || score > best.score)) best = { intent, score };
  }
  return best?.intent ?? null;
}

/** A number or "label: value" answer in a line of page text. */
export function extractAnswer(text: string, kind: 'count' | 'amount' | 'value'): string | null {
  if (kind === 'amount') {
    const money = /[$€£¥]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP)/.exec(text);
    if (money) return money[0];
  }
  if (kind === 'count' || kind === 'amount') {
    // A count or an amount is a number, never a label.
    return /\d[\d,]*(?:\.\d+)?/.exec(text)?.[0] ?? null;
  }
  const colon = /:\s*(.+)$/.exec(text);
  return colon?.[1]?.trim() || null;
}


/** A name with its numbers, punctuation and spacing taken out, lower-cased. */

/** The name of the element an action targets: semantic targets carry it, ref targets are looked up. */
export function targetName(action: Action, byRef?: ReadonlyMap<string | null, SnapshotNode>): string | null {
  const target = 'target' in action ? action.target : undefined;
  if (!target) return null;
  if (target.kind === 'semantic') return target.name;
  return byRef?.get(target.ref)?.name ?? null;
}

