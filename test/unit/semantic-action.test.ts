import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import {
  NAME_JACCARD_THRESHOLD,
  nameJaccard,
  resolveSemanticAction,
  rolesCompatible,
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

  it('falls back to the nearest match: containment, Jaccard, compatible roles', () => {
    // containment
    expect(resolveSemanticAction(sem('link', 'Forgot password'), obs)).toMatchObject({ ok: true, match: 'nearest', action: { target: { ref: '4' } } });
    // compatible role: a searchbox stored, a textbox on the page
    expect(resolveSemanticAction({ type: 'fill', target: { kind: 'semantic', role: 'searchbox', name: 'Email' }, text: 'q' }, obs)).toMatchObject({
      ok: true,
      match: 'nearest',
      action: { target: { ref: '1' } },
    });
    // a styled link standing in for a button
    expect(resolveSemanticAction(sem('button', 'Forgot password?'), obs)).toMatchObject({ ok: true, match: 'nearest', action: { target: { ref: '4' } } });
    // "Remember me" vs "Remember me on this device": token Jaccard 2/5 < 0.5, but containment holds
    const p2 = page([node('1', 'checkbox', 'Remember me on this device')]);
    expect(resolveSemanticAction({ type: 'check', target: { kind: 'semantic', role: 'checkbox', name: 'Remember me' } }, p2)).toMatchObject({
      ok: true,
      match: 'nearest',
    });
  });

  it('prefers the same role, then a higher name score, then in-viewport, then document order', () => {
    const p = page([
      node('1', 'link', 'Add to cart'),
      node('2', 'button', 'Add to cart now', { inViewport: false }),
      node('3', 'button', 'Add to cart now'),
      node('4', 'button', 'Add item to cart'),
    ]);
    // No exact button: a same-role near name (1.12) outranks an exact name under a compatible role (1.0);
    // of the two equal buttons the one in the viewport wins.
    expect(resolveSemanticAction(sem('button', 'Add to cart'), p)).toMatchObject({ match: 'nearest', action: { target: { ref: '3' } } });
    const twins = page([
      node('5', 'button', 'Buy', { inViewport: false }),
      node('6', 'button', 'Buy'),
      node('7', 'button', 'Buy'),
    ]);
    expect(resolveSemanticAction(sem('button', 'buy'), twins)).toMatchObject({ match: 'exact', action: { target: { ref: '6' } } });
    const offscreen = page([node('5', 'button', 'Buy', { inViewport: false }), node('9', 'button', 'Buy', { inViewport: false })]);
    expect(resolveSemanticAction(sem('button', 'Buy'), offscreen)).toMatchObject({ action: { target: { ref: '5' } } });
  });

  it('fails with a typed unresolved error when nothing is close enough', () => {
    expect(resolveSemanticAction(sem('button', 'Sign up'), page([node('1', 'button', 'Sign in')]))).toEqual({
      ok: false,
      code: 'unresolved',
      message: 'no element like <button "Sign up"> on the current page',
    });
    // right name, incompatible role
    expect(resolveSemanticAction(sem('checkbox', 'Email'), obs)).toMatchObject({ ok: false, code: 'unresolved' });
    // empty names never match by containment
    expect(resolveSemanticAction(sem('button', ''), page([node('1', 'button', 'Go')]))).toMatchObject({ ok: false, code: 'unresolved' });
  });
});

describe('helpers', () => {
  it('token Jaccard with its documented threshold', () => {
    expect(NAME_JACCARD_THRESHOLD).toBe(0.5);
    expect(nameJaccard('Sign in', 'Sign in now')).toBeCloseTo(2 / 3, 10);
    expect(nameJaccard('Sign in', 'Sign up')).toBeCloseTo(1 / 3, 10);
    expect(nameJaccard('Save, & close!', 'close save')).toBe(1);
    expect(nameJaccard('', 'x')).toBe(0);
  });

  it('role compatibility', () => {
    expect(rolesCompatible('textbox', 'SearchBox')).toBe(true);
    expect(rolesCompatible('textbox', 'combobox')).toBe(true);
    expect(rolesCompatible('button', 'link')).toBe(true);
    expect(rolesCompatible('checkbox', 'radio')).toBe(false);
    expect(rolesCompatible('textbox', 'button')).toBe(false);
  });
});
