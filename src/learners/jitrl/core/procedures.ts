/** What replay builds procedures from, on JitRL's side: the transitions of an episode are the steps that ran. */
import type { MemoryStore } from './transition.ts';
import type { ProcedureKnowledge, RanStep } from '../../../core/learning/learner-definition.ts';

/** Read per page type; an episode's rows are among a page's newest ones. */
const TRANSITIONS_PER_PAGE = 2_000;

export function ranTransitions(store: MemoryStore): ProcedureKnowledge {
  return {
    async ranSteps(episode) {
      const ran = new Map<string, RanStep>();
      for (const regUrl of new Set(episode.regUrls)) {
        for (const t of await store.byPage(episode.origin, regUrl, TRANSITIONS_PER_PAGE)) {
          // A rejected proposal is stored as its own row (`…:rejected:…`): it did not run.
          if (t.episodeId === episode.id && !t.id.includes(':rejected:')) ran.set(t.id, { id: t.id, regUrl: t.regUrl, action: t.action, stepIndex: t.stepIndex });
        }
      }
      return [...ran.values()];
    },
  };
}
