import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReward, resolveTasks, SuiteValidationError, validateSuite, validateTasks } from '../../bench/suite.ts';
import apprenticeSites from '../../bench/suites/apprentice-sites/index.ts';

const task = (extra: Record<string, unknown> = {}) => ({
  id: 't1', startUrl: 'http://127.0.0.1:1/', instruction: 'Do it', reward: async () => 1, maxSteps: 5, ...extra,
});
const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SuiteValidationError);
    return (err as Error).message;
  }
  throw new Error('expected a SuiteValidationError');
};

describe('validateSuite', () => {
  it('names a missing suite field', () => {
    expect(errorOf(() => validateSuite({ tasks: [] }, 'my-suite.ts'))).toBe('my-suite.ts: suite.name is missing');
    expect(errorOf(() => validateSuite({ name: 'x' }))).toBe('suite: suite.tasks is missing');
  });
  it('names a field of the wrong type', () => {
    expect(errorOf(() => validateSuite({ name: 'x', tasks: [], start: 'yes' }))).toBe('suite: suite.start must be a function (start())');
    expect(errorOf(() => validateSuite({ name: 'x', tasks: 3 }))).toContain('suite.tasks must be an array of tasks or a function');
  });
  it('rejects a module that is not an object', () => {
    expect(errorOf(() => validateSuite(null))).toBe('suite: expected an object with name and tasks, got null');
  });
  it('accepts a valid suite with a task function', () => {
    const suite = validateSuite({ name: 'x', tasks: ({ baseUrl }: { baseUrl: string }) => [task({ startUrl: `${baseUrl}/a` })] });
    expect(resolveTasks(suite, { baseUrl: 'http://127.0.0.1:9' }).map((t) => t.startUrl)).toEqual(['http://127.0.0.1:9/a']);
  });
});

describe('validateTasks', () => {
  it('names the missing task field with the task index and id', () => {
    const { reward: _reward, ...noReward } = task();
    expect(errorOf(() => validateTasks([task({ id: 'a' }), noReward]))).toBe('suite: tasks[1] (t1).reward is missing');
    const { maxSteps: _m, ...noSteps } = task();
    expect(errorOf(() => validateTasks([noSteps]))).toBe('suite: tasks[0] (t1).maxSteps is missing');
  });
  it('explains invalid values', () => {
    expect(errorOf(() => validateTasks([task({ startUrl: 'shop/home' })]))).toBe('suite: tasks[0] (t1).startUrl must be an absolute URL');
    expect(errorOf(() => validateTasks([task({ maxSteps: 0 })]))).toContain('tasks[0] (t1).maxSteps');
    expect(errorOf(() => validateTasks([task({ reward: 1 })]))).toBe('suite: tasks[0] (t1).reward must be a function (reward(page) → number in [0, 1])');
  });
  it('needs an instruction or a setup that returns one', () => {
    const { instruction: _i, ...bare } = task();
    expect(errorOf(() => validateTasks([bare]))).toBe('suite: tasks[0] (t1).instruction is missing (give an instruction, or a setup that returns one)');
    expect(validateTasks([{ ...bare, setup: async () => 'Do it' }])).toHaveLength(1);
  });
  it('rejects duplicate ids', () => {
    expect(errorOf(() => validateTasks([task(), task()]))).toBe('suite: tasks[1] (t1).id is a duplicate of an earlier task');
  });
});

describe('checkReward', () => {
  it('clamps numbers and rejects non-numbers', () => {
    expect(checkReward(1.5, 't')).toBe(1);
    expect(checkReward(-2, 't')).toBe(0);
    expect(errorOf(() => checkReward(Number.NaN, 't'))).toBe('t: reward(page) returned NaN, expected a number in [0, 1]');
    expect(errorOf(() => checkReward(undefined, 't'))).toBe('t: reward(page) returned undefined, expected a number in [0, 1]');
  });
});

describe('the shipped apprentice-sites suite', () => {
  let baseUrl = '';
  beforeAll(async () => {
    const started = await apprenticeSites.start?.();
    baseUrl = started ? started.baseUrl : '';
  });
  afterAll(async () => { await apprenticeSites.stop?.(); });

  it('matches the interface and has ≥ 30 tasks with templated instances', () => {
    const suite = validateSuite(apprenticeSites);
    const tasks = resolveTasks(suite, { baseUrl });
    expect(tasks).toHaveLength(48);
    const perTemplate = new Map<string, number>();
    for (const t of tasks) if (t.template) perTemplate.set(t.template, (perTemplate.get(t.template) ?? 0) + 1);
    expect(Object.fromEntries(perTemplate)).toEqual({
      'shop.add-to-cart': 4, 'shop.cheapest-in-category': 2, 'shop.ask-price': 2, 'checkout.shipping-country': 3, 'checkout.pay-with': 2,
      'forum.upvote': 3, 'forum.comment': 2, 'forum.count-comments': 2, 'admin.customer-group': 3, 'admin.order-status': 2,
      'admin.ship-order': 2, 'settings.time-zone': 3,
    });
    // Four sites, four origins.
    expect(new Set(tasks.map((t) => new URL(t.startUrl).origin)).size).toBe(4);
    const ids = new Set(tasks.map((t) => t.id));
    for (const id of suite.profiles?.['quick'] ?? []) expect(ids.has(id)).toBe(true);
  });
});
