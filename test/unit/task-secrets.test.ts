/** Secrets typed in the task text: masked where they would be stored, kept whole where they are not secrets. */
import { describe, expect, it } from 'vitest';
import { maskTaskSecrets, unmaskTaskSecrets } from '../../src/core/secrets/task-secrets.ts';

describe('maskTaskSecrets', () => {
  it.each([
    ['Sign in as ada with password hunter2 and open orders', 'Sign in as ada with password {password} and open orders', { '{password}': 'hunter2' }],
    ['log in, password: "correct horse"', 'log in, password: "{password}"', { '{password}': 'correct horse' }],
    ['enter the verification code 482913.', 'enter the verification code {one-time-code}.', { '{one-time-code}': '482913' }],
    ['pay with card 4111 1111 1111 1111, CVC 123', 'pay with card {payment}, CVC {payment}', { '{payment}': '4111 1111 1111 1111' }],
  ])('%s', (task, masked, secrets) => {
    expect(maskTaskSecrets(task)).toEqual({ task: masked, secrets });
  });

  it.each(['Reset the password field', 'Find the password reset page', 'buy 2 kettles for order 12345', 'change my PIN'])('leaves "%s" as it is', (task) => {
    expect(maskTaskSecrets(task)).toEqual({ task, secrets: {} });
  });

  it('puts the value back, escaped for the action grammar', () => {
    expect(unmaskTaskSecrets('fill([3], "{password}")', { '{password}': 'a"b' })).toBe('fill([3], "a\\"b")');
  });
});
