/**
 * The task-suite interface of the multi-attempt benchmark. A suite is a module
 * (passed as `--suite <path>`) whose default export — or `suite` export —
 * matches `Suite`. It is validated when loaded, and the error names the field
 * that is missing or wrong.
 *
 * Lifecycle, per attempt of a task:
 *   1. the runner opens a fresh browser context (empty cookies and storage);
 *   2. it navigates to `startUrl`;
 *   3. it calls `setup(page, { seed, attempt })`, which may seed the site's
 *      state (and reload) and may return the instruction when it depends on
 *      the seed; repeated attempts use the same seed, so the instance is
 *      identical;
 *   4. the agent runs for at most `maxSteps` steps; after each step the
 *      runner calls `done(page)` (when given) and stops when it is true;
 *   5. the runner stores the agent's final message (its `send_msg_to_user`
 *      text, or null) on the page as `window.__apprenticeAnswer`
 *      (see ANSWER_GLOBAL), then calls `reward(page)`: a number in [0, 1]
 *      computed from the page's state. Success is reward ≥ 1 − 1e-9 (exactly 1);
 *      a reward that throws records the attempt as an error, not a failure.
 *
 * The teacher (optional, on a task or on the suite; the task's wins): with
 * `--teach N`, before each step of a taught attempt the runner asks it what a
 * person would do now (see `TeacherStep`), and enters that through the
 * agent's own decision path: approve the proposal when it matches, pick the
 * matching other candidate, or else edit the action in (bench/teach.ts).
 */
import * as z from 'zod';
import type { Page } from 'playwright-core';

/** Global on the page where the runner stores the agent's final message before `reward`. */
export const ANSWER_GLOBAL = '__apprenticeAnswer';

/**
 * One step a teacher would do. `selector` is a Playwright selector in the main
 * frame (`nth` picks among several matches); `answer` ends the task with a
 * message; `stop` ends the attempt (the reward decides success).
 */
export type TeacherStep =
  | { do: 'click' | 'check' | 'uncheck' | 'hover'; selector: string; nth?: number }
  | { do: 'fill'; selector: string; nth?: number; text: string }
  | { do: 'select'; selector: string; nth?: number; option: string }
  | { do: 'press'; selector?: string; nth?: number; key: string }
  | { do: 'answer'; text: string }
  | { do: 'stop' };

/**
 * What the teacher is told: the instruction, the seed and 1-based attempt,
 * `step` (0-based index of the step about to run) and `done`, the executed
 * actions so far in the grammar's semantic form.
 */
export interface TeacherContext { instruction: string; seed: number; attempt: number; step: number; done: readonly string[] }

/** Null: no opinion, approve what the agent proposes. */
export type Teacher = (page: Page, ctx: TeacherContext) => Promise<TeacherStep | null>;

export interface TaskContext {
  seed: number;
  /** 1-based attempt number of this task. */
  attempt: number;
}

export interface BenchTask {
  id: string;
  /** Tasks with the same template are instances of one task pattern (cross-instance generalization). */
  template?: string;
  /**
   * Which set the task belongs to: 'test' tasks are a frozen held-out set
   * (never tune on them); the report prints development and test figures
   * apart when any task names its set. Absent: development.
   */
  set?: 'development' | 'test';
  startUrl: string;
  /** The instruction, when it does not depend on the seed; otherwise returned by `setup`. */
  instruction?: string;
  setup?(page: Page, ctx: TaskContext): Promise<string | void>;
  /** Score in [0, 1] from the page's state; 1 is success. */
  reward(page: Page): Promise<number>;
  /** Optional early stop: true when the site reached a terminal state (an order placed, a form saved). */
  done?(page: Page): Promise<boolean>;
  maxSteps: number;
  /** What a person would do at each step (see `TeacherStep`); used by `--teach N`. */
  teacher?(page: Page, ctx: { instruction: string; seed: number; attempt: number; step: number; done: readonly string[] }): Promise<TeacherStep | null>;
}

export interface SuiteContext {
  baseUrl: string;
}

export interface Suite {
  name: string;
  /** Start serving the suite's pages; the returned baseUrl is passed to `tasks` when it is a function. */
  start?(): Promise<{ baseUrl: string } | void>;
  stop?(): Promise<void>;
  tasks: BenchTask[] | ((ctx: SuiteContext) => BenchTask[]);
  /** Named subsets of task ids, chosen with `--profile <name>` (e.g. a CI-sized "quick"). */
  profiles?: Record<string, string[]>;
  /** A suite-wide teacher, for tasks without their own. */
  teacher?(page: Page, ctx: { instruction: string; seed: number; attempt: number; step: number; done: readonly string[] }): Promise<TeacherStep | null>;
}

const fn = (what: string) =>
  z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { message: `must be a function (${what})` });

export const BenchTaskSchema = z.object({
  id: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  template: z.string().min(1).optional(),
  set: z.enum(['development', 'test']).optional(),
  startUrl: z.string({ error: 'must be a URL string' }).refine((u) => URL.canParse(u), { error: 'must be an absolute URL' }),
  instruction: z.string().min(1).optional(),
  setup: fn('setup(page, { seed, attempt })').optional(),
  reward: fn('reward(page) → number in [0, 1]'),
  done: fn('done(page) → boolean').optional(),
  maxSteps: z.number({ error: 'must be a positive integer' }).int().positive(),
  teacher: fn('teacher(page, { instruction, seed, attempt, step, done })').optional(),
});

