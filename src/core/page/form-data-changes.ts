/**
 * What differs between the data a form sent when approved and what it sends
 * now, in words for the person (issue 30). Fields are compared as a multiset
 * of name=value (their order does not change what the site receives);
 * anti-forgery fields are left out (effect-url.ts), secret values compare and
 * show as their mask and keyed digest (secrets/form-data.ts).
 */
import type { FormField } from './observation.ts';
import { carriesNoEffect } from './effect-url.ts';

const MAX_SHOWN = 6;

const pairs = (fields: readonly FormField[]): string[] => fields.filter((f) => !carriesNoEffect(f.name)).map((f) => `${f.name}=${f.value}`);

/** The entries of `a` not matched one for one in `b`. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = [...b];
  return a.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

function shown(entries: readonly string[]): string {
  return `${entries.slice(0, MAX_SHOWN).join('&')}${entries.length > MAX_SHOWN ? ` and ${entries.length - MAX_SHOWN} more` : ''}`;
}

export function formDataChanges(then: readonly FormField[] | undefined, now: readonly FormField[] | undefined): string[] {
  const a = pairs(then ?? []);
  const b = pairs(now ?? []);
  if (then === undefined && b.length > 0) return [`its form sends ${shown(b)}; what it sent was not recorded when you approved it`];
  const added = minus(b, a);
  const removed = minus(a, b);
  if (added.length > 0 && removed.length > 0) return [`its form sends ${shown(added)}, not ${shown(removed)}`];
  if (added.length > 0) return [`its form sends ${shown(added)} as well`];
  if (removed.length > 0) return [`its form no longer sends ${shown(removed)}`];
  return [];
}
