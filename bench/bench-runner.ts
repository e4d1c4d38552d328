/**
 * The multi-attempt benchmark, as a function: every learner configuration
 * attempts every task K times in headless Chromium, through the extension's
 * own agent loop (AgentController), observation and action code. Only the
 * decider differs from the extension: it approves the top candidate.
 */
import { SingleBar } from 'cli-progress';
import type { Browser, Page } from 'playwright-core';
import { createOpenAiChatModel } from '../src/adapters/openai/openai-chat-model.ts';
import { countingChatModel } from '../src/core/llm/counting-chat-model.ts';
import { AgentController, isFinished } from '../src/core/agent/agent-controller.ts';
import type { Episode } from '../src/core/episode/episode.ts';
import { InMemoryEpisodeStore } from '../src/core/episode/episode-store.ts';
import type { Learner } from '../src/core/learning/learner.ts';
import { LEARNERS, learnerDefinition } from '../src/core/learning/registry/registry.ts';
import {
  BENCH_CONFIGURATIONS, buildLearners as buildRegistryLearners, inMemoryLearnerStores, procedureKnowledge, REGISTERED_LEARNERS,
} from '../src/core/learning/registry/registry-factories.ts';
import { learnerSettings, type LearnerPorts, type LearnerStores, type RunReport } from '../src/core/learning/learner-definition.ts';
import { createLlmPolicy } from '../src/core/policy/llm-policy.ts';
import { createOfflinePolicy } from '../src/core/policy/offline-policy.ts';
import type { CandidatePolicy } from '../src/core/policy/policy.ts';
import { createSimulatedPolicy } from '../src/core/policy/simulated-policy.ts';
import type { ChatModel } from '../src/core/ports.ts';
import { silentLogger, systemClock } from '../src/core/ports.ts';
import { seededRandom } from '../src/core/random.ts';
import { DEFAULT_SETTINGS, type ProviderSettings, type Settings } from '../src/core/settings.ts';
import { launchPlain } from '../test/support/chromium.ts';
import { checkTargets, summarizeLearner, type AttemptRecord } from './metrics.ts';
import { endingOf } from './ending-metrics.ts';
import { checkTeachingTargets, summarizeTeaching } from './teaching-metrics.ts';
import { attemptCost } from './cost-metrics.ts';
import { ProcedureLibrary } from '../src/core/replay/procedure-library.ts';
import { createPlaywrightPageDriver, installPageAgent } from './playwright-page-driver.ts';
import type { BenchResult } from './report.ts';
import { ANSWER_GLOBAL, checkReward, isSuccess, resolveTasks, teacherOf, type BenchTask, type Suite, type Teacher } from './suite.ts';
import { emptyTeaching, executedSemantics, teachOneStep, type LocateTeacherElement, type ShowInPage, type TeachingCounts } from './teach.ts';
import { showInPage } from './show-in-page.ts';

/** The default learner configurations, as the registry lists them (registry-factories.ts). */
export const LEARNER_CONFIGS: readonly string[] = BENCH_CONFIGURATIONS.default;
/** 'static' (no learner), or registry ids joined by '+', such as `<id>+<id>`. */
export type LearnerConfig = string;

/**
 * The registry ids of a configuration, or an error naming the unknown ones.
 * A trailing `+replay` runs it with learned procedures replayed (issue 25):
 * `<id>+<id>+replay` runs those learners with replay on.
 */
export function parseLearnerConfig(config: string): { ok: true; ids: string[]; replay: boolean } | { ok: false; message: string } {
  if (config === 'static') return { ok: true, ids: [], replay: false };
  const all = config.split('+').map((x) => x.trim());
  const replay = all.includes('replay');
  const ids = all.filter((x) => x !== 'replay');
  const known = LEARNERS.map((d) => d.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0 || ids.length === 0) {
    return { ok: false, message: `unknown learner "${config}" (static, or registry ids joined by "+": ${known.join(', ')}; "+replay" adds replay)` };
  }
  return { ok: true, ids, replay };
}
export type PolicyKind = 'offline' | 'simulated' | 'openai';

/**
 * Why a configuration cannot run without a model (a learner in it needs one),
 * or null. Such rows are reported as "needs a model" instead of as zeros.
 */
