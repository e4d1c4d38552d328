/**
 * CER §3.1: distilling experience from one trajectory. Two distillers, both
 * shown the site's existing buffer so they skip or merge what is known:
 *  - the model path asks the model twice (dynamics, then skills) for JSON
 *    validated by zod; malformed or empty output leaves the buffer unchanged
 *    and says why;
 *  - the offline path (no model) derives dynamics from the pages visited and
 *    one skill from the executed actions, with the task's values abstracted
 *    into {variables}.
 * Neither writes: they return candidate entries for buffer.ts to merge.
 */
import * as z from 'zod';
import type { Episode, StepRecord } from '../../episode/episode.ts';
import { askModelJson } from '../../llm/ask-model-json.ts';
import { formatAction as formatSemantic, parseAction } from '../../page/action-grammar.ts';
import type { Action, Target } from '../../page/action.ts';
import type { ChatModel } from '../../ports.ts';
import {
  dynamicsId, skillId,
  type DynamicsEntry, type ExperienceEntry, type ExperienceSource, type Provenance, type SkillEntry, type SkillStep,
} from './experience.ts';
import { abstractActions, variablesIn } from '../shared/skill-variables.ts';
import { maskTypedSecrets } from '../../secrets/mask-secrets.ts';
import { stepEvidence } from '../step-credit.ts';
import { tokenize } from '../../memory/tokenize.ts';
import { pageNameFromUrl } from '../shared/page-name.ts';

/** A trajectory to learn from: an episode, plus what imports and demonstrations know about each page. */
export interface DistillInput {
  episode: Episode;
  /** Parallel to episode.steps: the page title at that step, when known. */
  pageTitles?: readonly (string | null)[];
  /** Parallel to episode.steps: a short summary of what the page showed. */
  observations?: readonly (string | null)[];
}

export interface DistillResult {
  /** Candidate entries (not yet merged). Empty when `reason` is set. */
  entries: ExperienceEntry[];
  /** Why nothing was distilled (malformed or empty output, model failure, nothing executed). */
  reason: string | null;
  notes: string[];
}

const MAX_SKILL_STEPS = 15;
const MAX_EXISTING_IN_PROMPT = 60;

interface ExecutedStep {
  step: StepRecord;
  index: number;
  action: Action;
  ok: boolean;
}

/** Steps whose chosen action ran, parsed from their semantic form. Ref-form leftovers are dropped: refs mean nothing later. */
export function executedSteps(episode: Episode, notes: string[] = []): ExecutedStep[] {
  const out: ExecutedStep[] = [];
  episode.steps.forEach((step, index) => {
    if (!step.chosen) return;
    const parsed = parseAction(step.chosen.semantic);
    if (!parsed.ok) {
      notes.push(`step ${index}: "${step.chosen.semantic}" is not a valid action and was skipped`);
      return;
    }
    if (hasRefTarget(parsed.action)) {
      notes.push(`step ${index}: "${step.chosen.semantic}" targets a ref, not a role and name, and was skipped`);
      return;
    }
    out.push({ step, index, action: parsed.action, ok: step.result?.ok !== false });
  });
  return out;
}

function hasRefTarget(a: Action): boolean {
  return 'target' in a && a.target !== undefined && a.target.kind === 'ref';
}

const targetText = (t: Target | undefined): string =>
  !t ? 'the focused element' : t.kind === 'ref' ? `element [${t.ref}]` : `the ${t.role}${t.name ? ` "${t.name}"` : ''}`;

/** One sentence for a step of a skill or a usage of a page. */
export function describeAction(a: Action): string {
  switch (a.type) {
    case 'click': return `Click ${targetText(a.target)}`;
    case 'dblclick': return `Double-click ${targetText(a.target)}`;
    case 'hover': return `Hover over ${targetText(a.target)}`;
    case 'focus': return `Focus ${targetText(a.target)}`;
    case 'clear': return `Clear ${targetText(a.target)}`;
    case 'check': return `Tick ${targetText(a.target)}`;
    case 'uncheck': return `Untick ${targetText(a.target)}`;
    case 'fill': return `Type ${a.text} into ${targetText(a.target)}`;
    case 'select_option': return `Choose ${a.option} in ${targetText(a.target)}`;
    case 'press': return `Press ${a.keys}${a.target ? ` in ${targetText(a.target)}` : ''}`;
    case 'scroll': return `Scroll ${a.dy >= 0 ? 'down' : 'up'}${a.target ? ` inside ${targetText(a.target)}` : ''}`;
    case 'goto': return `Go to ${a.url}`;
    case 'go_back': return 'Go back';
    case 'go_forward': return 'Go forward';
    case 'send_msg_to_user': return 'Give the person the answer';
    case 'report_infeasible': return 'Report that the task cannot be done here';
  }
}

