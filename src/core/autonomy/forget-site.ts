/**
 * "Forget this site" for the episode store (issue 30). The gate reads each
 * step's own origin (approval-history.ts), so deleting only the tasks that
 * started on the site left approvals earned there from a task that started
 * elsewhere. Tasks that started on the site go whole; from every other task,
 * the steps on the site go. The counts say what went, for the panel.
 */
import { personDecisionsOf } from './approval-history.ts';
import type { Episode } from '../episode/episode.ts';
import type { EpisodeStore } from '../episode/episode-store.ts';

export interface ForgottenEpisodes {
  /** Tasks that started on the site, deleted whole. */
  episodes: number;
  /** Steps removed: those of the deleted tasks, and those on the site in other tasks. */
  steps: number;
  /** The person's decisions those steps held (approvals, teachings, rejections, corrections), and of them the approvals and teachings. */
  decisions: number;
  approvals: number;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The decisions in these steps, as the gate would count them. */
function decisionCounts(episode: Episode, steps: Episode['steps']): { decisions: number; approvals: number } {
  const decisions = personDecisionsOf([{ ...episode, steps }]);
  return { decisions: decisions.length, approvals: decisions.filter((d) => d.verdict === 'approved' || d.verdict === 'taught').length };
}

export async function forgetSiteEpisodes(store: EpisodeStore, site: string): Promise<ForgottenEpisodes> {
  const origin = originOf(site) ?? site;
  const out: ForgottenEpisodes = { episodes: 0, steps: 0, decisions: 0, approvals: 0 };
  const add = (episode: Episode, steps: Episode['steps']) => {
    const counts = decisionCounts(episode, steps);
    out.steps += steps.length;
    out.decisions += counts.decisions;
    out.approvals += counts.approvals;
  };
  for (const episode of await store.all()) {
    if ((originOf(episode.origin) ?? episode.origin) === origin) {
      add(episode, episode.steps);
      await store.delete(episode.id);
      out.episodes++;
      continue;
    }
    const gone = episode.steps.filter((s) => originOf(s.url) === origin);
    if (gone.length === 0) continue;
    add(episode, gone);
    await store.put({ ...episode, steps: episode.steps.filter((s) => originOf(s.url) !== origin) });
  }
  return out;
}
