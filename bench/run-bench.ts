/**
 * `npm run bench -- --learners static,<id>,<id>+<id> --attempts 5
 *   --policy offline|simulated|openai --seed 0 --memory fresh|carry
 *   --suite <module> --profile quick|full --tasks <filter> [--noise 1] [--out bench/out]
 *   [--selection sampling|argmax] [--ablate] [--teach N] [--ask-mode every-step|unapproved-only] [--no-oracle]
 *   [--mutant settle-off]`
 *
 * --learners: registry ids joined by "+" (see the registry; default: its BENCH_CONFIGURATIONS).
 * --ablate: each learner with ablation rows (for example: none of our additions,
 * then each one alone, then all; bench/ablation.ts); --learners is ignored.
 * --no-corrections: every learner without its correction rules (its definition's `mutants['no-corrections']`).
 * --mutant settle-off: the refusals figure's mutant, the page read without the settle wait (issue 34).
 * --teach N: the suite's teachers teach the first N attempts of each task
 * (with --memory carry: the first N instances of each template); see bench/teach.ts.
 *
 * For --policy openai: --base-url, --model and --api-key (or OPENAI_BASE_URL,
 * OPENAI_MODEL, OPENAI_API_KEY).
 */
import { resolve } from 'node:path';
import { parseCli, runCli } from './cli.ts';
import * as z from 'zod';
import { DEFAULT_SETTINGS } from '../src/core/settings.ts';
import { LEARNER_CONFIGS, parseLearnerConfig, runBench, withoutCorrections, type LearnerConfig, type PolicyKind } from './bench-runner.ts';
import { markdownReport, writeReport } from './report.ts';
import { ablationMarkdown, runAblation, writeAblation } from './ablation.ts';
import { isSuiteStartError, loadSuite, SuiteValidationError } from './suite.ts';
import { endingLines } from './ending-metrics.ts';

z.config({ jitless: true });

const DEFAULT_SUITE = resolve(import.meta.dirname, 'suites/apprentice-sites/index.ts');

const ArgsSchema = z.object({
  learners: z.string().transform((s, ctx) => {
    const list = s.split(',').map((x) => x.trim()).filter(Boolean);
    for (const l of list) {
      const parsed = parseLearnerConfig(l);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: parsed.message });
        return z.NEVER;
      }
    }
    return list as LearnerConfig[];
  }),
  attempts: z.coerce.number().int().min(1).max(50),
  policy: z.enum(['offline', 'simulated', 'openai']),
  noise: z.coerce.number().min(0),
  seed: z.coerce.number().int(),
  memory: z.enum(['fresh', 'carry']),
  suite: z.string(),
  profile: z.string(),
  tasks: z.string(),
  out: z.string(),
  'base-url': z.string().optional(),
  model: z.string().optional(),
  'api-key': z.string().optional(),
  progress: z.boolean(),
  selection: z.enum(['sampling', 'argmax']),
  'ask-mode': z.enum(['every-step', 'unapproved-only']),
  mutant: z.enum(['', 'settle-off']),
  teach: z.coerce.number().int().min(0).max(50),
  'no-corrections': z.boolean(),
  'no-oracle': z.boolean(),
  ablate: z.boolean(),
});

const USAGE = `npm run bench -- [flags]: every learner configuration on a suite, attempt by attempt (headless Chromium:
CHROMIUM_PATH, else the usual install paths). --learners: registry ids joined by "+", comma-separated configurations.
--ablate: each learner's ablation rows. --teach N: the suite's teachers teach the first N attempts.
--policy openai: --base-url, --model, --api-key (or OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY).`;

