/**
 * An approval names the data its form sends (issue 30): "Delete" approved on
 * row 7, whose id travels in a hidden input, is not "Delete" on row 9. Secret
 * values are compared by a keyed digest, never kept as text.
 */
import { describe, expect, it } from 'vitest';
import { earnedAutonomy } from '../../src/core/autonomy/earned-autonomy.ts';
import type { PersonDecision } from '../../src/core/autonomy/approval-history.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { FormField, PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { fingerprintChanges, fingerprintOf } from '../../src/core/page/target-fingerprint.ts';
import { formFieldValue, keyFormData } from '../../src/core/secrets/form-data.ts';
import { maskObservation } from '../../src/core/secrets/mask-secrets.ts';

const SHA_HUNTER2 = 'f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7';
const SHA_TOK7 = '62fcd3f03d26b381a192d6c92fd52357102e9d420bae655d7da33ddb74eb5610';
const SHA_TOK9 = '65d32d893b0e813473606b0ecb9da0610acfdcf00b7f196c3ec8ffb8925ae424';

const del = (formData: FormField[] | undefined): SnapshotNode => ({
  ref: '5', kind: 'interactive', role: 'button', name: 'Delete', states: {}, depth: 0, inViewport: true,
  inForm: true, submits: true, formAction: 'https://mail.test/act/delete', formMethod: 'post', ...(formData ? { formData } : {}),
});
const page = (nodes: SnapshotNode[]): PageObservation => ({
  url: 'https://mail.test/inbox', title: 'Inbox', nodes, focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
});
function gate(approved: SnapshotNode, now: SnapshotNode) {
  const history: PersonDecision[] = [1, 2].map((at) => ({
    origin: 'https://mail.test', url: 'https://mail.test/inbox', regUrl: '/inbox', action: 'click(<button "Delete">)', verdict: 'approved', episodeId: `e${at}`, at, target: fingerprintOf(approved),
  }));
  const parsed = parseAction('click([5])');
  if (!parsed.ok) throw parsed.error;
  return earnedAutonomy({
    mode: 'unapproved-only', approvalsNeeded: 2, history, marks: [], observation: page([now]), regUrl: '/inbox',
    action: parsed.action, semantic: 'click(<button "Delete">)', previousUrl: null, flaggedWord: null,
  });
}

describe('the gate compares what a form sends', () => {
  it('Delete approved on row 7 (a hidden id) asks on row 9, and runs on row 7', () => {
    const row = (id: string) => del([{ name: 'id', value: id }, { name: 'folder', value: 'spam' }]);
    expect(gate(row('7'), row('9'))).toEqual({ run: false, reason: 'the element changed since you approved it: its form sends id=9, not id=7' });
    expect(gate(row('7'), row('7'))).toEqual({ run: true, reason: 'you approved it 2× on this page, same target' });
  });

  it('a field added, or one gone, is another effect; the order of fields is not', () => {
    const then = fingerprintOf(del([{ name: 'id', value: '7' }]));
    expect(fingerprintChanges(then, fingerprintOf(del([{ name: 'id', value: '7' }, { name: 'all', value: '1' }])), 'site')).toEqual(['its form sends all=1 as well']);
    expect(fingerprintChanges(fingerprintOf(del([{ name: 'a', value: '1' }, { name: 'b', value: '2' }])), fingerprintOf(del([{ name: 'b', value: '2' }, { name: 'a', value: '1' }])), 'exact')).toEqual([]);
    expect(fingerprintChanges(fingerprintOf(del([{ name: 'id', value: '7' }, { name: 'all', value: '1' }])), then, 'site')).toEqual(['its form no longer sends all=1']);
  });

  it('an approval recorded without the form data does not cover a form that sends data', () => {
    expect(gate(del(undefined), del([{ name: 'id', value: '7' }])).reason).toBe('the element changed since you approved it: its form sends id=7; what it sent was not recorded when you approved it');
  });

  it('anti-forgery tokens, new on every page load, are not part of the effect', () => {
    const row = (token: string) => del([{ name: 'id', value: '7' }, { name: 'csrf_token', value: token }, { name: 'authenticity_token', value: token }]);
    expect(gate(row('a1'), row('b2')).run).toBe(true);
  });

  it('secret values compare by their keyed digest: the same secret matches, another does not, and none is stored as text', () => {
    const tokenRow = (sha: string) => del([{ name: 'row-token', value: `{secret}#${sha}` }]);
    const keyed = (sha: string) => maskObservation(page([tokenRow(sha)]), 'install-key').nodes[0]!;
    expect(keyed(SHA_TOK7).formData).toEqual([{ name: 'row-token', value: '{secret}~42c8e83746ef0eb0' }]);
    expect(gate(keyed(SHA_TOK7), keyed(SHA_TOK9)).reason).toBe('the element changed since you approved it: its form sends row-token={secret}~c4e117376d69c935, not row-token={secret}~42c8e83746ef0eb0');
    expect(gate(keyed(SHA_TOK7), keyed(SHA_TOK7)).run).toBe(true);
  });
});

describe('form data secrets', () => {
  it('the page layer sends a secret field value as its mask and its unkeyed SHA-256, never the text', () => {
    expect(formFieldValue({ name: 'password', inputType: 'password', value: 'hunter2' })).toBe(`{password}#${SHA_HUNTER2}`);
    expect(formFieldValue({ name: 'row-token', inputType: 'hidden', value: 'tok-7' })).toBe(`{secret}#${SHA_TOK7}`);
    expect(formFieldValue({ name: 'note', inputType: 'hidden', value: 'sk-abcdefghijklmnopqrstuvwx' })).toMatch(/^\{secret\}#[0-9a-f]{64}$/);
    expect(formFieldValue({ name: 'id', inputType: 'hidden', value: '7' })).toBe('7');
    expect(formFieldValue({ name: 'body', value: 'x'.repeat(500) })).toBe(`${'x'.repeat(300)}…#c38c2bf3055c516a98ac5d97f30e7c36`);
  });

  it('the worker keys the digest with its install key, or without a key keeps only the mask', () => {
    const fields = [{ name: 'pw', value: `{password}#${SHA_HUNTER2}` }, { name: 'id', value: '7' }];
    expect(keyFormData(fields, 'install-key')).toEqual([{ name: 'pw', value: '{password}~da6f28b73df2ecbd' }, { name: 'id', value: '7' }]);
    expect(keyFormData(fields, undefined)).toEqual([{ name: 'pw', value: '{password}' }, { name: 'id', value: '7' }]);
    // Keyed once: a second pass (the tab driver, then maskedPage) changes nothing.
    expect(keyFormData(keyFormData(fields, 'install-key'), undefined)).toEqual(keyFormData(fields, 'install-key'));
  });
});

describe('a demonstrated step stores no unkeyed digest', () => {
  it('the page layer\'s SHA-256 of a secret becomes its mask in the stored fingerprint', async () => {
    const { recordedStep } = await import('../../src/core/agent/demonstration-recorder.ts');
    const target = fingerprintOf(del([{ name: 'id', value: '7' }, { name: 'pw', value: `{password}#${SHA_HUNTER2}` }]));
    const step = recordedStep({ action: 'click(<button "Delete">)', url: 'https://mail.test/inbox', title: 'Inbox', target }, 0, 0, 0);
    expect(step.chosen?.target?.formData).toEqual([{ name: 'id', value: '7' }, { name: 'pw', value: '{password}' }]);
  });
});