export function needsModelReason(config: LearnerConfig): string | null {
  const parsed = parseLearnerConfig(config);
  if (!parsed.ok) return null;
  const needing = parsed.ids.map((id) => learnerDefinition(id)).filter((d) => d.needsModel.level === 'required');
  return needing.length === 0 ? null : needing.map((d) => (d.needsModel.description.startsWith(d.label) ? d.needsModel.description : `${d.label}: ${d.needsModel.description}`)).join(' ');
}

/**
 * The benchmark explores as Algorithm 1 acts (sampling from Softmax(z′/T)),
 * whatever the extension ships: its published figures were measured so.
 */
export const BENCH_SELECTION = 'sampling' as const;

export interface BenchOptions {
  suite: Suite;
  learners: LearnerConfig[];
  attempts: number;
  policy: PolicyKind;
  /** σ of the simulated policy's Gaussian noise, in nats. */
  noise: number;
  seed: number;
  memory: 'fresh' | 'carry';
  profile: string;
  /** Comma-separated substrings (or `*` globs) of task ids; empty = all of the profile. */
  taskFilter: string;
  /** Exact task ids, in addition to the filter (meta-training runs one task per session). */
  taskIds?: string[];
  /** End a task's attempts after its first success (the rest count as missing: W-AUC is reported padded and unpadded). */
  stopAfterSuccess?: boolean;
  /** For --policy openai. */
  provider?: ProviderSettings;
  progress: boolean;
  /** Test seam: replaces launching Debian's Chromium. */
  launch?: () => Promise<Browser>;
  /** Called after every attempt with its record and the closed episode (the demo prints its logits). */
  onAttempt?: (record: AttemptRecord, episode: Episode) => void;
  /** Headed Chromium, for watching. */
  headed?: boolean;
  /** How the proposal is chosen (default: sampling, as Algorithm 1 acts). */
  selection?: 'sampling' | 'argmax';
  /**
   * `--ask-mode`: the sites' ask mode (autonomy/ask-mode.ts). With
   * 'unapproved-only' a step the teacher approved twice runs unasked, so the
   * teaching report's asks per attempt measure earned autonomy.
   */
  askMode?: 'every-step' | 'unapproved-only';
  /**
   * `--mutant settle-off`: the refusals figure's mutant: the page is read as soon as it loaded, without
   * the settle wait (issue 34), so a page still changing is acted on as it was.
   */
  mutant?: 'settle-off';
  /**
   * `--teach N`: the suite's teacher teaches the first N attempts of each task
   * (with memory carry: every attempt of the first N instances of each
   * template); the rest run alone. 0 or absent: nobody teaches.
   */
  teach?: number;
  /** Which attempts are taught, instead of `teach` (the demo): by task, 1-based attempt and instance of its template. */
  teachWhen?: (at: { task: BenchTask; attempt: number; instance: number }) => boolean;
  /** How the teacher corrects: in the panel (pick, edit; the default) or by Show me in the page (the demo). */
  teachBy?: 'panel' | 'show';
  /**
   * false (`--no-oracle`): the runner no longer ends an episode when the task's `done` says so; the
   * agent must end it itself (a teacher's stop is taught as "the task is done"). `done` is still
   * read, to count the steps taken after the goal was reached. Default true.
   */
  oracle?: boolean;
  /** Makes the learners' stores (default: empty ones); bench:team starts member B from what member A shared. */
  learnerSet?: () => LearnerSet;
  /**
   * Settings over a learner's defaults, by registry id (`settings.learners[id]`): an ablation row's, a
   * mutant's (`definition.mutants`), or those a learner's own benchmark (bench/<id>/) runs with.
   */
  learnerSettings?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Called with each attempt's learners once built (meta-training observes its learner's adaptations). */
  onLearners?: (learners: readonly Learner[]) => void;
}

export const POLICY_DESCRIPTIONS: Record<PolicyKind, string> = {
  offline: 'the built-in offline policy (a deterministic lexical scorer; no model, no network)',
  simulated: "the simulated policy (the offline policy's scores plus seeded Gaussian noise; no model)",
  openai: 'an OpenAI-compatible model endpoint',
};

