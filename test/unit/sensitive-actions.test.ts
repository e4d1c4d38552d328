/**
 * The auto-approve gate, rule by rule: each case is one way a proposal could
 * change something the person did not see coming.
 */
import { describe, expect, it } from 'vitest';
import { autoApproveVerdict, classifySensitivity, destructiveWordIn, DESTRUCTIVE_WORDS } from '../../src/core/agent/sensitive-actions.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import { alwaysAskReason } from '../../src/core/autonomy/always-ask.ts';
import type { Action } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

const page = (nodes: SnapshotNode[], url = 'https://shop.test/account/settings'): PageObservation => ({
  url, title: 'Shop', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});

const act = (text: string): Action => {
  const parsed = parseAction(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.action;
};

const NODES = [
  node('1', 'button', 'Apply', { inForm: true, submits: true }), // <button> without type in a form
  node('2', 'button', 'Show more', { inForm: true, submits: false }), // type=button
  node('3', 'textbox', 'Search'),
  node('4', 'textbox', 'Card', { autocomplete: 'cc-number' }),
  node('5', 'textbox', 'CVC'),
  node('6', 'textbox', 'Code', { autocomplete: 'one-time-code' }),
  node('7', 'checkbox', 'Newsletter', { inForm: true, submits: true }),
  node('8', 'combobox', 'Sort by', { options: ['Price', 'Name'], inForm: true, submits: true }),
  node('9', 'link', 'Delete account', { href: 'https://shop.test/account/delete' }),
  node('10', 'button', 'Cancel subscription'),
  node('11', 'link', 'Next page', { href: 'https://shop.test/account/settings?page=2' }),
  node('12', 'checkbox', 'Remember me', { inForm: true, submits: false }),
  node('13', 'textbox', 'Card number'),
  node('14', 'textbox', 'Message', { inForm: true }),
  node('15', 'button', 'Transfer funds'),
  node('16', 'textbox', 'New password', { inputType: 'password' }),
];
const obs = page(NODES);
const sensitive = (text: string) => classifySensitivity(act(text), obs).sensitive;

describe('classifySensitivity', () => {
  it('asks for a <button> without a type inside a form, not for a type=button one', () => {
    expect(sensitive('click([1])')).toBe(true);
    expect(sensitive('click([2])')).toBe(false);
  });

  it('asks for Space and Enter on a form control', () => {
    expect(sensitive('press([12], " ")')).toBe(true);
    expect(sensitive('press([12], "Space")')).toBe(true);
    expect(sensitive('press([3], "Enter")')).toBe(true);
    expect(sensitive('press([3], "Tab")')).toBe(false);
  });

  it('reads key aliases as the key they name (the review pressed "Spacebar" past the gate), and asks for keys it does not know', () => {
    expect(sensitive('press([12], "Spacebar")')).toBe(true);
    expect(sensitive('press([3], "Return")')).toBe(true);
    expect(sensitive('press([3], "shift+Return")')).toBe(true);
    expect(sensitive('press([3], "Submitkey")')).toBe(true);
  });

  it('asks for fill text containing a line break', () => {
    expect(sensitive('fill([14], "hello\\nworld")')).toBe(true);
    expect(sensitive('fill([14], "hello world")')).toBe(false);
  });

  it('in a field of lines (a textarea) a line break is text, not a submit; a carriage return still asks', () => {
    const notes = page([node('15', 'textbox', 'Notes', { inForm: true, multiline: true })]);
    expect(classifySensitivity(act('fill([15], "hello\\nworld")'), notes)).toEqual({ sensitive: false, reason: null });
    expect(classifySensitivity(act('fill([15], "hello\\rworld")'), notes)).toEqual({ sensitive: true, reason: 'the text contains a line break, which may submit a form' });
    expect(alwaysAskReason(act('fill([15], "a\\nb")'), 'fill(<textbox "Notes">, "a\\nb")', { ...notes, nodes: [{ ...notes.nodes[0]!, formAction: 'https://evil.test/x' }] }, [])).toBeNull();
    // The same text in a one-line field of a form sending elsewhere: Enter would send it there.
    expect(alwaysAskReason(act('fill([15], "a\\nb")'), 'fill(<textbox "Notes">, "a\\nb")', { ...notes, nodes: [{ ...notes.nodes[0]!, multiline: undefined, formAction: 'https://evil.test/x' }] }, [])).toBe('its form sends to another origin (https://evil.test)');
  });

  it('asks for a check or select that submits its form, not for one that does not', () => {
    expect(sensitive('check([7])')).toBe(true);
    expect(sensitive('select_option([8], "Name")')).toBe(true);
    expect(sensitive('check([12])')).toBe(false);
  });

  it('asks for payment fields by autocomplete cc-* and by names like card number and CVC', () => {
    expect(classifySensitivity(act('fill([4], "4111")'), obs).reason).toBe('types into a payment field');
    expect(classifySensitivity(act('fill([5], "123")'), obs).reason).toBe('types into a payment field');
    expect(classifySensitivity(act('fill([13], "4111")'), obs).reason).toBe('types into a payment field');
    expect(classifySensitivity(act('fill([6], "938211")'), obs).reason).toBe('types into a one-time-code field');
    expect(classifySensitivity(act('fill([16], "pw")'), obs).reason).toBe('types into a password field');
    expect(sensitive('fill([3], "card games")')).toBe(false);
  });

  it('asks for destructive names from the documented list, whatever the role', () => {
    expect(sensitive('click([9])')).toBe(true);
    expect(sensitive('click([10])')).toBe(true);
    expect(sensitive('click([15])')).toBe(true);
    expect(destructiveWordIn('Cancel   subscription')).toBe('cancel subscription');
    expect(destructiveWordIn('Removed items')).toBeNull(); // whole words only
    expect(destructiveWordIn('Payment history')).toBeNull();
    expect(DESTRUCTIVE_WORDS).toContain('transfer');
  });

  it('asks when the text a person sees is destructive though the name is not (aria-label "Continue" on "Delete account")', () => {
    const obs = page([node('1', 'button', 'Continue', { shownText: 'Delete account' }), node('2', 'button', 'Continue', { shownText: '' })]);
    expect(classifySensitivity(act('click([1])'), obs)).toEqual({ sensitive: true, reason: '"Delete account" may be irreversible (delete)' });
    expect(classifySensitivity(act('click([2])'), obs).sensitive).toBe(false);
  });

  it('asks for a goto with a query string to another path, not for one on the same path', () => {
    expect(sensitive('goto("https://shop.test/api/export?data=secret")')).toBe(true);
    expect(sensitive('goto("/account/settings?tab=2")')).toBe(false);
    expect(sensitive('goto("https://shop.test/help")')).toBe(false);
    expect(sensitive('goto("https://evil.test/?q=1")')).toBe(true);
  });

  it('lets a same-origin link and plain typing through', () => {
    expect(sensitive('click([11])')).toBe(false);
    expect(sensitive('fill([3], "kettle")')).toBe(false);
  });

  it('asks when the element is not on the current page', () => {
    expect(sensitive('click([99])')).toBe(true);
  });
});

describe('autoApproveVerdict', () => {
  const base = { grantedOrigins: ['https://shop.test'], action: act('click([11])'), candidateOrigin: 'model' as const };

  it('applies on the origin the page is on now, not the one the episode started on', () => {
    expect(autoApproveVerdict({ ...base, observation: obs }).sensitive).toBe(false);
    const elsewhere = page([node('11', 'link', 'Next page', { href: 'https://other.test/x' })], 'https://other.test/');
    expect(autoApproveVerdict({ ...base, observation: elsewhere }).reason).toBe('auto-approve is not on for https://other.test');
  });

  it('pauses after a navigation from another origin and for memory-only candidates', () => {
    expect(autoApproveVerdict({ ...base, observation: obs, previousUrl: 'https://other.test/a' }).sensitive).toBe(true);
    expect(autoApproveVerdict({ ...base, observation: obs, previousUrl: 'https://shop.test/a' }).sensitive).toBe(false);
    expect(autoApproveVerdict({ ...base, observation: obs, candidateOrigin: 'memory' }).sensitive).toBe(true);
  });
});
