/**
 * Key names as a keyboard knows them. "Spacebar", "space" and " " are one key,
 * "Return" is Enter, "Esc" is Escape: the gate and the page layer must agree on
 * which key a press sends, so both read chords through this one table. A key
 * the table does not know is not guessed at: `canonicalChord` returns null.
 */

const KEY_ALIASES: Record<string, string> = {
  ctrl: 'Control', control: 'Control', controlormeta: 'Control', shift: 'Shift', alt: 'Alt', option: 'Alt',
  meta: 'Meta', cmd: 'Meta', command: 'Meta', super: 'Meta', win: 'Meta', os: 'Meta',
  enter: 'Enter', return: 'Enter', tab: 'Tab', esc: 'Escape', escape: 'Escape', space: ' ', spacebar: ' ',
  backspace: 'Backspace', delete: 'Delete', del: 'Delete', insert: 'Insert', home: 'Home', end: 'End',
  pageup: 'PageUp', pagedown: 'PageDown', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight',
  arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', plus: '+',
};
for (let i = 1; i <= 12; i++) KEY_ALIASES[`f${i}`] = `F${i}`;

/** The key a name stands for ("Spacebar" → " "), or null when it is no key we know. */
export function keyName(part: string): string | null {
  if (part.length === 1) return part;
  return KEY_ALIASES[part.toLowerCase()] ?? null;
}

/** The parts of a chord as written: "Control+Shift+k" → [Control, Shift, k]; "+" and "Control++" work. */
export function chordParts(keys: string): string[] {
  const trimmed = keys.trim();
  if (trimmed === '+') return ['+'];
  if (trimmed.endsWith('++')) return [...trimmed.slice(0, -2).split('+'), '+'];
  // A lone space (" ") trims to nothing: it is the space key.
  if (trimmed === '' && keys.length > 0) return [' '];
  return trimmed.split('+');
}

/** Every key of a chord by its one name ("ctrl+Spacebar" → ["Control", " "]), or null when a part is unknown. */
export function canonicalChord(keys: string): string[] | null {
  const out: string[] = [];
  for (const part of chordParts(keys)) {
    const name = keyName(part);
    if (name === null || name === '') return null;
    out.push(name);
  }
  return out;
}

/** The key a chord ends in, by its one name; null when the chord has a part we do not know. */
export function mainKeyOf(keys: string): string | null {
  return canonicalChord(keys)?.at(-1) ?? null;
}