/** FNV-1a, so per-task random streams depend on the seed and the task id only. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function matchesFilter(id: string, filter: string): boolean {
  const parts = filter.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) return true;
  return parts.some((p) => (p.includes('*') ? new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(id) : id.includes(p)));
}

/** The profile's tasks (a suite profile, or every task for "full"), then the --tasks filter. */
export function selectTasks(suite: Suite, all: BenchTask[], profile: string, filter: string): BenchTask[] {
  let chosen = all;
  const ids = suite.profiles?.[profile];
  if (ids) chosen = ids.map((id) => {
    const t = all.find((x) => x.id === id);
    if (!t) throw new Error(`profile ${profile} names an unknown task ${id}`);
    return t;
  });
  else if (profile !== 'full') throw new Error(`the suite has no profile "${profile}" (known: full${Object.keys(suite.profiles ?? {}).map((p) => `, ${p}`).join('')})`);
  chosen = chosen.filter((t) => matchesFilter(t.id, filter));
  if (chosen.length === 0) throw new Error(`no task matches --tasks ${filter}`);
  return chosen;
}

/** One configuration's memory: the learners' stores (built by the registry) and the episodes. */
export interface LearnerSet {
  stores: LearnerStores;
  episodes: InMemoryEpisodeStore;
}

export const freshSet = (): LearnerSet => ({ stores: inMemoryLearnerStores(), episodes: new InMemoryEpisodeStore() });

/** What the registry learners report of a run (LearnerFactory.runReport), collected from each learner set. */
function runReportCollector() {
  const sources = REGISTERED_LEARNERS.flatMap((d) => (d.runReport ? [{ id: d.id, source: d.runReport }] : []));
  const items = new Map<string, Map<string, unknown[]>>();
  return {
    async keep(config: string, set: LearnerSet) {
      for (const { id, source } of sources) {
        const byLearner = items.get(config) ?? new Map<string, unknown[]>();
        byLearner.set(id, [...(byLearner.get(id) ?? []), ...(await source.collect(set.stores))]);
        items.set(config, byLearner);
      }
    },
    reports(): Record<string, RunReport[]> {
      const out: Record<string, RunReport[]> = {};
      for (const [config, byLearner] of items) {
        const reports = sources.flatMap(({ id, source }) => {
          const report = source.summarize(byLearner.get(id) ?? []);
          return report ? [report] : [];
        });
        if (reports.length > 0) out[config] = reports;
      }
      return out;
    },
  };
}

/** The settings every registry learner declares for a benchmark mutant (`definition.mutants[name]`), by learner id. */
export function mutantSettings(name: string): Record<string, Record<string, unknown>> {
  return Object.fromEntries(REGISTERED_LEARNERS.flatMap((d) => {
    const settings = d.mutants?.[name];
    return settings ? [[d.id, settings as Record<string, unknown>]] : [];
  }));
}

/** The teaching figures' mutant: every learner without its correction rules (those that declare the mutant). */
export const withoutCorrections = (): Record<string, Record<string, unknown>> => mutantSettings('no-corrections');

/**
 * The settings of one attempt: the defaults with the suite's step limit, and every learner the
 * configuration names switched on (some learners are off by default in the extension), with the run's
 * settings over each learner's.
 */
export function attemptSettings(options: BenchOptions, task: BenchTask, ids: readonly string[]): Settings {
  const learners: Record<string, unknown> = { ...(DEFAULT_SETTINGS.learners ?? {}) };
  for (const definition of REGISTERED_LEARNERS) {
    const override = options.learnerSettings?.[definition.id];
    const named = ids.includes(definition.id);
    if (!override && !named) continue;
    const current = learnerSettings(definition, DEFAULT_SETTINGS) as Record<string, unknown>;
    learners[definition.id] = { ...current, ...(named ? { enabled: true } : {}), ...(override ?? {}) };
  }
  return {
    ...DEFAULT_SETTINGS,
    agent: {
      ...DEFAULT_SETTINGS.agent, maxSteps: task.maxSteps, seed: options.seed, selection: options.selection ?? BENCH_SELECTION,
      ...(options.askMode ? { askModes: { [new URL(task.startUrl).origin]: options.askMode } } : {}),
    },
    learners,
  };
}