function newProvenance(episode: Episode, now: number): Provenance {
  return {
    episodeIds: [episode.id],
    createdAt: now,
    updatedAt: now,
    retrieved: 0,
    retrievedThenSucceeded: 0,
    source: episode.kind satisfies ExperienceSource,
  };
}

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
  const abstractByIndex = new Map(executed.map((e, i) => [e.index, abstraction.actions[i]!]));
  const knownDynamics = new Map(
    existing.filter((e): e is DynamicsEntry => e.kind === 'dynamics').map((e) => [e.regUrl, e]),
  );

  // Dynamics, in order of first visit.
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
  const entries: ExperienceEntry[] = [];
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

  if (DEAD_END.has(episode.status)) {
    notes.push(`no skill distilled offline from a ${episode.status} episode`);
  } else {
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
      tokenize(episode.task),
    ).map((ev) => ev === 'loop' || ev === 'undone' || ev === 'detour');
    executed.forEach((e, i) => {
      if (!e.ok || detour[i]) return;
      const abstract = abstraction.actions[i]!;
      const text = formatSemantic(abstract);
      if (text === last) return; // a repeated action (retyping, double click) is one step
      last = text;
      steps.push({ text: describeAction(abstract), exampleActions: [text], regUrl: e.step.regUrl });
    });
    if (steps.length > 0) {
      const name = abstraction.name;
      entries.push({
        id: existingSkillId(existing, name) ?? skillId(episode.origin, name),
        origin: episode.origin,
        kind: 'skill',
        name,
        variables: abstraction.variables,
        steps: steps.slice(0, MAX_SKILL_STEPS),
        provenance: newProvenance(episode, now),
      });
    } else {
      notes.push('no action of the episode succeeded: no skill distilled');
    }
  }
  return { entries, reason: null, notes };
}

function existingSkillId(existing: readonly ExperienceEntry[], name: string): string | undefined {
  const key = name.toLowerCase().replace(/\s+/g, ' ').trim();
  return existing.find((e) => e.kind === 'skill' && e.name.toLowerCase().replace(/\s+/g, ' ').trim() === key)?.id;
}

const nonEmpty = (s: string | null | undefined): string | null => (s && s.trim() ? s.trim() : null);

// ---------------------------------------------------------------------------
// Model path

/** What the dynamics distiller answers; the JSON Schema in the prompt is derived from it. */
export const DistilledPagesSchema = z.object({
  pages: z.array(z.object({
    thought: z.string().describe('One short sentence of reasoning about this page, written first.'),
    name: z.string().min(1).describe('A short name for the kind of page, e.g. "Search results page".'),
    description: z.string().min(1).describe('What the page shows, in general terms (not the values of this recording).'),
    usages: z.array(z.string().min(1)).describe('What a person can do or find on this page.'),
    pattern: z.string().min(1).describe('The page pattern exactly as the recording lists it after "page type".'),
    exampleUrl: z.string().min(1).describe('One concrete URL of this page taken from the recording.'),
  })).describe('New or improved page notes; an empty list when the recording teaches nothing new.'),
});
export type DistilledPages = z.infer<typeof DistilledPagesSchema>;

export const DistilledSkillsSchema = z.object({
  skills: z.array(z.object({
    thought: z.string().describe('One short sentence of reasoning about this sub-goal, written first.'),
    name: z.string().min(1).describe('General name with {variables} for what changes between tasks, e.g. "Sort products by {criterion}".'),
    steps: z.array(z.object({
      text: z.string().min(1).describe('What to do in this step, in general terms with the same {variables}.'),
      exampleActions: z.array(z.string()).describe('Example actions in the semantic form, e.g. click(<button "Sort by">) or fill(<searchbox "Search">, "{product}").'),
    })).min(1),
  })).describe('New skills; an empty list when the recording teaches nothing new.'),
});
export type DistilledSkills = z.infer<typeof DistilledSkillsSchema>;

