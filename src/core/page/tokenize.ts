/**
 * Tokens and Jaccard similarity for retrieval (Jaccard; docs/learning.md "Papers"). Tasks and
 * effective states (semantic actions) are both compared as token sets.
 */
import { formatTarget, parseAction } from './action-grammar.ts';
import { valueOf } from './action-vocabulary.ts';

// Kept deliberately small: words such as "to", "from", "in" can be field
// labels (`fill(<textbox "From">, …)`), so they stay. Numbers stay too: they
// often distinguish tasks ("order 12" vs "order 15").
const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'is', 'are', 'be', 'it', 'its', 'this', 'that',
  'please', 'i', 'me', 'my', 'you', 'your',
]);

/** Lowercase word tokens (letters and digits of any script, joined by inner underscores as in `select_option`), deduplicated, stop words dropped, in first-seen order. */
export function tokenize(text: string): string[] {
  return [...new Set(taskWords(text))];
}

/**
 * The same words as `tokenize`, in order, with repeats kept: what
 * `isTaskValue` reads a task by. "the Lemon balm and the Lemon thyme" names
 * two things that share "lemon"; the token set keeps one "lemon", beside
 * "balm" only, and "Lemon thyme" would read as another thing.
 */
export function taskWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)*/gu)) {
    const token = match[0];
    if (!STOP_WORDS.has(token)) words.push(token);
  }
  return words;
}

/** The token that stands for a value the task itself gave (see `stateTokensOf`). */
export const TASK_VALUE_TOKEN = '⟨task value⟩';


/**
 * One token per element the state's actions set: the action's kind, the
 * element's role and its name (`⟨fill textbox "add title"⟩`). Words alone are
 * a set, so an entry whose words the state already holds vanishes: "title
 * filled" and "title filled, then the unnamed text box filled" (both with the
 * task's values) were one state, and the step after the second fill was
 * remembered as this very state's step before it (issue 35 part 4: step k and
 * step k + 1 on one URL are different states). Role and name only: the row a
 * control sits in names the instance's item, and its words already count.
 * Marks of the page (`open <dialog …>`) and unparsable entries add none.
 */
export function entryMarks(effectiveState: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of effectiveState) {
    const parsed = parseAction(entry);
    if (!parsed.ok || !('target' in parsed.action) || parsed.action.target?.kind !== 'semantic') continue;
    const { role, name } = parsed.action.target;
    out.push(`⟨${parsed.action.type} ${role.toLowerCase()} ${JSON.stringify(name.toLowerCase())}⟩`);
  }
  return [...new Set(out)];
}

/**
 * Tokens of an effective state (a list of semantic actions), with one mark
 * per element it set (`entryMarks`). The empty state
 * ("No action") has no tokens. With the task's tokens, a value typed or
 * chosen in the state (not the element's name) that is the task's own value
 * (`isTaskValue`: it shares words with the task and names nothing else right
 * beside them) becomes one `TASK_VALUE_TOKEN`: "the time zone set to what the task
 * asked" is the same state for "… to Tokyo" and "… to Berlin", so what one
 * instance of a template learned after that step reaches the next instance
 * (the abstraction skill variables make, applied to a step's state).
 */
export function stateTokensOf(effectiveState: readonly string[], taskTokens?: readonly string[]): string[] {
  if (!taskTokens || taskTokens.length === 0) return [...new Set([...tokenize(effectiveState.join(' ')), ...entryMarks(effectiveState)])];
  const out = new Set<string>();
  for (const entry of effectiveState) {
    const parsed = parseAction(entry);
    const value = parsed.ok ? valueOf(parsed.action) : null;
    if (!parsed.ok || value === null || !('target' in parsed.action) || !parsed.action.target) {
      for (const t of tokenize(entry)) out.add(t);
      continue;
    }
    for (const t of tokenize(`${parsed.action.type} ${formatTarget(parsed.action.target)}`)) out.add(t);
    const words = tokenize(value);
    if (isTaskValue(words, taskTokens)) out.add(TASK_VALUE_TOKEN);
    else for (const w of words) out.add(w);
  }
  for (const m of entryMarks(effectiveState)) out.add(m);
  return [...out];
}

// Words that join a value to the rest of a sentence ("… to Tokyo", "… in blue"):
// next to a shared word they say nothing about which thing is meant.
const LINKING_WORDS: ReadonlySet<string> = new Set(['to', 'for', 'in', 'on', 'at', 'by', 'with', 'from', 'into', 'as', 'than', 'via', 'per']);
const isNamingWord = (w: string | undefined): w is string => w !== undefined && !LINKING_WORDS.has(w) && !/^\p{N}+$/u.test(w);

/**
 * Whether a typed or chosen value is the one the task asked for: it shares a
 * run of words with the task, and right next to that run the two do not name
 * different things. "red mug" shares "red" with "add the red teapot", but
 * after "red" the value says "mug" where the task says "teapot": another
 * thing, so not the task's value. "(UTC+09:00) Tokyo" for "… time zone to
 * Tokyo" is (a number and a linking word beside it name nothing; nor does the
 * task's first word, its verb). The task is read as its words in order
 * (`taskWords`); with `tokenize`'s set a repeated word counts at its first place
 * only.
 */
export function isTaskValue(valueTokens: readonly string[], taskTokens: readonly string[]): boolean {
  const conflict = (a: string | undefined, b: string | undefined) => isNamingWord(a) && isNamingWord(b) && a !== b;
  // Whether the value's word i, read at the task's word j, names the same thing there.
  const readsAsTask = (i: number, j: number): boolean => {
    // Only the start of a common run is checked: inner words were checked with it.
    if (i > 0 && j > 0 && valueTokens[i - 1] === taskTokens[j - 1]) return true;
    let n = 1;
    while (i + n < valueTokens.length && j + n < taskTokens.length && valueTokens[i + n] === taskTokens[j + n]) n++;
    // Before the run, the task's first word is its verb ("Add", "Find"), not a modifier of the value.
    return !((j - 1 > 0 && conflict(valueTokens[i - 1], taskTokens[j - 1])) || conflict(valueTokens[i + n], taskTokens[j + n]));
  };
  let shared = false;
  for (let i = 0; i < valueTokens.length; i++) {
    // A word the task repeats (`taskWords`) may be read at any of its places.
    const places = taskTokens.flatMap((w, j) => (w === valueTokens[i] ? [j] : []));
    if (places.length === 0) continue;
    shared = true;
    if (!places.some((j) => readsAsTask(i, j))) return false;
  }
  return shared;
}

/**
 * Jaccard: |A ∩ B| / |A ∪ B| over token sets.
 * Two empty sets count as identical (1): two empty effective states are the
 * same state ("No action", e.g. at step 0 or right after arriving on a page).
 */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const setA = new Set(a);
  const setB = new Set(b);
  if (setA.size === 0 && setB.size === 0) return 1;
  let intersection = 0;
  for (const token of setA) if (setB.has(token)) intersection++;
  return intersection / (setA.size + setB.size - intersection);
}
