/** The one secrets module: the field detector, the free-text detector, the one mask and the masking functions. */
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../src/core/secrets/find-secrets.ts';
import { maskedAction, maskFieldValue, maskObservation, maskSecrets, maskTypedSecrets, redactValues } from '../../src/core/secrets/mask-secrets.ts';
import { secretFieldOf, secretKindOf } from '../../src/core/secrets/secret-fields.ts';
import { containsMask, isMask, kindOfMask, maskOf } from '../../src/core/secrets/secret-kinds.ts';
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

describe('the one mask', () => {
  it('is {kind}, recognised whole or inside a text', () => {
    expect(maskOf('password')).toBe('{password}');
    expect(maskOf('secret')).toBe('{secret}');
    expect(isMask('{payment}')).toBe(true);
    expect(isMask('{username}')).toBe(false);
    expect(kindOfMask('{one-time-code}')).toBe('one-time-code');
    expect(kindOfMask('hunter2')).toBeNull();
    expect(containsMask('fill([3], "{password}")')).toBe(true);
    expect(containsMask('fill([3], "{pass}")')).toBe(false);
  });
});

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
  it('takes the union of the old detectors, word-bounded', () => {
    // Names only the page digest's label list knew: tokens, API keys, secrets, a German password.
    expect(secretKindOf(node('1', 'textbox', 'API token'))).toBe('secret');
    expect(secretKindOf(node('1', 'textbox', 'Client secret'))).toBe('secret');
    expect(secretKindOf(node('1', 'textbox', 'API key'))).toBe('secret');
    expect(secretKindOf(node('1', 'textbox', 'Passwort'))).toBe('password');
    expect(secretKindOf(node('1', 'textbox', 'One-time PIN'))).toBe('one-time-code');
    // A value-holding field of another role counts by name (the digest masked those too).
    expect(secretKindOf(node('1', 'slider', 'PIN', { value: '4' }))).toBe('password');
    // The old label list matched inside words; these are not secrets.
    for (const name of ['Passport number', 'Passenger name', 'Secretary', 'Hotpot order', 'Compass heading']) {
      expect(secretKindOf(node('1', 'textbox', name)), name).toBeNull();
    }
  });
  it('counts a name on any field an action types into', () => {
    expect(secretFieldOf(act('fill(<generic "PIN">, "1234")'))).toBe('password');
    expect(secretFieldOf(act('click(<link "Forgot password?">)'))).toBeNull();
    expect(secretFieldOf(act('press(<textbox "Security code">, "Enter")'))).toBe('payment');
  });
});

describe('maskedAction', () => {
  const page = obs([node('1', 'textbox', 'Password', { inputType: 'password' }), node('2', 'textbox', 'Card', { autocomplete: 'cc-number' }), node('3', 'textbox', 'Search')]);
  const masked = (t: string, o = page) => {
    const m = maskedAction(act(t), o);
    return m && { action: formatAction(m.action), secret: m.secret };
  };
  it('masks text typed into secret fields, by ref or by role and name, and says what it hid', () => {
    expect(masked('fill([1], "hunter2")')).toEqual({ action: 'fill([1], "{password}")', secret: { kind: 'password', value: 'hunter2' } });
    expect(masked('fill([2], "4111 1111 1111 1111")')?.action).toBe('fill([2], "{payment}")');
    expect(masked('fill(<textbox "Password">, "hunter2")')?.action).toBe('fill(<textbox "Password">, "{password}")');
    expect(masked('fill(<textbox "One-time passcode">, "123456")', obs([]))?.action).toBe('fill(<textbox "One-time passcode">, "{one-time-code}")');
  });
  it('leaves other actions and already-masked text alone', () => {
    expect(masked('fill([3], "kettle")')).toBeNull();
    expect(masked('click([1])')).toBeNull();
    expect(masked('fill([1], "{password}")')).toBeNull();
  });
});

