/**
 * CER §3.1, the offline distiller (no model): dynamics from the pages
 * visited, and one skill from the executed actions, with the task's values
 * abstracted into {variables}.
 */
import type { Episode } from '../../../core/episode/episode.ts';
import { formatAction as formatSemantic } from '../../../core/page/action-grammar.ts';
import { dynamicsId, skillId, type DynamicsEntry, type ExperienceEntry, type SkillEntry, type SkillStep } from './experience.ts';
import { abstractActions, type Abstraction } from '../../../core/learning/shared/skill-variables.ts';
import { stepEvidence } from '../../../core/credit/step-credit.ts';
import { taskWords } from '../../../core/page/tokenize.ts';
import { pageNameFromUrl } from '../../../core/learning/shared/page-name.ts';
import {
  describeAction, executedSteps, existingSkillId, MAX_SKILL_STEPS, newProvenance, nonEmpty,
  type DistillInput, type DistillResult, type ExecutedStep,
} from './distill-common.ts';

const DEAD_END: ReadonlySet<Episode['status']> = new Set(['failure', 'error', 'stopped']);

/**
 * The offline distiller. Dynamics: one entry per page type visited, named from
 * its title when known (else from the URL), described by what was done there.
 * Skill: the executed actions that worked, with the task's values abstracted;
 * only from episodes that did not fail, because offline nothing tells which
 * part of a failed run was right (the model path can still learn from those).
 */
export function distillOffline(input: DistillInput, existing: readonly ExperienceEntry[], now: number): DistillResult {
  const { episode } = input;
  const notes: string[] = [];
  const executed = executedSteps(episode, notes);
  if (executed.length === 0) return { entries: [], reason: 'the episode has no executed actions to learn from', notes };

  const abstraction = abstractActions(episode.task, executed.map((e) => e.action));
  const entries: ExperienceEntry[] = offlineDynamics(input, executed, abstraction, existing, now);

  if (DEAD_END.has(episode.status)) {
    notes.push(`no skill distilled offline from a ${episode.status} episode`);
  } else {
    const skill = offlineSkill(episode, executed, abstraction, existing, now);
    if (skill) entries.push(skill);
    else notes.push('no action of the episode succeeded: no skill distilled');
  }
  return { entries, reason: null, notes };
}

/** One dynamics entry per page type, in order of first visit. */
function offlineDynamics(
  input: DistillInput,
  executed: readonly ExecutedStep[],
  abstraction: Abstraction,
  existing: readonly ExperienceEntry[],
  now: number,
): DynamicsEntry[] {
  const { episode } = input;
  const abstractByIndex = new Map(executed.map((e, i) => [e.index, abstraction.actions[i]!]));
  const knownDynamics = new Map(
    existing.filter((e): e is DynamicsEntry => e.kind === 'dynamics').map((e) => [e.regUrl, e]),
  );
  const pages = new Map<string, { url: string; title: string | null; observation: string | null; usages: string[] }>();
  episode.steps.forEach((step, index) => {
    const page = pages.get(step.regUrl) ?? { url: step.url, title: null, observation: null, usages: [] };
    page.title ??= nonEmpty(input.pageTitles?.[index]);
    page.observation ??= nonEmpty(input.observations?.[index]);
    const abstract = abstractByIndex.get(index);
    const ran = executed.find((e) => e.index === index);
    if (abstract && ran?.ok && abstract.type !== 'send_msg_to_user' && abstract.type !== 'report_infeasible') {
      const usage = describeAction(abstract);
      if (!page.usages.includes(usage)) page.usages.push(usage);
    }
    pages.set(step.regUrl, page);
  });
  const entries: DynamicsEntry[] = [];
  for (const [regUrl, page] of pages) {
    const known = knownDynamics.get(regUrl);
    const pageName = page.title ?? known?.pageName ?? pageNameFromUrl(regUrl);
    const description = page.observation
      ?? (page.usages.length > 0
        ? `A page used on the way to: ${abstraction.name}. Controls used here: ${page.usages.join('; ')}.`
        : `A page passed through on the way to: ${abstraction.name}.`);
    entries.push({
      id: known?.id ?? dynamicsId(episode.origin, regUrl),
      origin: episode.origin,
      kind: 'dynamics',
      pageName,
      description,
      usages: page.usages,
      regUrl,
      exampleUrl: page.url,
      provenance: newProvenance(episode, now),
    });
  }
  return entries;
}

/** The skill the executed actions that worked make, or null when none worked. */
function offlineSkill(
  episode: Episode,
  executed: readonly ExecutedStep[],
  abstraction: Abstraction,
  existing: readonly ExperienceEntry[],
  now: number,
): SkillEntry | null {
  const steps: SkillStep[] = [];
  let last = '';
  // A skill is the way, not the detours: steps that went round a loop and
  // came back to a page as it was (A → … → A) are left out, as the model
  // distiller is told to "keep only what worked". Without page keys
  // (imports, older records) every step stays.
  // A detour on the wrong item that changed state (the list page does not
  // come back as it was) is left out too (`wrongItemDetours`).
  const detour = stepEvidence(
    executed.map((e) => ({ pageKey: e.step.pageKey ?? null, action: e.step.chosen?.semantic ?? '', ok: e.ok, margin: null, url: e.step.url, regUrl: e.step.regUrl })),
    taskWords(episode.task),
  ).map((ev) => ev === 'loop' || ev === 'undone' || ev === 'detour');
  executed.forEach((e, i) => {
    if (!e.ok || detour[i]) return;
    const abstract = abstraction.actions[i]!;
    const text = formatSemantic(abstract);
    if (text === last) return; // a repeated action (retyping, double click) is one step
    last = text;
    steps.push({ text: describeAction(abstract), exampleActions: [text], regUrl: e.step.regUrl });
  });
  if (steps.length === 0) return null;
  const name = abstraction.name;
  return {
    id: existingSkillId(existing, name) ?? skillId(episode.origin, name),
    origin: episode.origin,
    kind: 'skill',
    name,
    variables: abstraction.variables,
    steps: steps.slice(0, MAX_SKILL_STEPS),
    provenance: newProvenance(episode, now),
  };
}
