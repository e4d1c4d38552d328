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
 */
import * as z from 'zod';
import type { Page } from 'playwright-core';

/** Global on the page where the runner stores the agent's final message before `reward`. */
export const ANSWER_GLOBAL = '__apprenticeAnswer';

export interface TaskContext {
  seed: number;
  /** 1-based attempt number of this task. */
  attempt: number;
}

export interface BenchTask {
  id: string;
  /** Tasks with the same template are instances of one task pattern (cross-instance generalization). */
  template?: string;
  startUrl: string;
  /** The instruction, when it does not depend on the seed; otherwise returned by `setup`. */
  instruction?: string;
  setup?(page: Page, ctx: TaskContext): Promise<string | void>;
  /** Score in [0, 1] from the page's state; 1 is success. */
  reward(page: Page): Promise<number>;
  /** Optional early stop: true when the site reached a terminal state (an order placed, a form saved). */
  done?(page: Page): Promise<boolean>;
  maxSteps: number;
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
}

const fn = (what: string) =>
  z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', { message: `must be a function (${what})` });

export const BenchTaskSchema = z.object({
  id: z.string({ error: 'must be a non-empty string' }).min(1, { error: 'must be a non-empty string' }),
  template: z.string().min(1).optional(),
  startUrl: z.string({ error: 'must be a URL string' }).refine((u) => URL.canParse(u), { error: 'must be an absolute URL' }),
  instruction: z.string().min(1).optional(),
  setup: fn('setup(page, { seed, attempt })').optional(),
  reward: fn('reward(page) → number in [0, 1]'),
  done: fn('done(page) → boolean').optional(),
  maxSteps: z.number({ error: 'must be a positive integer' }).int().positive(),
});

export const SuiteSchema = z.object({
  name: z.string({ error: 'must be a non-empty string' }).min(1),
  start: fn('start()').optional(),
  stop: fn('stop()').optional(),
  tasks: z.union([z.array(z.unknown()), fn('tasks({ baseUrl })')], {
    error: 'must be an array of tasks or a function ({ baseUrl }) → tasks',
  }),
  profiles: z.record(z.string(), z.array(z.string())).optional(),
});

export class SuiteValidationError extends Error {
  override readonly name = 'SuiteValidationError';
}

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
