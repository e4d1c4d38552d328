import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import {
  resolveSemanticAction,
  semanticKey,
  targetNode,
  toSemanticAction,
} from '../../src/core/page/semantic-action.ts';

const node = (ref: string | null, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref,
  kind: ref === null ? 'heading' : 'interactive',
  role,
  name,
  states: {},
  depth: 0,
  inViewport: true,
  ...extra,
});

const page = (nodes: SnapshotNode[]): PageObservation => ({
  url: 'http://127.0.0.1/shop',
  title: 'Shop',
  nodes,
  focusedRef: null,
  offscreen: { above: 0, below: 0 },
  omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 },
  tookMs: 1,
});

const obs = page([
  node(null, 'heading', 'Sign in', { level: 1 }),
  node('1', 'textbox', 'Email'),
  node('2', 'textbox', 'Password', { inputType: 'password' }),
  node('3', 'button', '  Sign\n  in '),
  node('4', 'link', 'Forgot password?'),
  node('f1:7', 'checkbox', 'Remember me', { frame: 'f1' }),
  node('8', 'combobox', 'Country', { options: ['France', 'Japan'] }),
]);

describe('toSemanticAction / semanticKey', () => {
  it('replaces a ref target with the role and collapsed name of its node', () => {
    expect(toSemanticAction({ type: 'click', target: { kind: 'ref', ref: '3' } }, obs)).toEqual({
      type: 'click',
      target: { kind: 'semantic', role: 'button', name: 'Sign in' },
    });
    expect(semanticKey({ type: 'check', target: { kind: 'ref', ref: 'f1:7' } }, obs)).toBe('check(<checkbox "Remember me">)');
    expect(semanticKey({ type: 'scroll', target: { kind: 'ref', ref: '8' }, dx: 0, dy: 40 }, obs)).toBe('scroll(<combobox "Country">, 0, 40)');
  });

  it('keeps texts as they are, so different messages stay different keys', () => {
    expect(semanticKey({ type: 'fill', target: { kind: 'ref', ref: '1' }, text: 'a@b.c' }, obs)).toBe('fill(<textbox "Email">, "a@b.c")');
    expect(semanticKey({ type: 'send_msg_to_user', text: '42' }, obs)).toBe('send_msg_to_user("42")');
    expect(semanticKey({ type: 'send_msg_to_user', text: '43' }, obs)).toBe('send_msg_to_user("43")');
    expect(semanticKey({ type: 'press', keys: 'Enter' }, obs)).toBe('press("Enter")');
    expect(semanticKey({ type: 'goto', url: 'http://x/y' }, obs)).toBe('goto("http://x/y")');
  });

  it('leaves unknown refs and semantic targets alone', () => {
    const gone: Action = { type: 'click', target: { kind: 'ref', ref: '99' } };
    expect(toSemanticAction(gone, obs)).toBe(gone);
    const sem: Action = { type: 'click', target: { kind: 'semantic', role: 'link', name: 'Home' } };
    expect(toSemanticAction(sem, obs)).toBe(sem);
  });

  it('targetNode finds the node of a ref target only', () => {
    expect(targetNode({ type: 'hover', target: { kind: 'ref', ref: '4' } }, obs)?.name).toBe('Forgot password?');
    expect(targetNode({ type: 'hover', target: { kind: 'semantic', role: 'link', name: 'x' } }, obs)).toBeUndefined();
    expect(targetNode({ type: 'go_back' }, obs)).toBeUndefined();
  });
});

