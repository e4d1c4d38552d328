/**
 * `tsx --import ./scripts/node-glob-loader.mjs bench/teacher-check.ts --suite <module> [--profile <name>] [--tasks <filter>]`:
 * each task's teacher alone, with no agent, in headless Chromium: its steps
 * are done with Playwright until it stops or answers, then the task's own
 * reward decides. Every teacher must reach 1; a reward that throws is an
 * error. Before the teacher, the reward of the untouched start state must be
 * below 1 (a do-nothing agent fails: the reward is not trivially met). Ends
 * with the line `N passed, N failed` (CI reads it).
 */
import { resolve } from 'node:path';
import { parseCli } from './cli.ts';
import type { Page } from 'playwright-core';
import { launchPlain } from '../test/support/chromium.ts';
import { selectTasks } from './bench-runner.ts';
import { ANSWER_GLOBAL, checkReward, isSuccess, isSuiteStartError, loadSuite, resolveTasks, teacherOf, type BenchTask, type Suite, type TeacherStep } from './suite.ts';

async function perform(page: Page, step: Exclude<TeacherStep, { do: 'answer' } | { do: 'stop' }>): Promise<void> {
  // 15 s: on a loaded machine a real application's page (WordPress under php -S) can take 5 s to act.
  page.setDefaultTimeout(15_000);
  const target = step.do === 'press' && step.selector === undefined ? null : page.locator(step.selector!).nth(step.nth ?? 0);
  if (step.do === 'click') await target!.click();
  else if (step.do === 'check') await target!.check();
  else if (step.do === 'uncheck') await target!.uncheck();
  else if (step.do === 'hover') await target!.hover();
  else if (step.do === 'fill') await target!.fill(step.text);
  else if (step.do === 'select') await target!.selectOption({ label: step.option });
  else if (step.do === 'press') await (target ? target.press(step.key) : page.keyboard.press(step.key));
  await page.waitForLoadState('load').catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
}

const storeAnswer = (page: Page, answer: string | null): Promise<void> =>
  page.evaluate(([name, value]) => { (globalThis as Record<string, unknown>)[name!] = value; }, [ANSWER_GLOBAL, answer] as const);

/** One task with its teacher alone: 'success', 'failure (…)' or 'error (…)'. */
export async function checkTeacher(suite: Suite, task: BenchTask, page: Page, seed = 0): Promise<string> {
  const teacher = teacherOf(suite, task);
  if (!teacher) return 'error (no teacher)';
  await page.goto(task.startUrl);
  const instruction = (await task.setup?.(page, { seed, attempt: 1 })) || task.instruction || '';
  await storeAnswer(page, null);
  if (isSuccess(checkReward(await task.reward(page), task.id))) return 'failure (the untouched start state already earns reward 1)';
  const done: string[] = [];
  let answer: string | null = null;
  for (let step = 0; step < task.maxSteps * 2; step++) {
    const next = await teacher(page, { instruction, seed, attempt: 1, step, done });
    if (next === null || next.do === 'stop') break;
    if (next.do === 'answer') { answer = next.text; break; }
    try {
      await perform(page, next);
    } catch (err) {
      return `error (step ${step} on ${new URL(page.url()).pathname}: ${JSON.stringify(next)}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
    }
    done.push(JSON.stringify(next));
    if (await task.done?.(page)) {
      // The task reached a terminal state; the teacher still has the last word (an answer).
      const last = await teacher(page, { instruction, seed, attempt: 1, step: step + 1, done });
      if (last?.do === 'answer') answer = last.text;
      break;
    }
  }
  await storeAnswer(page, answer);
  try {
    const reward = checkReward(await task.reward(page), task.id);
    return isSuccess(reward) ? `success (${done.length} steps)` : `failure (reward ${reward}, after ${done.join(' → ')})`;
  } catch (err) {
    return `error (${err instanceof Error ? err.message : String(err)})`;
  }
}

async function main(): Promise<number> {
  const cli = parseCli(
    { options: { suite: { type: 'string' }, profile: { type: 'string', default: 'full' }, tasks: { type: 'string', default: '' } } },
    'tsx bench/teacher-check.ts --suite <module> [flags]: runs each task\'s teacher alone (no model, no learner) in headless Chromium and says whether it succeeds.',
  );
  if ('exit' in cli) return cli.exit;
  const { values } = cli.args;
  if (!values.suite) { console.error('--suite <module> is required'); return 2; }
  const suite = await loadSuite(resolve(values.suite));
  const started = await suite.start?.();
  const browser = await launchPlain();
  let passed = 0;
  let failed = 0;
  try {
    const tasks = selectTasks(suite, resolveTasks(suite, { baseUrl: started ? started.baseUrl : '' }), values.profile, values.tasks);
    for (const task of tasks) {
      const context = await browser.newContext();
      const outcome = await checkTeacher(suite, task, await context.newPage()).catch((err: unknown) => `error (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
      await context.close();
      if (outcome.startsWith('success')) passed++;
      else failed++;
      console.log(`${outcome.startsWith('success') ? '✓' : '✗'} ${task.id}${task.set === 'test' ? ' [test]' : ''}: ${outcome}`);
    }
  } finally {
    await browser.close();
    await suite.stop?.();
  }
  console.log(`teachers alone: ${passed} / ${passed + failed}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => { process.exitCode = code; },
    (err: unknown) => {
      console.error(isSuiteStartError(err) ? `Suite could not start: ${err.message}` : err);
      process.exitCode = 1;
    },
  );
}
