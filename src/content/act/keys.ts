/**
 * Key names, codes and KeyboardEvents: "Control+Shift+k" parsed into a chord,
 * and one keydown/keypress/keyup built with the legacy fields sites still read.
 */
import { chordParts, keyName } from '../../core/page/key-names.ts';
import { ActionFailure, realmOf, type Run } from './act-context.ts';

export const MODIFIERS = ['Control', 'Shift', 'Alt', 'Meta'] as const;
export type Modifier = (typeof MODIFIERS)[number];

const KEY_CODES: Record<string, number> = {
  Backspace: 8, Tab: 9, Enter: 13, Shift: 16, Control: 17, Alt: 18, Escape: 27, ' ': 32, PageUp: 33, PageDown: 34,
  End: 35, Home: 36, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Insert: 45, Delete: 46, Meta: 91,
  ';': 186, '=': 187, ',': 188, '-': 189, '.': 190, '/': 191, '`': 192, '[': 219, '\\': 220, ']': 221, "'": 222,
};
for (let i = 1; i <= 12; i++) KEY_CODES[`F${i}`] = 111 + i;

const PUNCT_CODES: Record<string, string> = {
  ' ': 'Space', '-': 'Minus', '=': 'Equal', ',': 'Comma', '.': 'Period', '/': 'Slash', ';': 'Semicolon', "'": 'Quote',
  '[': 'BracketLeft', ']': 'BracketRight', '\\': 'Backslash', '`': 'Backquote',
};

export interface KeySpec {
  key: string;
  code: string;
  keyCode: number;
}

export function keySpec(key: string): KeySpec {
  if (key.length === 1) {
    const upper = key.toUpperCase();
    if (/[a-z]/i.test(key)) return { key, code: `Key${upper}`, keyCode: upper.charCodeAt(0) };
    if (/[0-9]/.test(key)) return { key, code: `Digit${key}`, keyCode: key.charCodeAt(0) };
    return { key, code: PUNCT_CODES[key] ?? '', keyCode: KEY_CODES[key] ?? 0 };
  }
  const isModifier = (MODIFIERS as readonly string[]).includes(key);
  return { key, code: isModifier ? `${key}Left` : key, keyCode: KEY_CODES[key] ?? 0 };
}

/** "Control+Shift+k" → modifiers and the main key; "+" and "Control++" work. */
export function parseChord(keys: string): { modifiers: Modifier[]; key: string } {
  // One alias table for the page layer and the gate (core/page/key-names.ts).
  const names = chordParts(keys).map((p) => {
    const name = keyName(p);
    if (name !== null) return name;
    throw new ActionFailure('invalid_action', `unknown key ${JSON.stringify(p)} in ${JSON.stringify(keys)}`);
  });
  const key = names.pop();
  if (key === undefined || key === '') throw new ActionFailure('invalid_action', `no key in ${JSON.stringify(keys)}`);
  const modifiers: Modifier[] = [];
  for (const m of names) {
    if (!(MODIFIERS as readonly string[]).includes(m)) throw new ActionFailure('invalid_action', `${JSON.stringify(m)} is not a modifier in ${JSON.stringify(keys)}`);
    modifiers.push(m as Modifier);
  }
  // Shift+a types "A", as a keyboard does.
  const shifted = modifiers.includes('Shift') && /^[a-z]$/.test(key) ? key.toUpperCase() : key;
  return { modifiers, key: shifted };
}

export interface ModState { ctrlKey: boolean; shiftKey: boolean; altKey: boolean; metaKey: boolean }
export const modState = (mods: readonly Modifier[]): ModState => ({
  ctrlKey: mods.includes('Control'), shiftKey: mods.includes('Shift'), altKey: mods.includes('Alt'), metaKey: mods.includes('Meta'),
});

export function keyEvent(el: Element, run: Run, type: 'keydown' | 'keypress' | 'keyup', spec: KeySpec, mods: ModState): boolean {
  const R = realmOf(el, run.win);
  const charCode = type === 'keypress' ? (spec.key === 'Enter' ? 13 : spec.key.charCodeAt(0)) : 0;
  const init = {
    key: spec.key, code: spec.code, location: 0, repeat: false, isComposing: false, bubbles: true, cancelable: true, composed: true,
    view: el.ownerDocument.defaultView, ...mods,
    // Legacy fields many sites still read (Chromium honours them in the init dictionary).
    keyCode: type === 'keypress' ? charCode : spec.keyCode, charCode, which: type === 'keypress' ? charCode : spec.keyCode,
  } as KeyboardEventInit;
  return el.dispatchEvent(new R.KeyboardEvent(type, init));
}

/** A character key produces a keypress only without Control/Meta. */
export const producesKeypress = (key: string, mods: ModState) => (key.length === 1 || key === 'Enter') && !mods.ctrlKey && !mods.metaKey;
