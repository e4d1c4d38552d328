/**
 * Use (§2: the policy conditions on E, π(o | q, E)): the library — or, when
 * it is larger than the prompt budget, the part most relevant to the task and
 * the current page — goes into the prompt as numbered experiences. Each
 * experience is its own section, so the step record lists exactly which ones
 * the policy saw. A rule hint on the current page type, learned on this
 * task's template, also lists its actions, bound to this task's values, for
 * the offline policy to score.
 */
import { jaccard, tokenize } from '../../../core/page/tokenize.ts';
import type { PromptSection } from '../../../core/policy/policy.ts';
import { bindVariables, instantiateAction, matchNamePattern } from '../../../core/learning/shared/skill-variables.ts';
import { taskTemplate } from './group.ts';
import { usefulness, type ExperienceHint, type TfgrpoExperience } from './experience.ts';

/** Relevance: the current page's hints first, then overlap with the task, then proven usefulness. */
export function relevance(e: TfgrpoExperience, task: string, regUrl: string): number {
  return (e.hint?.pageType === regUrl ? 1 : 0) + jaccard(tokenize(e.text), tokenize(task)) + 0.25 * usefulness(e);
}

/** At most `max` experiences, in library order (the numbering stays stable within a library). */
export function selectForPrompt(library: readonly TfgrpoExperience[], task: string, regUrl: string, max: number): TfgrpoExperience[] {
  if (library.length <= max) return [...library];
  const keep = new Set(
    library
      .map((e, i) => ({ e, i, score: relevance(e, task, regUrl) }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, max)
      .map((x) => x.e.id),
  );
  return library.filter((e) => keep.has(e.id));
}

/** The hint's actions with the task's values bound; actions with an unbound variable are left out. */
export function instantiateHint(hint: ExperienceHint, task: string): { prefer: string[]; avoid: string[] } {
  const variables = [...new Set([...hint.prefer, ...hint.avoid].flatMap((a) => [...a.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!.trim())))];
  const values = bindVariables(hint.taskPattern, variables, task);
  const bind = (xs: readonly string[]) => xs.flatMap((x) => instantiateAction(x, values) ?? []);
  return { prefer: bind(hint.prefer), avoid: bind(hint.avoid) };
}

/**
 * Whether an experience's hint speaks for this task: the task is an instance
 * of a template whose group taught or updated it (same words once quoted
 * values and numbers are set aside, `taskTemplate`), or it reads as the
 * hint's abstract pattern (its {variables} take other values). A contrast
 * learned on "add X to my cart" says nothing about "save X to my wish list"
 * on the same page type: its actions are that task's recipe, as other learners
 * bind remembered actions to their task.
 */
export function hintAppliesTo(e: Pick<TfgrpoExperience, 'hint' | 'provenance'>, task: string): boolean {
  if (!e.hint) return false;
  const template = taskTemplate(task);
  if ([e.provenance.createdBy, ...e.provenance.updatedBy].some((g) => taskTemplate(g.task) === template)) return true;
  return matchNamePattern(e.hint.taskPattern, task) !== null;
}

export function experienceSections(selected: readonly TfgrpoExperience[], task: string, regUrl: string): PromptSection[] {
  return selected.map((e, i) => {
    const section: PromptSection = { id: e.id, title: `Experience ${i + 1}`, text: e.text };
    if (e.hint && e.hint.pageType === regUrl && hintAppliesTo(e, task)) {
      const { prefer, avoid } = instantiateHint(e.hint, task);
      if (prefer.length > 0) section.suggestedActions = prefer;
      if (avoid.length > 0) section.discouragedActions = avoid;
    }
    return section;
  });
}
