/**
 * CER §3.2–3.3: choosing the top k_d dynamics and k_s skills for a task and
 * turning them into prompt sections. With a model, the model picks entry
 * numbers from the listed buffer (one call per kind, validated); offline, or
 * when the model fails, a lexical ranker does. Skills are instantiated with
 * the new task's values where the task allows it.
 */
import * as z from 'zod';
import { boundToOtherTask } from '../../../core/page/task-binding.ts';
import { formatTarget, parseAction } from '../../../core/page/action-grammar.ts';
import { isSettingAction } from '../../../core/page/action-vocabulary.ts';
import { askModelJson, modelCallFailure } from '../../../core/llm/ask-model-json.ts';
import { tokenize } from '../../../core/page/tokenize.ts';
import type { PromptSection } from '../../../core/policy/policy.ts';
import type { ChatModel } from '../../../core/ports.ts';
import { entryText, usefulness } from './buffer.ts';
import type { DynamicsEntry, ExperienceEntry, SkillEntry } from './experience.ts';
import { bindVariables, instantiateAction, matchNamePattern, substitute } from '../../../core/learning/shared/skill-variables.ts';

export interface Selection {
  dynamics: DynamicsEntry[];
  skills: SkillEntry[];
}

/** Bonus for the dynamics of the page type the agent is on: it says what this page is for. */
export const CURRENT_PAGE_BONUS = 1;
/** Bonus for a skill whose abstract name reads the task exactly (same template, other values). */
export const NAME_PATTERN_BONUS = 0.5;

/**
 * Below this an entry shares only a stray word with the task ("in", "to"),
 * which is noise in the prompt rather than experience.
 */
export const MIN_LEXICAL_SCORE = 0.1;

/** Set cosine |T ∩ E| / √(|T|·|E|): unlike Jaccard it does not punish an entry for being long. */
export function overlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  let shared = 0;
  for (const t of new Set(a)) if (setB.has(t)) shared++;
  return shared / Math.sqrt(new Set(a).size * setB.size);
}

export function lexicalScore(entry: ExperienceEntry, task: string, regUrl: string | null): number {
  const base = overlap(tokenize(task), tokenize(entryText(entry)));
  if (entry.kind === 'dynamics') return base + (regUrl !== null && entry.regUrl === regUrl ? CURRENT_PAGE_BONUS : 0);
  return base + (matchNamePattern(entry.name, task) ? NAME_PATTERN_BONUS : 0);
}

function rankKind<E extends ExperienceEntry>(entries: readonly E[], task: string, regUrl: string | null, k: number): E[] {
  return entries
    .map((entry) => ({ entry, score: lexicalScore(entry, task, regUrl) }))
    .filter((x) => x.score >= MIN_LEXICAL_SCORE)
    .sort((a, b) => b.score - a.score
      || usefulness(b.entry) - usefulness(a.entry)
      || b.entry.provenance.updatedAt - a.entry.provenance.updatedAt
      || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0))
    .slice(0, k)
    .map((x) => x.entry);
}

const isDynamics = (e: ExperienceEntry): e is DynamicsEntry => e.kind === 'dynamics';
const isSkill = (e: ExperienceEntry): e is SkillEntry => e.kind === 'skill';

/** The offline ranker: task tokens against each entry's text, plus the current page for dynamics. Entries scoring below MIN_LEXICAL_SCORE are left out. */
export function rankLexical(entries: readonly ExperienceEntry[], task: string, regUrl: string | null, k: { dynamics: number; skills: number }): Selection {
  return {
    dynamics: rankKind(entries.filter(isDynamics), task, regUrl, k.dynamics),
    skills: rankKind(entries.filter(isSkill), task, regUrl, k.skills),
  };
}

// ---------------------------------------------------------------------------
// Model path

export const PickedIdsSchema = z.object({
  thought: z.string().optional().describe('Break the task into a few steps first, briefly.'),
  ids: z.array(z.number().int()).describe('The numbers of the chosen entries, most useful first.'),
});

