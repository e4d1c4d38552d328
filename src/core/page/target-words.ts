/**
 * A semantic target in words, for a person: role, name and the containers
 * that tell it apart — button “Remove” — row “Alan Turing”. Display only;
 * never parsed back (the action grammar is the canonical text).
 */
import type { SemanticTarget } from './action.ts';

export function targetWords(target: SemanticTarget): string {
  const name = target.name !== '' ? ` “${target.name}”` : '';
  const where = (target.context ?? []).map((c) => (c.name !== '' ? `${c.role} “${c.name}”` : c.role)).join(', ');
  const nth = target.nth !== undefined ? ` (number ${target.nth} of its kind)` : '';
  return `${target.role}${name}${where ? ` — ${where}` : ''}${nth}`;
}
