/** What replay builds procedures from, on CER's side: its skills are the templates. */
import type { ProcedureKnowledge } from '../../../core/learning/learner-definition.ts';
import type { ExperienceStore } from './experience-store.ts';
import type { SkillEntry } from './experience.ts';

export function skillTemplates(store: ExperienceStore): ProcedureKnowledge {
  return {
    templates: async (origin) =>
      (await store.list(origin))
        .filter((e): e is SkillEntry => e.kind === 'skill')
        .map((skill) => ({ id: skill.id, origin: skill.origin, name: skill.name, steps: skill.steps, episodeIds: skill.provenance.episodeIds })),
  };
}
