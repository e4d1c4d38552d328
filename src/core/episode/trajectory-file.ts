/**
 * Trajectories from a JSON file (the offline and hybrid settings)
 * become Episode records that every learner learns from as from a live
 * episode (learn-trajectory.ts). Actions must be in the semantic form
 * (`click(<button "Add to cart">)`), since refs mean nothing outside the
 * session that produced them. A demonstration abandoned halfway is kept as
 * partial, never as a success.
 */
import * as z from 'zod';
import { EpisodeSchema, recordedStepRecord, VerdictSchema, type Episode, type StepRecord } from './episode.ts';
import { fnv1a } from '../fnv1a.ts';
import { parseAction } from '../page/action-grammar.ts';
import { regularizeUrl } from '../page/regularize-url.ts';

/** One imported trajectory: its episode, and what the file said about each step's page (parallel to its steps). */
export interface ImportedTrajectoryInput {
  episode: Episode;
  pageTitles: (string | null)[];
  observations: (string | null)[];
}

export const ImportedStepSchema = z.strictObject({
  url: z.string().min(1).describe('The page the action was taken on.'),
  regUrl: z.string().min(1).optional().describe('Its page type; computed from url when absent.'),
  action: z.string().min(1).describe('The action in semantic form, e.g. click(<button "Add to cart">).'),
  title: z.string().optional().describe('The page title, used to name the page.'),
  observation: z.string().optional().describe('A short summary of what the page showed.'),
  ok: z.boolean().optional().describe('false when the action failed; default true.'),
  error: z.string().optional(),
});
export type ImportedStep = z.infer<typeof ImportedStepSchema>;

export const ImportedTrajectorySchema = z.strictObject({
  id: z.string().min(1).optional(),
  task: z.string().min(1),
  origin: z.string().min(1).optional().describe('Defaults to the origin of startUrl.'),
  startUrl: z.string().min(1),
  kind: z.enum(['imported', 'demonstration']).optional(),
  steps: z.array(ImportedStepSchema),
  outcome: VerdictSchema,
  /** The person stopped before the end: the trajectory is kept as partial whatever `outcome` says. */
  abandoned: z.boolean().optional(),
  answer: z.string().optional(),
  recordedAt: z.number().optional(),
});
export type ImportedTrajectory = z.infer<typeof ImportedTrajectorySchema>;

export class TrajectoryImportError extends Error {
  override readonly name = 'TrajectoryImportError';
}

function originOf(url: string): string | null {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch {
    return null;
  }
}

/**
 * Converts one validated trajectory to an episode plus the page titles and
 * summaries the distiller can use. Throws TrajectoryImportError naming the
 * first bad step.
 */
export function trajectoryToInput(t: ImportedTrajectory, options: { now: number; kind?: 'imported' | 'demonstration' }): ImportedTrajectoryInput {
  const origin = t.origin ?? originOf(t.startUrl);
  if (!origin || originOf(origin) !== origin) throw new TrajectoryImportError(`"${t.origin ?? t.startUrl}" is not a site origin such as https://shop.example`);
  const kind = options.kind ?? t.kind ?? 'imported';
  const startedAt = t.recordedAt ?? options.now;

  const steps: StepRecord[] = t.steps.map((s, index) => {
    const parsed = parseAction(s.action.trim());
    if (!parsed.ok) throw new TrajectoryImportError(`step ${index + 1}: ${parsed.error.message}`);
    const a = parsed.action;
    if ('target' in a && a.target?.kind === 'ref') {
      throw new TrajectoryImportError(`step ${index + 1}: "${s.action}" targets a ref; write the element as <role "name">`);
    }
    const next = t.steps[index + 1];
    const failed = s.ok === false;
    return recordedStepRecord({
      index,
      url: s.url,
      regUrl: s.regUrl ?? regularizeUrl(s.url).regUrl,
      semantic: s.action.trim(),
      decision: 'picked',
      result: failed
        ? { ok: false, code: 'unresolved', message: s.error ?? 'the action failed' }
        : { ok: true, navigated: next !== undefined && next.url !== s.url },
      startedAt,
    });
  });

  const status: Episode['status'] = t.abandoned ? 'partial' : t.outcome;
  const prefix = kind === 'demonstration' ? 'demo' : 'imp';
  const episode: Episode = {
    id: t.id ?? `${prefix}-${fnv1a([t.task, t.startUrl, ...t.steps.map((s) => `${s.url} ${s.action}`)].join('\n')).toString(36)}`,
    origin,
    task: t.task,
    startUrl: t.startUrl,
    tabId: null,
    status,
    steps,
    answer: t.answer ?? null,
    error: null,
    learners: [],
    attempt: 1,
    kind,
    startedAt,
    endedAt: startedAt,
  };
  const checked = EpisodeSchema.safeParse(episode);
  if (!checked.success) throw new TrajectoryImportError(`invalid episode: ${checked.error.issues[0]?.message ?? ''}`);
  return {
    episode: checked.data,
    pageTitles: t.steps.map((s) => s.title ?? null),
    observations: t.steps.map((s) => s.observation ?? null),
  };
}

export interface ImportResult {
  inputs: ImportedTrajectoryInput[];
  /** One message per trajectory that could not be imported ("trajectory 2: …"). */
  errors: string[];
}

/** Parses a trajectory file (already JSON-decoded): one trajectory, a list, or `{ trajectories: [...] }`. Bad trajectories are reported and skipped; good ones are kept. */
export function importTrajectories(json: unknown, options: { now: number; kind?: 'imported' | 'demonstration' }): ImportResult {
  const list = Array.isArray(json) ? json : typeof json === 'object' && json !== null && 'trajectories' in json ? (json as { trajectories: unknown }).trajectories : [json];
  if (!Array.isArray(list)) return { inputs: [], errors: ['"trajectories" must be a list'] };
  const inputs: ImportedTrajectoryInput[] = [];
  const errors: string[] = [];
  list.forEach((raw, i) => {
    const parsed = ImportedTrajectorySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      errors.push(`trajectory ${i + 1}: ${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'invalid'}`);
      return;
    }
    try {
      inputs.push(trajectoryToInput(parsed.data, options));
    } catch (err) {
      errors.push(`trajectory ${i + 1}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  return { inputs, errors };
}
