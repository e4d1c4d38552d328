/**
 * The episode log the meta-agent reads after each attempt (Meta-TTL §3.2,
 * the H_k of Eq. 3): the guide the actor followed, the task, every step's
 * page digest and action, the final page and the outcome. Rendering is pure
 * and bounded, so one log always fits in the meta conversation.
 */
import type { FinishedStatus } from '../../../core/episode/episode.ts';

export interface EpisodeLogStep {
  url: string;
  pageTitle: string;
  /** A bounded digest of what the page showed before the action (the rendered snapshot). */
  digest: string;
  /** The action that ran, in semantic form (refs change between visits; names do not). */
  action: string;
  /** 'ok' or what went wrong. */
  outcome: string;
}

export interface EpisodeLogPage {
  url: string;
  title: string;
  digest: string;
}

export type EpisodeOutcome = FinishedStatus;

export interface EpisodeLog {
  /** 1-based attempt number at this task. */
  attempt: number;
  task: string;
  /** The guide in force during the attempt; null when the actor had none. */
  guide: string | null;
  steps: EpisodeLogStep[];
  finalPage: EpisodeLogPage | null;
  /** The agent's final message to the person, if it sent one. */
  answer: string | null;
  outcome: EpisodeOutcome;
  /** The reward in [0, 1] when one is known (benchmark), else null. */
  score: number | null;
}

export interface EpisodeLogLimits {
  /** Total characters of page digests in one log (steps and final page together). */
  digestBudget: number;
  /** Floor per step, so a long episode still shows something of every page. */
  minDigestPerStep: number;
  /** Characters of the guide shown (guides are capped where they are written, too). */
  guideChars: number;
}

export const DEFAULT_LOG_LIMITS: EpisodeLogLimits = { digestBudget: 9_000, minDigestPerStep: 240, guideChars: 4_000 };

export function clip(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Indents page text so it reads as quoted data, never as part of the log's structure. */
function quotePage(text: string, max: number): string {
  const body = clip(text, max);
  if (!body) return '    (the page showed nothing)';
  return body.split('\n').map((line) => `    ${line}`).join('\n');
}

/**
 * `[STEP k]` / `[OBS]` / `[ACTION]` blocks, as in the authors' logs. The final
 * page gets a double share of the digest budget: whether the task is done is
 * usually visible there.
 */
export function renderEpisodeLog(log: EpisodeLog, limits: EpisodeLogLimits = DEFAULT_LOG_LIMITS): string {
  const shares = log.steps.length + (log.finalPage ? 2 : 0);
  const perShare = Math.max(limits.minDigestPerStep, Math.floor(limits.digestBudget / Math.max(1, shares)));
  const lines: string[] = [
    `ATTEMPT ${log.attempt}`,
    `[GUIDE USED] ${log.guide ? '' : '(none: the actor had no guide)'}`,
  ];
  if (log.guide) lines.push(quotePage(log.guide, limits.guideChars));
  lines.push(`[TASK] ${clip(log.task, 1_000)}`);
  if (log.steps.length === 0) lines.push('(no action ran)');
  log.steps.forEach((step, i) => {
    lines.push(
      `[STEP ${i + 1}] ${clip(step.pageTitle, 120) || '(untitled)'} — ${clip(step.url, 300)}`,
      '[OBS]',
      quotePage(step.digest, perShare),
      `[ACTION] ${clip(step.action, 400)} → ${clip(step.outcome, 300)}`,
    );
  });
  if (log.finalPage) {
    lines.push(`[FINAL PAGE] ${clip(log.finalPage.title, 120) || '(untitled)'} — ${clip(log.finalPage.url, 300)}`, quotePage(log.finalPage.digest, perShare * 2));
  }
  if (log.answer !== null) lines.push(`[ANSWER TO THE PERSON] ${clip(log.answer, 600)}`);
  lines.push(`[OUTCOME] ${log.outcome}${log.score === null ? '' : ` (score ${Number(log.score.toFixed(3))} of 1)`}`);
  return lines.join('\n');
}