class BrowserCrash extends Error {
  override name = 'BrowserCrash';
}

const CRASH = /Target crashed|Browser has been closed|browser has disconnected|Target page, context or browser has been closed|Page crashed/i;

export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const startedAt = new Date();
  const started = await options.suite.start?.();
  const baseUrl = started ? started.baseUrl : '';
  const launch = options.launch ?? (() => launchPlain({ headless: !options.headed }));
  let browser: Browser | null = null;
  const records: AttemptRecord[] = [];
  const crashed: BenchResult['crashed'] = [];
  let bar: SingleBar | null = null;
  try {
    const tasks = selectTasks(options.suite, resolveTasks(options.suite, { baseUrl }), options.profile, options.taskFilter)
      .filter((t) => !options.taskIds || options.taskIds.includes(t.id));
    if (tasks.length === 0) throw new Error(`no task has the id ${options.taskIds?.join(', ')}`);
    const chat: ChatModel | null = options.policy === 'openai'
      ? createOpenAiChatModel(options.provider ?? (() => { throw new Error('--policy openai needs a provider (base URL and model)'); })())
      : null;
    // Without a model, configurations that need one are not run: they would only repeat 'static'.
    const needsModel: Record<string, string> = {};
    if (!chat) {
      for (const l of options.learners) {
        const reason = needsModelReason(l);
        if (reason) needsModel[l] = reason;
      }
    }
    const runnable = options.learners.filter((l) => !(l in needsModel));
    if (options.progress) {
      bar = new SingleBar({
        format: 'bench |{bar}| {value}/{total} attempts · {learner} · {task}',
        stream: process.stderr,
        noTTYOutput: true,
        notTTYSchedule: 10_000,
        hideCursor: true,
      });
      bar.start(runnable.length * tasks.length * options.attempts, 0, { learner: '', task: '' });
    }
    const getBrowser = async (): Promise<Browser> => {
      if (!browser || !browser.isConnected()) browser = await launch();
      return browser;
    };

    const runReports = runReportCollector();
    // 1-based instance number of each task within its template, in run order (a task without one is its own).
    const instanceOf = new Map<string, number>();
    const seenOf = new Map<string, number>();
    for (const t of tasks) {
      const key = t.template ?? t.id;
      seenOf.set(key, (seenOf.get(key) ?? 0) + 1);
      instanceOf.set(t.id, seenOf.get(key)!);
    }
    const teachN = options.teach ?? 0;
    const taughtAt = (task: BenchTask, attempt: number): boolean => options.teachWhen
      ? options.teachWhen({ task, attempt, instance: instanceOf.get(task.id) ?? 1 })
      : teachN > 0 && (options.memory === 'carry' ? (instanceOf.get(task.id) ?? 1) <= teachN : attempt <= teachN);
    if (teachN > 0 || options.teachWhen) {
      const without = tasks.filter((t) => teacherOf(options.suite, t) === null).map((t) => t.id);
      if (without.length > 0) throw new Error(`--teach needs a teacher for every task; none for ${without.join(', ')}`);
    }
    for (const learner of runnable) {
      const makeSet = options.learnerSet ?? freshSet;
      let carried = makeSet();
      for (const task of tasks) {
        if (options.memory === 'fresh' && task !== tasks[0]) await runReports.keep(learner, carried);
        const set = options.memory === 'fresh' ? makeSet() : carried;
        carried = set;
        for (let attempt = 1; attempt <= options.attempts; attempt++) {
          bar?.update({ learner, task: task.id });
          let record: AttemptRecord | null = null;
          for (let tries = 0; tries < 2 && record === null; tries++) {
            try {
              const teacher = taughtAt(task, attempt) ? teacherOf(options.suite, task) : null;
              record = await runAttempt({ options, learner, task, attempt, set, chat, browser: await getBrowser(), teacher, instance: instanceOf.get(task.id) ?? 1 });
            } catch (err) {
              if (!(err instanceof BrowserCrash) && !CRASH.test(String(err))) throw err;
              await (browser as Browser | null)?.close().catch(() => undefined);
              browser = null;
              if (tries === 1) {
                crashed.push({ learner, taskId: task.id, error: String(err) });
              }
            }
          }
          if (record === null) {
            // Crashed twice: the remaining attempts of this task are reported as errors.
            for (let k = attempt; k <= options.attempts; k++) {
              records.push(emptyRecord(learner, task, k, 'Chromium crashed twice on this task'));
              bar?.increment();
            }
            break;
          }
          records.push(record);
          bar?.increment();
          if (options.stopAfterSuccess && record.outcome === 'success') {
            bar?.increment(options.attempts - attempt);
            break;
          }
        }
      }
      await runReports.keep(learner, carried);
    }
    bar?.stop();
    const learnerReports = runReports.reports();
    const summaries = runnable.map((l) => summarizeLearner(l, records, options.attempts));
    const baseline = summaries.find((s) => s.learner === 'static');
    const setting = { policy: options.policy, memory: options.memory };
    const targets = Object.fromEntries(summaries.filter((s) => baseline && s.learner !== 'static').map((s) => [s.learner, checkTargets(s, baseline!, setting)]));
    const teaching = teachN > 0 ? runnable.map((l) => summarizeTeaching(l, records, options.attempts, options.memory)) : [];
    const teachingBaseline = teaching.find((t) => t.learner === 'static');
    const teachingTargets = Object.fromEntries(teaching.map((t) => [t.learner, checkTeachingTargets(t, teachingBaseline, { memory: options.memory, teach: teachN })]));
    const base = options.policy === 'simulated' ? `simulated (σ = ${options.noise})` : options.policy === 'openai' ? `openai (${options.provider?.model ?? '?'})` : 'offline';
    const policyName = `${base}, proposals by ${options.selection ?? BENCH_SELECTION}`;
    return {
      suite: options.suite.name,
      policy: policyName,
      policyDescription: POLICY_DESCRIPTIONS[options.policy],
      seed: options.seed,
      attempts: options.attempts,
      memory: options.memory,
      profile: options.profile,
      teach: teachN,
      ...(options.mutant ? { mutant: options.mutant } : {}),
      ...(teachN > 0 ? { teaching, teachingTargets } : {}),
      learners: options.learners,
      tasks: tasks.map((t) => ({ id: t.id, template: t.template ?? null, ...(t.set ? { set: t.set } : {}) })),
      summaries,
      targets,
      ...(Object.keys(learnerReports).length > 0 ? { learnerReports } : {}),
      records,
      crashed,
      needsModel,
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
    };
  } finally {
    bar?.stop();
    await (browser as Browser | null)?.close().catch(() => undefined);
    await options.suite.stop?.();
  }
}

