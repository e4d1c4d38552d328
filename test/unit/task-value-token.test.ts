/**
 * Issue 23, learning finding 5: the ⟨task value⟩ state token stands for "the
 * value the task asked for". A wrong value that shares a word with the right
 * one ("red mug" for "red teapot") must not become that token, or JitRL merges
 * the state after the mistake with the state after the right step. Tasks
 * written for this test.
 */
import { describe, expect, it } from 'vitest';
import { isTaskValue, jaccard, stateTokensOf, TASK_VALUE_TOKEN, taskWords, tokenize } from '../../src/core/page/tokenize.ts';

const TASK = tokenize('Order one red teapot for the kitchen');

describe('the task-value state token (finding 5)', () => {
  it('the right value folds, a wrong one sharing "red" keeps its words', () => {
    const right = stateTokensOf(['fill(<searchbox "Search">, "red teapot")'], TASK);
    const wrong = stateTokensOf(['fill(<searchbox "Search">, "red mug")'], TASK);
    expect(right).toEqual(['fill', 'searchbox', 'search', TASK_VALUE_TOKEN, '⟨fill searchbox "search"⟩']);
    expect(wrong).toEqual(['fill', 'searchbox', 'search', 'red', 'mug', '⟨fill searchbox "search"⟩']);
    // 4 shared of 7 (the search box's mark is shared): the two states are no longer one (they were: Jaccard 1).
    expect(jaccard(right, wrong)).toBe(4 / 7);
  });

  it('a different thing before the shared word is another value too', () => {
    expect(isTaskValue(tokenize('green teapot'), TASK)).toBe(false);
    expect(isTaskValue(tokenize('red teapot'), TASK)).toBe(true);
  });

  it('site formatting beside the value (numbers, linking words) does not make it another value', () => {
    expect(isTaskValue(tokenize('(UTC+09:00) Tokyo'), tokenize('Use Tokyo as my home zone'))).toBe(true);
    expect(isTaskValue(tokenize('Deutsch (German)'), tokenize('Show the site in German'))).toBe(true);
    expect(isTaskValue(tokenize('Red teapot, ceramic'), tokenize('Order a red teapot for the kitchen'))).toBe(true);
    expect(isTaskValue(tokenize('teapot'), TASK)).toBe(true);
    expect(isTaskValue(tokenize('blue bowl'), TASK)).toBe(false);
    // The task's first word is its verb: "Red mug" is what "Wrap the mug" asks for.
    expect(isTaskValue(tokenize('Red mug'), tokenize('Wrap the mug as a gift'))).toBe(true);
  });

  it('a task naming two things that share a word: each is its value, a third is not (repeated words keep their places)', () => {
    const task = 'Put the Lemon balm and the Lemon thyme in my basket';
    // tokenize deduplicates ("lemon" once), so the task's words in order are read with taskWords.
    expect(taskWords(task)).toEqual(['put', 'lemon', 'balm', 'lemon', 'thyme', 'in', 'basket']);
    expect(isTaskValue(tokenize('Lemon balm'), taskWords(task))).toBe(true);
    expect(isTaskValue(tokenize('Lemon thyme'), taskWords(task))).toBe(true);
    expect(isTaskValue(tokenize('Lemon mint'), taskWords(task))).toBe(false);
    expect(stateTokensOf(['fill(<searchbox "Search">, "Lemon thyme")'], taskWords(task))).toEqual(['fill', 'searchbox', 'search', TASK_VALUE_TOKEN, '⟨fill searchbox "search"⟩']);
    // "red mug" stays another value when the mug the task names is blue.
    expect(isTaskValue(tokenize('red mug'), taskWords('Add the red teapot and the blue mug'))).toBe(false);
    expect(isTaskValue(tokenize('blue mug'), taskWords('Add the red teapot and the blue mug'))).toBe(true);
  });
});
