/**
 * The meta-agent's episode log from a finished trajectory: each executed step's
 * page (title, URL, the digest the seam keeps, secrets already masked) and its
 * action with how it went. The trajectory holds no observation after the last
 * action, so the last page shown is the one the last action was taken on.
 */
import type { Episode } from '../../../core/episode/episode.ts';
import type { FinishedEpisode } from '../../../core/learning/learner.ts';
import type { EpisodeLog, EpisodeOutcome } from './episode-log.ts';

function outcomeOf(status: Episode['status']): EpisodeOutcome {
  switch (status) {
    case 'success':
    case 'failure':
    case 'partial':
    case 'stopped':
    case 'error':
      return status;
    default:
      // Running or awaiting states do not reach `learn`; treat a stray one as stopped.
      return 'stopped';
  }
}

export function episodeLogFromTrajectory(finished: FinishedEpisode, guide: string | null, score: number | null = null): EpisodeLog {
  const { episode } = finished;
  const steps = episode.steps
    .filter((s) => s.chosen)
    .map((s) => ({
      url: s.url,
      pageTitle: s.pageTitle ?? '',
      digest: s.pageDigest ?? '',
      action: s.chosen!.semantic,
      outcome: s.result === null ? 'not run' : s.result.ok ? 'ok' : `failed: ${s.result.message}`,
    }));
  return {
    attempt: episode.attempt,
    task: episode.task,
    guide,
    steps,
    finalPage: null,
    answer: episode.answer,
    outcome: outcomeOf(episode.status),
    score,
  };
}