function emptyRecord(learner: string, task: BenchTask, attempt: number, error: string): AttemptRecord {
  return {
    learner, taskId: task.id, template: task.template ?? null, attempt, outcome: 'error', reward: null,
    steps: 0, modelCalls: 0, promptTokens: 0, completionTokens: 0, decisionLatenciesMs: [], durationMs: 0, error,
    instruction: task.instruction ?? '', answer: null, actions: [], policyCalls: 0, instance: 1, taught: false,
  };
}

function buildPolicy(options: BenchOptions, chat: ChatModel | null, streamSeed: number): CandidatePolicy {
  const offline = createOfflinePolicy();
  if (options.policy === 'offline') return offline;
  if (options.policy === 'simulated') return createSimulatedPolicy({ base: offline, random: seededRandom(streamSeed), noise: options.noise });
  if (!chat) throw new Error('internal: no chat model for --policy openai');
  return createLlmPolicy(chat, { logitMode: options.provider?.logitMode ?? 'auto' });
}

/** The ports the registry builds learners (and their knowledge) from, on this learner set's stores. */
function learnerPorts(set: LearnerSet, settings: Settings, chat: ChatModel | null, streamSeed: number): LearnerPorts {
  return {
    stores: set.stores,
    settings: () => settings,
    model: () => chat,
    clock: systemClock,
    random: seededRandom(streamSeed ^ 0x5bd1e995),
  };
}

