/**
 * `npm run meta-train -- --suite <module> --train <ids> --val <ids> --budget <evaluations>
 *   [--attempts 3] [--seed 0] [--selection mean|z] [--seed-strategy shipped|empty|<file>]
 *   [--early-stop] [--out bench/out/meta-prompt.json] [--checkpoint bench/out/meta-train.checkpoint.json] [--fresh]
 *   --base-url <url> --model <name> [--api-key <key>] [--proposer-model <name>]`
 *
 * Meta-TTL Algorithm 2 over the suite's tasks in headless Chromium. Ids are
 * comma-separated. Resumes from --checkpoint unless --fresh. Without a model it
 * refuses to start. The file at --out is what the options page imports.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseCli } from '../cli.ts';
import { isChromiumNotFound } from '../../test/support/find-chromium.ts';
import * as z from 'zod';
import { createOpenAiChatModel } from '../../src/adapters/openai/openai-chat-model.ts';
import { SHIPPED_STRATEGY } from '../../src/learners/metattl/core/meta-prompt.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { CheckpointError } from './meta-train-checkpoint.ts';
import { MetaTrainUsageError, NO_MODEL_MESSAGE, runMetaTraining } from './meta-train-run.ts';
import { loadSuite, SuiteValidationError } from '../suite.ts';

z.config({ jitless: true });

const ids = z.string().transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

const ArgsSchema = z.object({
  suite: z.string().min(1),
  train: ids,
  val: ids,
  budget: z.coerce.number().int().positive(),
  attempts: z.coerce.number().int().min(1).max(20),
  seed: z.coerce.number().int(),
  selection: z.enum(['mean', 'z']),
  'seed-strategy': z.string(),
  'early-stop': z.boolean(),
  out: z.string(),
  checkpoint: z.string(),
  fresh: z.boolean(),
  progress: z.boolean(),
  'base-url': z.string().optional(),
  model: z.string().optional(),
  'api-key': z.string().optional(),
  'proposer-model': z.string().optional(),
});

async function seedStrategy(choice: string): Promise<string> {
  if (choice === 'shipped') return SHIPPED_STRATEGY;
  if (choice === 'empty') return '';
  return (await readFile(choice, 'utf8')).trim();
}

const USAGE = `npm run meta-train -- [flags]: Meta-TTL Algorithm 2 over a suite's tasks in headless Chromium.
--train and --val take comma-separated task ids; --budget is the number of evaluations. It needs a model
(--base-url, --model, --api-key or OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY) and resumes from --checkpoint unless --fresh.`;

async function main(): Promise<number> {
  const cli = parseCli({
    options: {
      suite: { type: 'string', default: resolve(import.meta.dirname, '../suites/apprentice-sites/index.ts') },
      train: { type: 'string', default: '' },
      val: { type: 'string', default: '' },
      budget: { type: 'string', default: '' },
      attempts: { type: 'string', default: '3' },
      seed: { type: 'string', default: '0' },
      selection: { type: 'string', default: 'mean' },
      'seed-strategy': { type: 'string', default: 'shipped' },
      'early-stop': { type: 'boolean', default: false },
      out: { type: 'string', default: resolve(import.meta.dirname, '../out/meta-prompt.json') },
      checkpoint: { type: 'string', default: resolve(import.meta.dirname, '../out/meta-train.checkpoint.json') },
      fresh: { type: 'boolean', default: false },
      'no-progress': { type: 'boolean', default: false },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      'proposer-model': { type: 'string' },
    },
    strict: true,
  }, USAGE);
  if ('exit' in cli) return cli.exit;
  const { values } = cli.args;
  const parsed = ArgsSchema.safeParse({ ...values, progress: !values['no-progress'] });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
    return 2;
  }
  const args = parsed.data;
  const baseUrl = args['base-url'] ?? process.env['OPENAI_BASE_URL'];
  const modelName = args.model ?? process.env['OPENAI_MODEL'];
  // Refuse before loading the suite or launching anything.
  if (!baseUrl || !modelName) {
    console.error(NO_MODEL_MESSAGE);
    return 2;
  }
  const provider = { ...DEFAULT_SETTINGS.provider, preset: 'custom' as const, baseUrl, model: modelName, apiKey: args['api-key'] ?? process.env['OPENAI_API_KEY'] ?? '' };
  const suite = await loadSuite(args.suite);
  const result = await runMetaTraining({
    suite, train: args.train, val: args.val, budget: args.budget, attempts: args.attempts, seed: args.seed, selection: args.selection,
    seedStrategy: await seedStrategy(args['seed-strategy']), provider,
    proposerModel: args['proposer-model'] ? createOpenAiChatModel({ ...provider, model: args['proposer-model'] }) : null,
    earlyStop: args['early-stop'], out: args.out, checkpoint: args.checkpoint, fresh: args.fresh, progress: args.progress,
    // Loaded only once a model is known: the refusal above stays fast.
    createSessions: (await import('./meta-train-sessions.ts')).createChromiumSessions, createModel: createOpenAiChatModel,
  });
  console.log(result.report);
  console.log(`\nWrote ${args.out} (import it in the options page: Meta-TTL → Import meta-prompt).`);
  return 0;
}

main().then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    if (err instanceof MetaTrainUsageError || err instanceof CheckpointError || err instanceof SuiteValidationError) {
      console.error(`meta-train: ${err.message}`);
      process.exitCode = 2;
      return;
    }
    console.error(isChromiumNotFound(err) ? err.message : err);
    process.exitCode = 1;
  },
);
