/**
 * Meta-training as a function: checks that a model is configured, that the
 * task ids exist, runs Algorithm 2 with a progress bar, and writes the
 * meta-prompt file the options page imports plus a short Markdown report.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SingleBar } from 'cli-progress';
import { markdownTable } from 'markdown-table';
import { META_PROMPT_FORMAT, type MetaPromptFile } from '../../src/learners/metattl/core/meta-prompt-file.ts';
import type { ChatModel } from '../../src/core/ports.ts';
import type { ProviderSettings } from '../../src/core/settings.ts';
import { fileCheckpoint, type MetaTrainConfig } from './meta-train-checkpoint.ts';
import { metaTrain, type MetaTrainOutcome } from './meta-train-loop.ts';
import { proposeStrategy } from './meta-train-propose.ts';
import type { RunSession } from './meta-train-session.ts';
import type { Suite } from '../suite.ts';

export const NO_MODEL_MESSAGE =
  'meta-train needs a model: the actor, the meta-agent and the proposer are all language models, and the offline policy cannot read a guide. ' +
  'Pass --base-url and --model (or set OPENAI_BASE_URL and OPENAI_MODEL). Nothing was run.';

export class MetaTrainUsageError extends Error {
  override readonly name = 'MetaTrainUsageError';
}

export interface SessionFactory {
  /** Every task id of the suite. */
  taskIds: string[];
  runSession: RunSession;
  close(): Promise<void>;
}

export type CreateSessions = (input: {
  suite: Suite;
  attempts: number;
  seed: number;
  provider: ProviderSettings;
  earlyStop: boolean;
  model: ChatModel;
}) => Promise<SessionFactory>;

export interface MetaTrainRunOptions {
  suite: Suite;
  train: string[];
  val: string[];
  budget: number;
  attempts: number;
  seed: number;
  selection: 'mean' | 'z';
  seedStrategy: string;
  /** Null when no model was given: refused before anything runs. */
  provider: ProviderSettings | null;
  /** The proposer's model; the actor's when null. */
  proposerModel: ChatModel | null;
  earlyStop: boolean;
  out: string;
  checkpoint: string;
  fresh: boolean;
  progress: boolean;
  createSessions: CreateSessions;
  createModel: (provider: ProviderSettings) => ChatModel;
}

export interface MetaTrainRunResult {
  outcome: MetaTrainOutcome;
  file: MetaPromptFile;
  report: string;
}

export function checkProvider(provider: ProviderSettings | null): ProviderSettings {
  if (!provider || !provider.baseUrl || !provider.model) throw new MetaTrainUsageError(NO_MODEL_MESSAGE);
  return provider;
}

const pct = (x: number | undefined) => (x === undefined ? '–' : (x * 100).toFixed(1));

export function metaTrainReport(outcome: MetaTrainOutcome, config: MetaTrainConfig): string {
  const { state, selected, seed, selection } = outcome;
  const lines = [
    `# Meta-training: ${config.suite}`,
    '',
    `Train: ${config.train.join(', ')} · validation: ${config.val.join(', ')} · K = ${config.attempts} · evaluations ${state.evaluations}/${config.budget} · selection: ${config.selection === 'z' ? 'mean per-task z-score' : 'mean validation W-AUC'} · model ${config.model}`,
    '',
    `Selected: ${selected.id}${selected.id === seed.id ? ' (the seed: no candidate beat it)' : ` (iteration ${selected.iteration}, parent ${selected.parentId})`}`,
    '',
    'Validation W-AUC % (padded to K / attempts that ran):',
    '',
    markdownTable([
      ['Task', 'seed', selected.id],
      ...config.val.map((h) => [h, `${pct(seed.val?.[h])} / ${pct(seed.valUnpadded?.[h])}`, `${pct(selected.val?.[h])} / ${pct(selected.valUnpadded?.[h])}`]),
    ]),
    '',
    'Iterations:',
    '',
    markdownTable([
      ['t', 'parent', 'task', 'parent W-AUC %', 'candidate', 'candidate W-AUC %', 'outcome', 'new expert on'],
      ...state.history.map((h) => [String(h.iteration), h.parentId, h.taskId, pct(h.parentScore), h.candidateId ?? '–', pct(h.candidateScore ?? undefined), h.outcome, h.won.join(', ') || '–']),
    ]),
    '',
    'Experts (mean validation W-AUC %, mean z):',
    '',
    markdownTable([['candidate', 'mean %', 'mean z'], ...selection.rows.map((r) => [r.candidateId, pct(r.meanScore), r.meanZ.toFixed(2)])]),
  ];
  return lines.join('\n');
}

export async function runMetaTraining(options: MetaTrainRunOptions): Promise<MetaTrainRunResult> {
  const provider = checkProvider(options.provider);
  const unknownSplit = options.train.filter((id) => options.val.includes(id));
  if (options.train.length === 0 || options.val.length === 0) throw new MetaTrainUsageError('--train and --val each need at least one task id');
  const model = options.createModel(provider);
  const sessions = await options.createSessions({ suite: options.suite, attempts: options.attempts, seed: options.seed, provider, earlyStop: options.earlyStop, model });
  let bar: SingleBar | null = null;
  try {
    const missing = [...options.train, ...options.val].filter((id) => !sessions.taskIds.includes(id));
    if (missing.length > 0) throw new MetaTrainUsageError(`unknown task id(s) in ${options.suite.name}: ${missing.join(', ')}`);
    const config: MetaTrainConfig = {
      suite: options.suite.name, train: options.train, val: options.val, budget: options.budget, attempts: options.attempts,
      seed: options.seed, selection: options.selection, seedStrategy: options.seedStrategy, model: provider.model,
    };
    if (options.progress) {
      bar = new SingleBar({
        format: 'meta-train |{bar}| {value}/{total} evaluations · iteration {iteration} · {label}',
        stream: process.stderr, noTTYOutput: true, notTTYSchedule: 10_000, hideCursor: true,
      });
      bar.start(options.budget, 0, { iteration: 0, label: 'starting' });
    }
    const proposer = options.proposerModel ?? model;
    const outcome = await metaTrain({
      config,
      checkpoint: fileCheckpoint(options.checkpoint),
      fresh: options.fresh,
      runSession: sessions.runSession,
      propose: ({ parent, session }) => proposeStrategy(proposer, parent.strategy, session),
      onEvent: (event, state) => bar?.update(state.evaluations, { iteration: state.inFlight?.iteration ?? state.iteration, label: event.kind === 'session' ? `${event.label} on ${event.taskId}` : `iteration ${event.record.iteration}: ${event.record.outcome}` }),
    });
    bar?.stop();
    const file: MetaPromptFile = {
      format: META_PROMPT_FORMAT,
      version: 1,
      strategy: outcome.selected.strategy,
      createdAt: new Date().toISOString(),
      training: {
        suite: config.suite, train: config.train, val: config.val, budget: config.budget, evaluations: outcome.state.evaluations,
        attempts: config.attempts, selection: config.selection, validation: outcome.selected.val ?? {}, seedValidation: outcome.seed.val ?? {}, model: config.model,
      },
    };
    await mkdir(dirname(options.out), { recursive: true });
    await writeFile(options.out, `${JSON.stringify(file, null, 2)}\n`);
    const report = metaTrainReport(outcome, config) + (unknownSplit.length > 0 ? `\n\nNote: ${unknownSplit.join(', ')} is in both --train and --val.` : '');
    return { outcome, file, report };
  } finally {
    bar?.stop();
    await sessions.close();
  }
}