export const SuiteSchema = z.object({
  name: z.string({ error: 'must be a non-empty string' }).min(1),
  start: fn('start()').optional(),
  stop: fn('stop()').optional(),
  tasks: z.union([z.array(z.unknown()), fn('tasks({ baseUrl })')], {
    error: 'must be an array of tasks or a function ({ baseUrl }) → tasks',
  }),
  profiles: z.record(z.string(), z.array(z.string())).optional(),
  teacher: fn('teacher(page, { instruction, seed, attempt, step, done })').optional(),
});

export class SuiteValidationError extends Error {
  override readonly name = 'SuiteValidationError';
}

/**
 * A suite whose application could not be installed, seeded or started. The
 * runner prints its one-line message (what failed) and exits non-zero.
 */
export const isSuiteStartError = (err: unknown): err is Error =>
  err instanceof Error && (err.name === 'AppUnavailableError' || err.name === 'SuiteStartError');

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describeIssues(prefix: string, root: unknown, error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      const where = path ? `${prefix}.${path}` : prefix;
      return valueAt(root, issue.path) === undefined ? `${where} is missing` : `${where} ${issue.message}`;
    })
    .join('; ');
}

/** Validates a loaded suite module's export; throws SuiteValidationError naming the field. */
export function validateSuite(value: unknown, source = 'suite'): Suite {
  if (typeof value !== 'object' || value === null) {
    throw new SuiteValidationError(`${source}: expected an object with name and tasks, got ${value === null ? 'null' : typeof value}`);
  }
  const parsed = SuiteSchema.safeParse(value);
  if (!parsed.success) throw new SuiteValidationError(`${source}: ${describeIssues('suite', value, parsed.error)}`);
  return value as Suite;
}

/** Validates the task list (after `tasks(ctx)` was called, if it is a function); ids must be unique. */
export function validateTasks(value: unknown, source = 'suite'): BenchTask[] {
  if (!Array.isArray(value)) throw new SuiteValidationError(`${source}: suite.tasks must be an array of tasks`);
  const seen = new Set<string>();
  value.forEach((task, i) => {
    const label = typeof task === 'object' && task !== null && typeof (task as { id?: unknown }).id === 'string'
      ? `tasks[${i}] (${(task as { id: string }).id})`
      : `tasks[${i}]`;
    if (typeof task !== 'object' || task === null) throw new SuiteValidationError(`${source}: ${label} must be an object`);
    const parsed = BenchTaskSchema.safeParse(task);
    if (!parsed.success) throw new SuiteValidationError(`${source}: ${describeIssues(label, task, parsed.error)}`);
    const t = task as BenchTask;
    if (t.instruction === undefined && t.setup === undefined) {
      throw new SuiteValidationError(`${source}: ${label}.instruction is missing (give an instruction, or a setup that returns one)`);
    }
    if (seen.has(t.id)) throw new SuiteValidationError(`${source}: ${label}.id is a duplicate of an earlier task`);
    seen.add(t.id);
  });
  return value as BenchTask[];
}

/** Resolves the task list of a validated suite. */
export function resolveTasks(suite: Suite, ctx: SuiteContext, source = 'suite'): BenchTask[] {
  const list = typeof suite.tasks === 'function' ? suite.tasks(ctx) : suite.tasks;
  return validateTasks(list, source);
}

/** Imports a suite module by path and validates its default (or `suite`) export. */
export async function loadSuite(modulePath: string): Promise<Suite> {
  const { pathToFileURL } = await import('node:url');
  const { resolve } = await import('node:path');
  const mod = (await import(pathToFileURL(resolve(modulePath)).href)) as Record<string, unknown>;
  const value = mod['default'] ?? mod['suite'];
  if (value === undefined) throw new SuiteValidationError(`${modulePath}: the module has no default export and no \`suite\` export`);
  return validateSuite(value, modulePath);
}

/** Clamps and checks a reward; a non-number or NaN is an error, not a failure. */
export function checkReward(value: unknown, taskId: string): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new SuiteValidationError(`${taskId}: reward(page) returned ${String(value)}, expected a number in [0, 1]`);
  }
  return Math.min(1, Math.max(0, value));
}

export const isSuccess = (reward: number): boolean => reward >= 1 - 1e-9;

const selectorOf = z.object({ selector: z.string().min(1), nth: z.number().int().nonnegative().optional() });
/** A teacher's answer is checked like any other input from a suite. */
export const TeacherStepSchema = z.union([
  selectorOf.extend({ do: z.enum(['click', 'check', 'uncheck', 'hover']) }),
  selectorOf.extend({ do: z.literal('fill'), text: z.string() }),
  selectorOf.extend({ do: z.literal('select'), option: z.string() }),
  z.object({ do: z.literal('press'), selector: z.string().min(1).optional(), nth: z.number().int().nonnegative().optional(), key: z.string().min(1) }),
  z.object({ do: z.literal('answer'), text: z.string() }),
  z.object({ do: z.literal('stop') }),
]);

/** The teacher of a task: its own, else the suite's, else none. */
export function teacherOf(suite: Suite, task: BenchTask): Teacher | null {
  if (task.teacher) return (page, ctx) => task.teacher!(page, ctx);
  if (suite.teacher) return (page, ctx) => suite.teacher!(page, ctx);
  return null;
}
