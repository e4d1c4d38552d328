/**
 * Pure helpers the components share: ranking candidates, reading the element
 * ref out of an action, number formatting, status wording. Kept free of
 * preact so they are tested on their own.
 */
import type { CandidateRecord, EpisodeStatus } from '../../core/episode/episode.ts';

export interface RankedCandidate {
  candidate: CandidateRecord;
  /** Index in the step's candidate list: what `pick` and `reject` refer to. */
  index: number;
  /** 1-based rank by adjusted probability. */
  rank: number;
}

/** Candidates by adjusted probability, highest first; ties keep the record's order. */
export function rankCandidates(candidates: readonly CandidateRecord[], keepOrder = false): RankedCandidate[] {
  // A step that records how its proposal was chosen is stored in proposal order
  // (the sampled proposal first, then the rest by rank): show it as stored.
  return candidates
    .map((candidate, index) => ({ candidate, index }))
    .sort((a, b) => (keepOrder ? a.index - b.index : b.candidate.adjustedProb - a.candidate.adjustedProb || a.index - b.index))
    .map((c, i) => ({ ...c, rank: i + 1 }));
}

/** The element ref of a ref-form action: `click([12])` → "12"; null for page-level actions. */
export function refOfAction(action: string): string | null {
  const m = /\[([^\][\s]+)\]/.exec(action);
  return m?.[1] ?? null;
}

/** A signed or plain number with fixed digits; an em dash for "no value". */
export function fmtNum(n: number | null | undefined, digits = 2, signed = false): string {
  if (n === null || n === undefined || Number.isNaN(n)) return '—';
  const s = n.toFixed(digits);
  return signed && n > 0 ? `+${s}` : s;
}

export function fmtPct(p: number): string {
  return `${(p * 100).toFixed(1)}%`;
}

const STATUS_TEXT: Record<EpisodeStatus, string> = {
  running: 'Thinking…',
  paused: 'Paused',
  awaiting_approval: 'Waiting for your decision',
  awaiting_verdict: 'Finished: how did it go?',
  success: 'Succeeded',
  failure: 'Failed',
  partial: 'Partly done',
  stopped: 'Stopped',
  error: 'Stopped by an error',
};
export const statusText = (s: EpisodeStatus): string => STATUS_TEXT[s];

/** Statuses after which the agent takes no more steps. */
export const isEnded = (s: EpisodeStatus): boolean =>
  s === 'awaiting_verdict' || s === 'success' || s === 'failure' || s === 'partial' || s === 'stopped' || s === 'error';

/** Ended and waiting for the person's verdict (a stopped episode is already closed). */
export const wantsVerdict = (s: EpisodeStatus): boolean => s === 'awaiting_verdict';

/** http(s) origin of a URL, or null for pages the agent cannot work on. */
export function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The tab the UI drives. `?tabId=N` in the page URL overrides the active tab:
 * the popup opened as a tab (in tests, or pinned by the person) would
 * otherwise target itself.
 */
export function tabIdFromSearch(search: string): number | null {
  const raw = new URLSearchParams(search).get('tabId');
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

export function fmtTime(ms: number): string {
  return new Date(ms).toLocaleString();
}

/** One sentence per thrown value, readable by a person (named errors keep their name). */
export { describeError as errorText } from '../../core/errors.ts';
