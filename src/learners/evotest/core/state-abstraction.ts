/**
 * The declarative stand-in for the paper's evolvable state extractor: a page
 * digest (the rendered snapshot a trajectory step keeps) is reduced to the
 * parts the configuration keeps, and milestone phrases found in it become
 * "Milestone: …" lines. Matching is plain, case-insensitive substring search:
 * nothing evolved is ever run as code or compiled as a pattern.
 */
import type { DigestPart, StateAbstraction } from './configuration.ts';

const LANDMARK_ROLES = new Set(['main', 'navigation', 'banner', 'contentinfo', 'complementary', 'form', 'region', 'search', 'dialog']);

/** Which part of a digest a rendered snapshot line belongs to (see render-observation.ts for the format). */
export function digestPartOf(line: string): DigestPart | null {
  const t = line.trim();
  if (t === '') return null;
  if (t.startsWith('Page: ')) return 'title';
  if (t.startsWith('[')) return /\bvalue=|\bchecked\b|\bselected\b/.test(t) ? 'values' : 'controls';
  const role = /^[a-z]+/.exec(t)?.[0] ?? '';
  if (role === 'heading') return 'headings';
  if (role === 'text') return 'text';
  if (LANDMARK_ROLES.has(role)) return 'landmarks';
  return null; // Off-screen / Omitted notes and other structure
}

/** The kept lines of a digest, in page order, at most `maxLines`. A control with a value counts as a control too. */
export function abstractDigest(digest: string, rules: StateAbstraction): string[] {
  const keep = new Set(rules.keep);
  const out: string[] = [];
  for (const line of digest.split('\n')) {
    const part = digestPartOf(line);
    if (part === null) continue;
    if (!keep.has(part) && !(part === 'values' && keep.has('controls'))) continue;
    out.push(line.trim());
    if (out.length >= rules.maxLines) break;
  }
  return out;
}

/** Milestone phrases that occur in the digest, in the rules' order. */
export function milestonesIn(digest: string, rules: StateAbstraction): string[] {
  const text = digest.toLowerCase();
  return rules.milestonePhrases.filter((p) => text.includes(p.toLowerCase()));
}

/** The quoted names of headings and texts in a digest (milestone candidates for the offline evolver). */
export function salientPhrases(digest: string): string[] {
  const out: string[] = [];
  for (const line of digest.split('\n')) {
    const part = digestPartOf(line);
    if (part !== 'headings' && part !== 'text' && part !== 'title') continue;
    const name = part === 'title' ? /^Page: (.*) \(/.exec(line.trim())?.[1] : /"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
    if (name && name.length >= 3 && name.length <= 60 && !out.includes(name)) out.push(name);
  }
  return out;
}
