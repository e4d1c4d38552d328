/**
 * Secrets a person types into the task itself ("sign in with password
 * hunter2", "pay with card 4111 1111 1111 1111, CVC 123"). The task is stored,
 * exported, synced and put in prompts, so the values become their masks there
 * (find-secrets.ts says what is recognised); the real values stay in memory
 * only, and the controller types them where an approved action types the mask
 * into a field of the same kind. After a worker restart they are gone, and the
 * person types again.
 */
import { findSecrets } from './find-secrets.ts';
import { maskOf } from './secret-kinds.ts';

export interface MaskedTask {
  task: string;
  /** The real values, by mask; several values of one kind keep the first by precedence (the mask cannot tell them apart). */
  secrets: Partial<Record<string, string>>;
}

export function maskTaskSecrets(task: string): MaskedTask {
  const found = findSecrets(task);
  const secrets: Partial<Record<string, string>> = {};
  // findSecrets lists by precedence: the card number before its CVC is the value `{payment}` types.
  for (const f of found) secrets[maskOf(f.kind)] ??= f.value;
  let out = task;
  for (const f of [...found].sort((a, b) => b.start - a.start)) out = `${out.slice(0, f.start)}${maskOf(f.kind)}${out.slice(f.end)}`;
  return { task: out, secrets };
}

/** The action text with each mask the task's secrets know replaced by the real value (for the moment it runs). */
export function unmaskTaskSecrets(text: string, secrets: Partial<Record<string, string>>): string {
  let out = text;
  for (const [mask, value] of Object.entries(secrets)) if (value !== undefined) out = out.split(mask).join(value.replace(/["\\]/g, (c) => `\\${c}`));
  return out;
}