const PICK_SYSTEM = (what: string, k: number) => `You help an assistant that is about to do a task on a website. Below are numbered ${what} kept from earlier visits to this site.
Think about the steps the task needs, then choose the entries that will help most with those steps: at most ${k}, fewer when few are relevant, none when none are.
An entry can help even when its details differ from the task: a workflow for posting a happy message also shows how to post a sad one.
Answer with a single JSON object and nothing else, following this JSON Schema:
${JSON.stringify(z.toJSONSchema(PickedIdsSchema))}`;

export function listDynamics(entries: readonly DynamicsEntry[]): string {
  return entries.map((e, i) => `${i + 1}. ${e.pageName} — ${e.description} Usages: ${e.usages.join('; ') || 'none'}. URL: ${e.exampleUrl}`).join('\n');
}

export function listSkills(entries: readonly SkillEntry[]): string {
  return entries.map((e, i) => `${i + 1}. ${e.name}: ${e.steps.map((s, j) => `(${j + 1}) ${s.text}`).join(' ')}`).join('\n');
}

async function pick<E extends ExperienceEntry>(
  model: ChatModel, what: string, listing: string, entries: readonly E[], task: string, origin: string, k: number,
  notes: string[], signal: AbortSignal | undefined,
): Promise<E[] | null> {
  const parsed = await askModelJson(model, {
    system: PICK_SYSTEM(what, k),
    user: `Task: ${task}\nSite: ${origin}\n\n${what[0]!.toUpperCase()}${what.slice(1)}:\n${listing}`,
    schema: PickedIdsSchema,
    temperature: 0,
    maxTokens: 400,
  }, signal);
  if (!parsed.ok) {
    const failedCall = modelCallFailure(parsed);
    notes.push(failedCall !== null
      ? `choosing ${what} with the model failed (${failedCall}); ranked lexically instead`
      : `the model's choice of ${what} was unusable (${parsed.error}); ranked lexically instead`);
    return null;
  }
  const chosen: E[] = [];
  for (const n of parsed.value.ids) {
    const entry = entries[n - 1];
    if (!entry) {
      notes.push(`the model chose ${what} number ${n}, which is not listed; ignored`);
      continue;
    }
    if (!chosen.includes(entry)) chosen.push(entry);
  }
  if (chosen.length > k) notes.push(`the model chose ${chosen.length} ${what}; the first ${k} were kept`);
  return chosen.slice(0, k);
}

/** The model's choice per kind; null where the model could not choose (the caller ranks that kind lexically). */
export interface ModelPick {
  dynamics: DynamicsEntry[] | null;
  skills: SkillEntry[] | null;
  notes: string[];
}

/** The model path: one call per kind that has entries, over the whole site buffer. */
export async function pickWithModel(
  model: ChatModel,
  entries: readonly ExperienceEntry[],
  task: string,
  origin: string,
  k: { dynamics: number; skills: number },
  signal?: AbortSignal,
): Promise<ModelPick> {
  const notes: string[] = [];
  const dyn = entries.filter(isDynamics);
  const sk = entries.filter(isSkill);
  const dynamics = dyn.length === 0 || k.dynamics === 0
    ? []
    : await pick(model, 'page notes', listDynamics(dyn), dyn, task, origin, k.dynamics, notes, signal);
  const skills = sk.length === 0 || k.skills === 0
    ? []
    : await pick(model, 'skills', listSkills(sk), sk, task, origin, k.skills, notes, signal);
  return { dynamics, skills, notes };
}

/** The model's pick, completed by the lexical ranker for a kind the model could not choose. */
export function completePick(picked: ModelPick, entries: readonly ExperienceEntry[], task: string, regUrl: string | null, k: { dynamics: number; skills: number }): Selection {
  const lexical = picked.dynamics === null || picked.skills === null ? rankLexical(entries, task, regUrl, k) : null;
  return { dynamics: picked.dynamics ?? lexical!.dynamics, skills: picked.skills ?? lexical!.skills };
}