const SEMANTIC_FORMS = [
  'click(<role "accessible name">)', 'fill(<role "name">, "text")', 'select_option(<role "name">, "option")',
  'check(<role "name">)', 'press(<role "name">, "Enter")', 'goto("https://…")', 'go_back()', 'send_msg_to_user("text")',
].join(', ');

const DYNAMICS_SYSTEM = `You read the recording of one visit to a website and write short notes about the pages it went through, so that a later assistant knows what each page is for and can open it directly.
Write one note per kind of page: pages that differ only in an id, a search term or a page number are one kind, and the recording gives each kind a "page type" pattern.
Each note has a short name, a description of what the page shows, its usages (what one can do or find there), the pattern, and one concrete URL from the recording.
Describe the page in general: leave out the particular values typed or chosen in this recording, and ignore temporary changes the visitor made.
The notes already kept for this site are listed. Leave those pages out, unless the recording shows a use their note lacks: then write that page again with the same pattern and the missing usages.
Answer with a single JSON object and nothing else, following this JSON Schema:
`;

const SKILLS_SYSTEM = `You read the recording of one visit to a website and write down reusable skills: short workflows that reach one sub-goal (finding something, filtering a list, filling in a form, …) that a later assistant can follow during a different task on the same site.
Break the goal of the recording into sub-goals and write one skill per sub-goal. Name each skill in general terms and write what changes from one task to another as a {variable}: "Search for {product}", never "Search for red mug".
List the steps in order. Each step has a sentence and at least one example action written with the element's role and accessible name, using the same {variables}. Action forms: ${SEMANTIC_FORMS}.
Use only elements that appear in the recording's actions. When the visit failed, keep only what worked, or a skill that avoids the mistake.
The skills already kept for this site are listed: do not write them again. Return an empty list when nothing new was learned.
Answer with a single JSON object and nothing else, following this JSON Schema:
`;

/** The recording as the distillers read it. */
export function renderTrajectory(input: DistillInput): string {
  const { episode } = input;
  const lines = [
    `Goal: ${episode.task}`,
    `Site: ${episode.origin}`,
    `Outcome: ${episode.status}${episode.answer ? ` (answer given: ${episode.answer})` : ''}`,
    'Recording:',
  ];
  episode.steps.forEach((step, i) => {
    if (!step.chosen) return;
    const title = nonEmpty(input.pageTitles?.[i]);
    lines.push(`Step ${i + 1}: on ${step.url} (page type: ${step.regUrl})${title ? ` titled "${title}"` : ''}`);
    const obs = nonEmpty(input.observations?.[i]);
    if (obs) lines.push(`  page shows: ${obs}`);
    // The text typed into a secret field is not shown to the distiller (it could copy it into a skill).
    lines.push(`  action: ${maskTypedSecrets(step.chosen.semantic)}`);
    const r = step.result;
    lines.push(`  result: ${r === null ? 'unknown' : r.ok ? (r.navigated ? 'ok, the page changed' : 'ok') : `failed (${r.message})`}`);
  });
  return lines.join('\n');
}

export function renderExistingDynamics(existing: readonly ExperienceEntry[]): string {
  const d = existing.filter((e): e is DynamicsEntry => e.kind === 'dynamics').slice(0, MAX_EXISTING_IN_PROMPT);
  if (d.length === 0) return 'Pages already noted: none.';
  return ['Pages already noted:', ...d.map((e, i) => `${i + 1}. ${e.pageName} — ${e.description} Usages: ${e.usages.join('; ') || 'none'}. Pattern: ${e.regUrl}`)].join('\n');
}

export function renderExistingSkills(existing: readonly ExperienceEntry[]): string {
  const s = existing.filter((e): e is SkillEntry => e.kind === 'skill').slice(0, MAX_EXISTING_IN_PROMPT);
  if (s.length === 0) return 'Skills already kept: none.';
  return ['Skills already kept:', ...s.map((e, i) => `${i + 1}. ${e.name}: ${e.steps.map((st) => st.text).join(' → ')}`)].join('\n');
}

const jsonSchemaText = (schema: z.ZodType) => JSON.stringify(z.toJSONSchema(schema));

const ask = <T>(model: ChatModel, system: string, user: string, schema: z.ZodType<T>, signal: AbortSignal | undefined) =>
  askModelJson(model, { system, user, schema, temperature: 0, maxTokens: 1500 }, signal);

/**
 * The model distiller: a dynamics call and a skills call (§3.1 keeps them
 * apart because pages and workflows are summarized differently). If either
 * answer is malformed, nothing is returned, so the buffer stays unchanged.
 */