describe('resolveSemanticAction', () => {
  const sem = (role: string, name: string): Action => ({ type: 'click', target: { kind: 'semantic', role, name } });

  it('checks that a ref target exists', () => {
    expect(resolveSemanticAction({ type: 'click', target: { kind: 'ref', ref: '4' } }, obs)).toEqual({
      ok: true,
      action: { type: 'click', target: { kind: 'ref', ref: '4' } },
      match: 'ref',
    });
    expect(resolveSemanticAction({ type: 'click', target: { kind: 'ref', ref: '99' } }, obs)).toEqual({
      ok: false,
      code: 'element_gone',
      message: 'ref [99] is not on the current page',
    });
  });

  it('passes targetless actions through', () => {
    expect(resolveSemanticAction({ type: 'go_back' }, obs)).toEqual({ ok: true, action: { type: 'go_back' }, match: 'exact' });
  });

  it('resolves exact role + name, normalizing case and spaces, never to a structural line', () => {
    expect(resolveSemanticAction(sem('Button', 'sign IN'), obs)).toEqual({
      ok: true,
      action: { type: 'click', target: { kind: 'ref', ref: '3' } },
      match: 'exact',
    });
    // The heading "Sign in" has no ref; the only link is not a match.
    expect(resolveSemanticAction(sem('heading', 'Sign in'), obs)).toMatchObject({ ok: false, code: 'unresolved' });
  });

  it('keeps the rest of the action and resolves frames', () => {
    expect(resolveSemanticAction({ type: 'fill', target: { kind: 'semantic', role: 'textbox', name: 'Email' }, text: 'x y' }, obs)).toEqual({
      ok: true,
      action: { type: 'fill', target: { kind: 'ref', ref: '1' }, text: 'x y' },
      match: 'exact',
    });
    expect(resolveSemanticAction({ type: 'check', target: { kind: 'semantic', role: 'checkbox', name: 'Remember me' } }, obs)).toMatchObject({
      ok: true,
      action: { target: { kind: 'ref', ref: 'f1:7' } },
    });
  });

  it('never resolves to a near name or a compatible role', () => {
    // Containment, token overlap and a styled link for a button used to be accepted: each is another element.
    expect(resolveSemanticAction(sem('link', 'Forgot password'), obs)).toMatchObject({ ok: false, code: 'unresolved', candidates: 0 });
    expect(resolveSemanticAction(sem('button', 'Forgot password?'), obs)).toMatchObject({ ok: false, code: 'unresolved' });
    expect(resolveSemanticAction({ type: 'fill', target: { kind: 'semantic', role: 'searchbox', name: 'Email' }, text: 'q' }, obs)).toMatchObject({ ok: false });
  });

  it('several elements of one role and name are no match: never the first, never the one in view', () => {
    const rows = page([
      node('1', 'button', 'Remove', { context: [{ role: 'row', name: 'Ada Lovelace' }] }),
      node('2', 'button', 'Remove', { context: [{ role: 'row', name: 'Alan Turing' }] }),
      node('3', 'button', 'Remove', { context: [{ role: 'row', name: 'Grace Hopper' }], inViewport: false }),
    ]);
    expect(resolveSemanticAction(sem('button', 'Remove'), rows)).toEqual({
      ok: false, code: 'unresolved', candidates: 3, message: '3 elements match <button "Remove">: which one is not known',
    });
    const inRow = (name: string): Action => ({ type: 'click', target: { kind: 'semantic', role: 'button', name: 'Remove', context: [{ role: 'row', name }] } });
    expect(resolveSemanticAction(inRow('alan  turing'), rows)).toEqual({ ok: true, action: { type: 'click', target: { kind: 'ref', ref: '2' } }, match: 'exact' });
    expect(resolveSemanticAction(inRow('Grace Hopper'), rows)).toMatchObject({ ok: true, action: { target: { ref: '3' } } });
    // A row that is not on the page is not stood in for by another row.
    expect(resolveSemanticAction(inRow('Alan'), rows)).toMatchObject({ ok: false, candidates: 0, message: '<button "Remove" in row "Alan"> is not on the current page' });
  });

  it('an ordinal picks among identical elements only when the page gives the same ordinal', () => {
    const fields = page([
      node('1', 'textbox', '', { nth: 1 }),
      node('2', 'textbox', '', { nth: 2 }),
      node('3', 'textbox', '', { nth: 3 }),
    ]);
    const nth = (n: number): Action => ({ type: 'fill', target: { kind: 'semantic', role: 'textbox', name: '', nth: n }, text: 'x' });
    expect(resolveSemanticAction(nth(2), fields)).toMatchObject({ ok: true, action: { target: { ref: '2' } } });
    expect(resolveSemanticAction(nth(4), fields)).toMatchObject({ ok: false, candidates: 0 });
    // One field left: it has no ordinal, so "the second" is not on the page.
    expect(resolveSemanticAction(nth(2), page([node('9', 'textbox', '')]))).toMatchObject({ ok: false });
  });

  it('rebinds a remembered choice only to an option the list has', () => {
    const choose = (option: string): Action => ({ type: 'select_option', target: { kind: 'semantic', role: 'combobox', name: 'Country' }, option });
    expect(resolveSemanticAction(choose('japan'), obs, { remembered: true })).toMatchObject({ ok: true, action: { target: { ref: '8' }, option: 'japan' } });
    // A person's or a model's choice may name an option's value: the page layer checks it.
    expect(resolveSemanticAction(choose('jp'), obs)).toMatchObject({ ok: true });
    expect(resolveSemanticAction(choose('Jamaica'), obs, { remembered: true })).toEqual({ ok: false, code: 'unresolved', candidates: 1, message: '<combobox "Country"> has no option "Jamaica"' });
  });

  it('toSemanticAction keeps the context and ordinal, and the key round-trips', () => {
    const p = page([node('5', 'button', 'Remove', { context: [{ role: 'row', name: 'Alan Turing' }, { role: 'dialog', name: 'Members' }], nth: 2 })]);
    expect(semanticKey({ type: 'click', target: { kind: 'ref', ref: '5' } }, p)).toBe('click(<button "Remove" in row "Alan Turing" in dialog "Members" nth 2>)');
  });

  it('fails with a typed unresolved error when nothing is close enough', () => {
    expect(resolveSemanticAction(sem('button', 'Sign up'), page([node('1', 'button', 'Sign in')]))).toEqual({
      ok: false,
      code: 'unresolved',
      candidates: 0,
      message: '<button "Sign up"> is not on the current page',
    });
    // right name, incompatible role
    expect(resolveSemanticAction(sem('checkbox', 'Email'), obs)).toMatchObject({ ok: false, code: 'unresolved' });
    // empty names never match by containment
    expect(resolveSemanticAction(sem('button', ''), page([node('1', 'button', 'Go')]))).toMatchObject({ ok: false, code: 'unresolved' });
  });
});