describe('maskObservation / maskFieldValue', () => {
  it('replaces the values of secret fields before any prompt sees them', () => {
    const page = obs([
      node('1', 'textbox', 'Card', { autocomplete: 'cc-number', value: '4111111111111111' }),
      node('2', 'textbox', 'Code', { autocomplete: 'one-time-code', value: '938211' }),
      node('3', 'textbox', 'Name', { value: 'Ada' }),
      node('4', 'textbox', 'Password', { inputType: 'password', value: 'hunter2' }),
      node('5', 'textbox', 'Password', { inputType: 'password', value: '' }),
    ]);
    const masked = maskObservation(page);
    expect(masked.nodes.map((n) => n.value)).toEqual(['{payment}', '{one-time-code}', 'Ada', '{password}', '']);
    expect(JSON.stringify(masked)).not.toContain('4111');
    // Nothing to mask: the same object.
    const clean = obs([node('3', 'textbox', 'Name', { value: 'Ada' })]);
    expect(maskObservation(clean)).toBe(clean);
    expect(maskFieldValue({ role: 'textbox', name: 'PIN', value: '{password}' }).value).toBe('{password}');
  });
});

describe('findSecrets', () => {
  const kinds = (text: string) => findSecrets(text).map((f) => [f.kind, f.value, text.slice(f.start, f.end)]);
  it.each([
    ['password: hunter2.', [['password', 'hunter2', 'hunter2']]],
    ['PIN code 4321', [['password', '4321', '4321']]],
    // "is" is a word, not the start of the value (the property test found this).
    ['password isaac1 then go', [['password', 'isaac1', 'isaac1']]],
    ['password is isaac1', [['password', 'isaac1', 'isaac1']]],
    ['the code is 482913', [['one-time-code', '482913', '482913']]],
    ['card 1234 5678 9012 3456', [['payment', '1234 5678 9012 3456', '1234 5678 9012 3456']]],
    ['pay 4111-1111-1111-1111 now', [['payment', '4111-1111-1111-1111', '4111-1111-1111-1111']]],
    ['use the API key sk-live-4eC39HqLyjWDarjtT1zdp7dc', [['secret', 'sk-live-4eC39HqLyjWDarjtT1zdp7dc', 'sk-live-4eC39HqLyjWDarjtT1zdp7dc']]],
    ['token: a1b2c3d4e5', [['secret', 'a1b2c3d4e5', 'a1b2c3d4e5']]],
    ['paste ghp_16C7e42F292c6912E7710c838347Ae178B4a', [['secret', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'ghp_16C7e42F292c6912E7710c838347Ae178B4a']]],
  ])('%s', (text, expected) => {
    expect(kinds(text)).toEqual(expected);
  });
  it.each([
    'Find the book with ISBN 978-0-306-40615-7',
    'ship to zip code 94103',
    'Reset the password field',
    'open commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39',
    'fill(<textbox "Password">, "{password}")',
    'the token from my email',
  ])('finds nothing in "%s"', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('maskSecrets / maskTypedSecrets / redactValues', () => {
  it('masks fills into secret fields inside a text, then written secrets, then the values again', () => {
    expect(maskSecrets('Log in: fill(<textbox "PIN">, "9931") then say 9931 and password: hunter2')).toBe(
      'Log in: fill(<textbox "PIN">, "{password}") then say {password} and password: {password}',
    );
    expect(maskTypedSecrets('fill(<searchbox "Search">, "teapot")')).toBe('fill(<searchbox "Search">, "teapot")');
  });
  it('replaces known values by their kind, longest first, ignoring very short ones', () => {
    expect(redactValues('typed hunter2 into the box; then a', [{ kind: 'password', value: 'hunter2' }, { kind: 'password', value: 'a' }])).toBe('typed {password} into the box; then a');
    expect(redactValues('1234 and 12345', [{ kind: 'password', value: '1234' }, { kind: 'one-time-code', value: '12345' }])).toBe('{password} and {one-time-code}');
  });
});
