import { describe, expect, it } from 'vitest';
import { maskedAction, maskObservationSecrets, redactSecretValues, secretKindOf, SECRET_MASKS } from '../../src/core/page/secret-fields.ts';
import { formatAction, parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});
const obs = (nodes: SnapshotNode[]): PageObservation => ({
  url: 'https://bank.test/', title: 'Bank', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});
const act = (t: string) => {
  const p = parseAction(t);
  if (!p.ok) throw p.error;
  return p.action;
};

describe('secretKindOf', () => {
  it('reads the type, the autocomplete token and the name', () => {
    expect(secretKindOf(node('1', 'textbox', 'Pass', { inputType: 'password' }))).toBe('password');
    expect(secretKindOf(node('1', 'textbox', 'x', { autocomplete: 'section-a new-password' }))).toBe('password');
    expect(secretKindOf(node('1', 'textbox', 'Code', { autocomplete: 'one-time-code' }))).toBe('one-time-code');
    expect(secretKindOf(node('1', 'textbox', 'x', { autocomplete: 'billing cc-csc' }))).toBe('payment');
    expect(secretKindOf(node('1', 'textbox', 'Card number'))).toBe('payment');
    expect(secretKindOf(node('1', 'textbox', 'Verification code'))).toBe('one-time-code');
    expect(secretKindOf(node('1', 'textbox', 'Email'))).toBeNull();
    // A button named "Card number" holds nothing typed.
    expect(secretKindOf(node('1', 'button', 'Card number'))).toBeNull();
  });
});

describe('maskedAction', () => {
  const page = obs([node('1', 'textbox', 'Password', { inputType: 'password' }), node('2', 'textbox', 'Card', { autocomplete: 'cc-number' }), node('3', 'textbox', 'Search')]);
  it('masks text typed into secret fields, by ref or by role and name', () => {
    expect(formatAction(maskedAction(act('fill([1], "hunter2")'), page)!)).toBe('fill([1], "{password}")');
    expect(formatAction(maskedAction(act('fill([2], "4111 1111 1111 1111")'), page)!)).toBe('fill([2], "{payment}")');
    expect(formatAction(maskedAction(act('fill(<textbox "Password">, "hunter2")'), page)!)).toBe('fill(<textbox "Password">, "{password}")');
    expect(formatAction(maskedAction(act('fill(<textbox "One-time passcode">, "123456")'), obs([]))!)).toBe('fill(<textbox "One-time passcode">, "{one-time-code}")');
  });
  it('leaves other actions and already-masked text alone', () => {
    expect(maskedAction(act('fill([3], "kettle")'), page)).toBeNull();
    expect(maskedAction(act('click([1])'), page)).toBeNull();
    expect(maskedAction(act(`fill([1], "${SECRET_MASKS.password}")`), page)).toBeNull();
  });
});

describe('maskObservationSecrets', () => {
  it('replaces the values of one-time-code and payment fields before any prompt sees them', () => {
    const page = obs([node('1', 'textbox', 'Card', { autocomplete: 'cc-number', value: '4111111111111111' }), node('2', 'textbox', 'Code', { autocomplete: 'one-time-code', value: '938211' }), node('3', 'textbox', 'Name', { value: 'Ada' })]);
    const masked = maskObservationSecrets(page);
    expect(masked.nodes.map((n) => n.value)).toEqual(['{payment}', '{one-time-code}', 'Ada']);
    expect(JSON.stringify(masked)).not.toContain('4111');
  });
});

describe('redactSecretValues', () => {
  it('replaces known secret values in free text, ignoring very short ones', () => {
    expect(redactSecretValues('typed hunter2 into the box; then a', ['hunter2', 'a'])).toBe('typed {secret} into the box; then a');
  });
});