async function main(): Promise<number> {
  const cli = parseCli({
    options: {
      learners: { type: 'string', default: LEARNER_CONFIGS.join(',') },
      attempts: { type: 'string', default: '5' },
      policy: { type: 'string', default: 'offline' },
      noise: { type: 'string', default: '1' },
      seed: { type: 'string', default: '0' },
      memory: { type: 'string', default: 'fresh' },
      suite: { type: 'string', default: DEFAULT_SUITE },
      profile: { type: 'string', default: '' },
      tasks: { type: 'string', default: '' },
      out: { type: 'string', default: resolve(import.meta.dirname, 'out') },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key': { type: 'string' },
      'no-progress': { type: 'boolean', default: false },
      selection: { type: 'string', default: 'sampling' },
      // Earned autonomy: 'unapproved-only' runs what the teacher approved twice without asking (issue 24).
      'ask-mode': { type: 'string', default: 'every-step' },
      mutant: { type: 'string', default: '' },
      teach: { type: 'string', default: '0' },
      // The mutant of the teaching figures: the learners without their correction rules (their definition's `mutants`).
      'no-corrections': { type: 'boolean', default: false },
      ablate: { type: 'boolean', default: false },
      // Knowing it is done: the runner does not stop at the goal; the agent must end the task itself.
      'no-oracle': { type: 'boolean', default: false },
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
  const suite = await loadSuite(args.suite);
  const policy: PolicyKind = args.policy;
  // No --profile: the suite's CI-sized "quick" profile when it has one, else every task.
  const profile = args.profile || (suite.profiles?.['quick'] ? 'quick' : 'full');
  const baseUrl = args['base-url'] ?? process.env['OPENAI_BASE_URL'];
  const model = args.model ?? process.env['OPENAI_MODEL'];
  if (policy === 'openai' && (!baseUrl || !model)) {
    console.error('--policy openai needs --base-url and --model (or OPENAI_BASE_URL and OPENAI_MODEL)');
    return 2;
  }
  if (args.ablate) {
    const ablation = await runAblation({
      suite, attempts: args.attempts, policy, noise: args.noise, seed: args.seed, memory: args.memory, profile,
      taskFilter: args.tasks, progress: args.progress, selection: args.selection,
    });
    console.log(ablationMarkdown(ablation));
    console.log(`Wrote ${await writeAblation(ablation, args.out)}`);
    return 0;
  }
  console.error(`bench: suite ${suite.name}, policy ${policy} (${args.selection}), learners ${args.learners.join(', ')}, ${args.attempts} attempts, memory ${args.memory}, profile ${profile}, seed ${args.seed}${args.teach ? `, taught: ${args.memory === 'carry' ? `first ${args.teach} instance(s) of each template` : `attempts 1–${args.teach}`}` : ''}`);
  const result = await runBench({
    suite,
    learners: args.learners,
    attempts: args.attempts,
    policy,
    noise: args.noise,
    seed: args.seed,
    memory: args.memory,
    profile,
    taskFilter: args.tasks,
    progress: args.progress,
    selection: args.selection,
    teach: args.teach,
    askMode: args['ask-mode'],
    ...(args.mutant === 'settle-off' ? { mutant: 'settle-off' as const } : {}),
    ...(args['no-oracle'] ? { oracle: false } : {}),
    ...(args['no-corrections'] ? { learnerSettings: withoutCorrections() } : {}),
    ...(policy === 'openai'
      ? { provider: { ...DEFAULT_SETTINGS.provider, preset: 'custom' as const, baseUrl: baseUrl!, model: model!, apiKey: args['api-key'] ?? process.env['OPENAI_API_KEY'] ?? '' } }
      : {}),
  });
  const written = await writeReport(result, args.out);
  console.log(markdownReport(result));
  if (args['no-oracle']) console.log(['', 'No done oracle — the agent ends the task itself:', '', ...endingLines(result.records)].join('\n'));
  console.log(`Wrote ${written.markdown}, ${written.json}, ${written.svg}, ${written.png}`);
  return 0;
}

// An application that failed to install or start: one line naming it, and a failing exit.
runCli(main, (err) =>
  err instanceof SuiteValidationError ? { line: `Invalid suite: ${err.message}`, code: 1 }
    : isSuiteStartError(err) ? { line: `Suite could not start: ${err.message}`, code: 1 } : null);