/** pickWithModel + completePick, for one page. */
export async function selectWithModel(
  model: ChatModel,
  entries: readonly ExperienceEntry[],
  task: string,
  origin: string,
  k: { dynamics: number; skills: number },
  signal?: AbortSignal,
  regUrl: string | null = null,
): Promise<{ selection: Selection; notes: string[] }> {
  const picked = await pickWithModel(model, entries, task, origin, k, signal);
  return { selection: completePick(picked, entries, task, regUrl, k), notes: picked.notes };
}

// ---------------------------------------------------------------------------
// Replay (§3.3: a programmatic mapping from entries to prompt text)

export function dynamicsSection(entry: DynamicsEntry, regUrl: string | null): PromptSection {
  const lines = [`What it shows: ${entry.description}`];
  if (entry.usages.length > 0) lines.push(`Useful for: ${entry.usages.join('; ')}`);
  lines.push(`URL: ${entry.exampleUrl}`);
  if (regUrl !== null && entry.regUrl === regUrl) lines.push('You are on a page of this kind now.');
  return { id: entry.id, title: `Page: ${entry.pageName}`, text: lines.join('\n') };
}

/** The element a setting action (fill, select, check, uncheck) sets; null for other actions. */
function settingTarget(semantic: string): string | null {
  const parsed = parseAction(semantic);
  return parsed.ok && isSettingAction(parsed.action) ? formatTarget(parsed.action.target) : null;
}

/**
 * A skill with the task's values filled in where they could be bound; unbound
 * ones stay as {variables}. Its example actions are suggested only where they
 * apply: on the page type the step was taken on, and in the skill's order —
 * a step after a setting of this page that the page's effective state does
 * not hold yet ("Save" after "fill the bio" while the bio is not filled) is
 * not suggested, so another task's final click does not jump the queue.
 */
export function skillSection(entry: SkillEntry, task: string, regUrl: string | null = null, effectiveState: readonly string[] | null = null): PromptSection {
  const values = bindVariables(entry.name, entry.variables, task);
  const suggested: string[] = [];
  // The skill's own task words ({variables} aside): an example action bound to
  // them is about that task, not this one (memory/task-binding.ts). It stays
  // in the text as an example, but is not suggested as an action.
  const skillTask = tokenize(entry.name.replace(/\{[^}]*\}/g, ' '));
  const taskTokens = tokenize(task);
  const lines = ['Steps:'];
  const held = new Set((effectiveState ?? []).map(settingTarget).filter((t): t is string => t !== null));
  let waiting = false;
  entry.steps.forEach((step, i) => {
    lines.push(`${i + 1}. ${substitute(step.text, values)}`);
    // A step taken on another page type is not this page's next move: the
    // skill's first step ("Search") is not what to do on the page its third
    // step was taken on.
    const here = step.regUrl !== undefined && regUrl !== null && step.regUrl === regUrl;
    const elsewhere = step.regUrl !== undefined && regUrl !== null && step.regUrl !== regUrl;
    for (const example of step.exampleActions) {
      const concrete = instantiateAction(example, values);
      lines.push(`   e.g. ${concrete ?? example}`);
      if (concrete !== null && !elsewhere && !waiting && !suggested.includes(concrete) && !boundToOtherTask(concrete, skillTask, taskTokens)) suggested.push(concrete);
    }
    // A setting of this page the state does not hold yet: later steps wait for it.
    const target = here && effectiveState !== null ? settingTarget(step.exampleActions[0] ?? '') : null;
    if (target !== null && !held.has(target)) waiting = true;
  });
  const section: PromptSection = { id: entry.id, title: `Skill: ${substitute(entry.name, values)}`, text: lines.join('\n') };
  if (suggested.length > 0) section.suggestedActions = suggested;
  return section;
}

/** Dynamics first (the current page's first), then skills. */
export function renderSelection(selection: Selection, task: string, regUrl: string | null, effectiveState: readonly string[] | null = null): PromptSection[] {
  const dynamics = [...selection.dynamics].sort((a, b) => Number(b.regUrl === regUrl) - Number(a.regUrl === regUrl));
  return [...dynamics.map((d) => dynamicsSection(d, regUrl)), ...selection.skills.map((s) => skillSection(s, task, regUrl, effectiveState))];
}