/** The configuration's learners, from the registry, in registry order, on this learner set's stores. */
function buildLearners(config: LearnerConfig, set: LearnerSet, settings: Settings, chat: ChatModel | null, streamSeed: number): Learner[] {
  const parsed = parseLearnerConfig(config);
  if (!parsed.ok) throw new Error(parsed.message);
  if (parsed.ids.length === 0) return [];
  return buildRegistryLearners(learnerPorts(set, settings, chat, streamSeed), { ids: parsed.ids }).map((b) => b.learner);
}

async function runAttempt(input: {
  options: BenchOptions;
  learner: LearnerConfig;
  task: BenchTask;
  attempt: number;
  set: LearnerSet;
  chat: ChatModel | null;
  browser: Browser;
  /** The teacher of this attempt, or null when it runs alone. */
  teacher: Teacher | null;
  /** 1-based instance of the task within its template. */
  instance: number;
}): Promise<AttemptRecord> {
  const { options, learner, task, attempt, set, browser, teacher } = input;
  // Every model call of this attempt, the policy's and every learner's, counted at the port.
  const chat = input.chat === null ? null : countingChatModel(input.chat);
  const t0 = Date.now();
  // Same stream for every learner at the same (task, attempt): equal footing.
  const streamSeed = hash(`${options.seed}:${task.id}:${attempt}`);
  const context = await browser.newContext();
  let crashedPage = false;
  try {
    await installPageAgent(context);
    const page = await context.newPage();
    page.on('crash', () => { crashedPage = true; });
    await page.goto(task.startUrl, { waitUntil: 'load' });
    const fromSetup = await task.setup?.(page, { seed: options.seed, attempt });
    const instruction = typeof fromSetup === 'string' && fromSetup ? fromSetup : task.instruction ?? '';
    const parsedConfig = parseLearnerConfig(learner);
    const settings = attemptSettings(options, task, parsedConfig.ok ? parsedConfig.ids : []);
    const policy = buildPolicy(options, chat, streamSeed);
    const learners = buildLearners(learner, set, settings, chat, streamSeed);
    options.onLearners?.(learners);
    const driver = createPlaywrightPageDriver(page, options.mutant === 'settle-off' ? { settleOff: true } : {});
    let ids = 0;
    const controller = new AgentController({
      episodes: set.episodes,
      pageFor: () => driver,
      policy: () => policy,
      learners: () => learners,
      evaluator: () => null,
      settings: () => settings,
      clock: systemClock,
      logger: silentLogger,
      newId: () => `${learner}:${task.id}:${attempt}:${ids++}`,
      // The bench's decider approves every proposal, so a plan starts approved.
      ...(parseLearnerConfig(learner).ok && (parseLearnerConfig(learner) as { replay: boolean }).replay
        ? { replay: new ProcedureLibrary({ knowledge: procedureKnowledge(learnerPorts(set, settings, chat, streamSeed)), episodes: set.episodes, learnerData: set.stores.learnerData }, systemClock, { approvePlans: true }) }
        : {}),
    });

    const teaching = teacher ? emptyTeaching() : null;
    const driven = await driveEpisode(controller, {
      task, instruction, page, oracle: options.oracle ?? true,
      ...(teacher && teaching ? {
        teaching: {
          teacher, counts: teaching, locate: driver.locate, ctx: { instruction, seed: options.seed, attempt },
          ...(options.teachBy === 'show' ? { showMe: showInPage(page, driver, settings.agent.observationChars) } : {}),
        },
      } : {}),
    });
    const episode = driven.episode;
    if (crashedPage) throw new BrowserCrash(`the page crashed during ${task.id}`);

    // The reward reads the page's state; the agent's final message is stored on the page first.
    let reward: number | null = null;
    let error: string | null = null;
    try {
      await storeAnswer(page, episode.answer);
      reward = checkReward(await task.reward(page), task.id);
    } catch (err) {
      if (crashedPage || CRASH.test(String(err))) throw new BrowserCrash(String(err));
      error = `reward threw: ${err instanceof Error ? err.message : String(err)}`;
    }
    // The verdict teaches the learners; an unknown outcome stops the episode without one.
    const closed = isFinished(episode)
      ? episode
      : reward === null
        ? await controller.stop(episode.id)
        : await controller.finish(episode.id, AgentController.verdictFromReward(reward));
    const executed = closed.steps.filter((s) => s.chosen);
    const record: AttemptRecord = {
      learner,
      taskId: task.id,
      template: task.template ?? null,
      attempt,
      outcome: reward === null ? 'error' : isSuccess(reward) ? 'success' : 'failure',
      reward,
      steps: executed.length,
      modelCalls: chat?.calls ?? 0,
      promptTokens: closed.steps.reduce((n, s) => n + s.promptTokens, 0),
      completionTokens: closed.steps.reduce((n, s) => n + s.completionTokens, 0),
      decisionLatenciesMs: closed.steps.map((s) => s.decisionLatencyMs),
      durationMs: Date.now() - t0,
      error: error ?? (closed.status === 'error' ? closed.error : null),
      instruction,
      answer: closed.answer,
      ...attemptCost(closed),
      actions: executed.map((s) => `${s.url.replace(/^https?:\/\/[^/]+/, '')} ${s.chosen!.semantic}${s.result && !s.result.ok ? ` → ${s.result.code}` : ''}${s.chosen!.correction ? ` (${s.chosen!.correction})` : ''}`),
      instance: input.instance,
      taught: teaching !== null,
      ...(options.oracle === false ? { ending: endingOf(closed, driven.goalAt) } : {}),
      ...(teaching ? { teaching: { asks: teaching.asks, picks: teaching.picks, edits: teaching.edits, shows: teaching.shows, unteachable: teaching.unteachable, stopped: teaching.stopped } } : {}),
    };
    options.onAttempt?.(record, closed);
    return record;
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Stores the agent's final message on the page once it stopped navigating (the last click may have started a load). */
async function storeAnswer(page: Page, answer: string | null): Promise<void> {
  for (let tries = 0; ; tries++) {
    await page.waitForLoadState('load').catch(() => undefined);
    try {
      await page.evaluate(([name, value]) => { (globalThis as Record<string, unknown>)[name!] = value; }, [ANSWER_GLOBAL, answer] as const);
      return;
    } catch (err) {
      if (tries >= 5 || !/Execution context was destroyed|navigation/i.test(String(err))) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Drives one episode of the core loop: alone, as an automatic decider that
 * approves the top candidate; taught, as a person who approves, picks or
 * edits what the teacher says (teach.ts). Until the agent answers, the step
 * limit is reached, the task reports done, the teacher stops, or a proposal
 * fails (the controller pauses the episode).
 */
async function driveEpisode(controller: AgentController, input: {
  task: BenchTask;
  instruction: string;
  page: Page;
  teaching?: { teacher: Teacher; counts: TeachingCounts; locate: LocateTeacherElement; ctx: { instruction: string; seed: number; attempt: number }; showMe?: ShowInPage };
  oracle: boolean;
}): Promise<{ episode: Episode; goalAt: number | null }> {
  let episode = await controller.start({ task: input.instruction, startUrl: input.page.url(), tabId: null, kind: 'bench' });
  let goalAt: number | null = null;
  while (episode.status === 'awaiting_approval') {
    const reached = input.task.done !== undefined && (await input.task.done(input.page).catch(() => false));
    if (reached) {
      if (input.oracle) break;
      goalAt ??= executedSemantics(episode).length;
    }
    if (!input.teaching) {
      episode = await controller.decide(episode.id, { kind: 'approve' }, { auto: true });
      continue;
    }
    // Without the oracle the agent must end the task itself; the person teaching it knows their goal is
    // reached and says so (a teacher written for the oracle has no rule for "done" and would go on acting).
    const teacher: Teacher = reached ? async () => ({ do: 'stop' }) : input.teaching.teacher;
    const taught = await teachOneStep({ controller, episode, page: input.page, ...input.teaching, teacher, finishOnStop: !input.oracle });
    episode = taught.episode;
    if (taught.end) break;
  }
  if (!input.oracle && goalAt === null && input.task.done && (await input.task.done(input.page).catch(() => false))) goalAt = executedSemantics(episode).length;
  return { episode, goalAt };
}
