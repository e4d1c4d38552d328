/**
 * An action as a person would say it, for display only: the element by its
 * name and where it sits (its row, item or dialog), the value quoted. Pure,
 * with no learner views, so the options page can use it too.
 */
import { parseAction } from '../../core/page/action-grammar.ts';
import { actionSentence } from '../../core/page/action-vocabulary.ts';
import type { Action, Target } from '../../core/page/action.ts';

const quoted = (s: string): string => `“${s}”`;
const CONTAINER_WORDS: Readonly<Record<string, string>> = { listitem: 'item', article: 'card', group: 'group' };
/** Where the element sits, innermost first: ` (row “Alan Turing”)`, so look-alike buttons are told apart. */
const where = (t: Extract<Target, { kind: 'semantic' }>): string => {
  const parts = (t.context ?? []).map((c) => `${CONTAINER_WORDS[c.role] ?? c.role} ${quoted(c.name)}`);
  if (t.nth !== undefined) parts.push(`number ${t.nth} of its kind`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
};
const named = (t: Target | undefined): string =>
  !t ? 'the focused field' : t.kind === 'ref' ? 'the highlighted element' : `${t.name !== '' ? quoted(t.name) : `the ${t.role}`}${where(t)}`;

const sentence = (a: Action): string => actionSentence(a, { target: named, value: quoted });

/** The action as a person would say it: `click(<button "Remove" in row "Ada">)` → Click “Remove” (row “Ada”). Display only. */
export function actionWords(semantic: string): string {
  const parsed = parseAction(semantic);
  return parsed.ok ? sentence(parsed.action) : semantic;
}

