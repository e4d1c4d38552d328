/** A finished episode as one attempt of a Training-Free GRPO group. */
import type { Episode } from '../../../core/episode/episode.ts';
import type { AttemptOutcome, GroupAttempt } from './group.ts';

/** The person's verdict as GRPO's reward; null when the episode ended without one. */
export function outcomeOf(status: Episode['status']): AttemptOutcome | null {
  return status === 'success' || status === 'partial' || status === 'failure' ? status : null;
}

/** An attempt from an episode record: only what the person saw, the actions taken, and the verdict. */
export function attemptFromEpisode(episode: Episode): GroupAttempt | null {
  const outcome = outcomeOf(episode.status);
  if (outcome === null) return null;
  return {
    episodeId: episode.id,
    origin: episode.origin,
    task: episode.task,
    outcome,
    answer: episode.answer,
    endedAt: episode.endedAt ?? episode.startedAt,
    steps: episode.steps.flatMap((s) => s.chosen
      ? [{
          url: s.url,
          regUrl: s.regUrl,
          title: s.pageTitle ?? null,
          digest: s.pageDigest ?? null,
          action: s.chosen.semantic,
          ok: s.result?.ok !== false,
          error: s.result && !s.result.ok ? s.result.message : null,
        }]
      : []),
  };
}
