/**
 * CER §3.1, the model distiller: the model is asked twice (dynamics, then
 * skills) for JSON validated by zod; malformed or empty output leaves the
 * buffer unchanged and says why. Page notes must name a page of the
 * recording, and example actions must parse in the semantic form.
 */
import * as z from 'zod';
import { askModelJson } from '../../../core/llm/ask-model-json.ts';
import { formatAction as formatSemantic, parseAction } from '../../../core/page/action-grammar.ts';
import type { ChatModel } from '../../../core/ports.ts';
import { dynamicsId, skillId, type DynamicsEntry, type ExperienceEntry, type SkillEntry, type SkillStep } from './experience.ts';
import { variablesIn } from '../../../core/learning/shared/skill-variables.ts';
import { maskTypedSecrets } from '../../../core/secrets/mask-secrets.ts';
import {
  executedSteps, existingSkillId, hasRefTarget, MAX_SKILL_STEPS, newProvenance, nonEmpty, type DistillInput, type DistillResult,
} from './distill-common.ts';

const MAX_EXISTING_IN_PROMPT = 60;

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