export async function distillWithModel(
  model: ChatModel,
  input: DistillInput,
  existing: readonly ExperienceEntry[],
  now: number,
  signal?: AbortSignal,
): Promise<DistillResult> {
  const { episode } = input;
  const notes: string[] = [];
  if (executedSteps(episode).length === 0) return { entries: [], reason: 'the episode has no executed actions to learn from', notes };
  const recording = renderTrajectory(input);

  const pages = await ask(model, DYNAMICS_SYSTEM + jsonSchemaText(DistilledPagesSchema),
    `${renderExistingDynamics(existing)}\n\n${recording}`, DistilledPagesSchema, signal);
  if (!pages.ok) return { entries: [], reason: `dynamics distiller: ${pages.error}`, notes };
  if (pages.repaired) notes.push('dynamics distiller: malformed JSON was repaired');

  const skills = await ask(model, SKILLS_SYSTEM + jsonSchemaText(DistilledSkillsSchema),
    `${renderExistingSkills(existing)}\n\n${recording}`, DistilledSkillsSchema, signal);
  if (!skills.ok) return { entries: [], reason: `skills distiller: ${skills.error}`, notes };
  if (skills.repaired) notes.push('skills distiller: malformed JSON was repaired');

  const entries = [
    ...acceptPages(pages.value, input, existing, now, notes),
    ...acceptSkills(skills.value, input, existing, now, notes),
  ];
  if (entries.length === 0) return { entries: [], reason: 'the distillers found nothing new to keep', notes };
  return { entries, reason: null, notes };
}

/** Page notes must describe a page of this recording: the pattern or URL has to match a step. */
function acceptPages(out: DistilledPages, input: DistillInput, existing: readonly ExperienceEntry[], now: number, notes: string[]): DynamicsEntry[] {
  const { episode } = input;
  const entries: DynamicsEntry[] = [];
  for (const p of out.pages) {
    const step = episode.steps.find((s) => s.regUrl === p.pattern.trim())
      ?? episode.steps.find((s) => s.url === p.exampleUrl.trim());
    if (!step) {
      notes.push(`page "${p.name}" dropped: ${p.pattern} is not a page of the recording`);
      continue;
    }
    const exampleUrl = sameOrigin(p.exampleUrl.trim(), episode.origin) ? p.exampleUrl.trim() : step.url;
    const known = existing.find((e): e is DynamicsEntry => e.kind === 'dynamics' && e.regUrl === step.regUrl);
    entries.push({
      id: known?.id ?? dynamicsId(episode.origin, step.regUrl),
      origin: episode.origin,
      kind: 'dynamics',
      pageName: p.name.trim(),
      description: p.description.trim(),
      usages: p.usages.map((u) => u.trim()).filter(Boolean),
      regUrl: step.regUrl,
      exampleUrl,
      provenance: newProvenance(episode, now),
    });
  }
  return entries;
}

function sameOrigin(url: string, origin: string): boolean {
  try { return new URL(url).origin === origin; } catch { return false; }
}

/** Example actions must parse in the semantic form; steps keep their text even when an example is dropped. */
function acceptSkills(out: DistilledSkills, input: DistillInput, existing: readonly ExperienceEntry[], now: number, notes: string[]): SkillEntry[] {
  const { episode } = input;
  const entries: SkillEntry[] = [];
  for (const s of out.skills) {
    const steps: SkillStep[] = s.steps.slice(0, MAX_SKILL_STEPS).map((st) => ({
      text: st.text.trim(),
      exampleActions: st.exampleActions.flatMap((raw) => {
        const parsed = parseAction(raw.trim());
        if (!parsed.ok || hasRefTarget(parsed.action)) {
          notes.push(`skill "${s.name}": example "${raw}" dropped (${parsed.ok ? 'it targets a ref' : parsed.error.message})`);
          return [];
        }
        return [formatSemantic(parsed.action)];
      }),
    }));
    const name = s.name.trim();
    const variables = variablesIn([name, ...steps.flatMap((st) => [st.text, ...st.exampleActions])].join('\n'));
    entries.push({
      id: existingSkillId(existing, name) ?? skillId(episode.origin, name),
      origin: episode.origin,
      kind: 'skill',
      name,
      variables,
      steps,
      provenance: newProvenance(episode, now),
    });
  }
  return entries;
}
