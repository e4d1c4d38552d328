/**
 * The actions that always ask, on the options page, as a list (issue 31): one
 * row per action (its site, the action, Remove) and a row to add one, like the
 * per-site ask modes. Stored as before, `agent.alwaysAsk` = [{ origin, action }].
 * Each row is checked before saving: the site as the ask-mode table checks it,
 * the action must be an action that names its element by role and name (a ref
 * such as [5] means nothing on the next visit), and one action listed twice
 * for one site is an error, never "the first wins". A valid action is said in
 * words beside it, so the person sees what it will match.
 */
import { actionKey } from '../../core/autonomy/approval-history.ts';
import type { AlwaysAskMark } from '../../core/autonomy/always-ask.ts';
import { parseAction } from '../../core/page/action-grammar.ts';
import { actionWords } from './action-words.ts';
import { originError } from './site-ask-modes.tsx';

export const ALWAYS_ASK_PATH = 'agent.alwaysAsk';
export const markPath = (i: number, field: 'origin' | 'action') => `${ALWAYS_ASK_PATH}.${i}.${field}`;

const EXAMPLE = 'click(<button "Delete">)';

/** What is wrong with one typed action, in words that say what to type instead (null: fine). */
export function markActionError(typed: string): string | null {
  const text = typed.trim();
  if (text === '') return `type the action, such as ${EXAMPLE}`;
  const parsed = parseAction(text);
  if (!parsed.ok) {
    return text.includes('(')
      ? `the action does not parse (${parsed.error.message}); write it as ${EXAMPLE}`
      : `"${text}" reads as words: write the action, such as ${EXAMPLE}`;
  }
  const target = 'target' in parsed.action ? parsed.action.target : undefined;
  if (target?.kind === 'ref') return `it names its element by a number that changes from visit to visit: use its role and name, such as ${EXAMPLE}`;
  return null;
}

/**
 * The stored list, or the errors by row path. Rows are saved as typed (trimmed);
 * two rows with the same site and the same action (as the gate compares them) are an error.
 */
export function readMarkRows(rows: readonly AlwaysAskMark[]): { alwaysAsk: AlwaysAskMark[]; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const alwaysAsk: AlwaysAskMark[] = [];
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const origin = row.origin.trim();
    const action = row.action.trim();
    const badOrigin = originError(origin);
    const badAction = markActionError(action);
    if (badOrigin) errors[markPath(i, 'origin')] = badOrigin;
    if (badAction) errors[markPath(i, 'action')] = badAction;
    if (badOrigin || badAction) return;
    const key = `${origin}\n${actionKey(action)}`;
    if (seen.has(key)) errors[markPath(i, 'action')] = `this action is listed twice for ${origin}: remove one`;
    else {
      seen.add(key);
      alwaysAsk.push({ origin, action });
    }
  });
  return { alwaysAsk, errors };
}

export const markRowLabels = (rows: readonly AlwaysAskMark[]): Record<string, string> =>
  Object.fromEntries(rows.flatMap((_, i) => [[markPath(i, 'origin'), `Always-ask site ${i + 1}`], [markPath(i, 'action'), `Always-ask action ${i + 1}`]]));

export function AlwaysAskList({ rows, errors, disabled, onChange }: {
  rows: readonly AlwaysAskMark[];
  errors: Record<string, string>;
  disabled: boolean;
  onChange: (rows: AlwaysAskMark[]) => void;
}) {
  const set = (i: number, row: Partial<AlwaysAskMark>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  const add = () => {
    onChange([...rows, { origin: '', action: '' }]);
    setTimeout(() => document.getElementById(`mark-origin-${rows.length}`)?.focus(), 0);
  };
  return (
    <fieldset class="always-ask">
      <legend>Actions that always ask</legend>
      <p class="help" id="always-ask-help">
        These ask every time on their site, however often you approved them. Write the action as the panel's Details show it, such as <code>{EXAMPLE}</code>.
      </p>
      <table class="site-table" aria-label="Actions that always ask" aria-describedby="always-ask-help">
        <thead><tr><th scope="col">Site</th><th scope="col">Action</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
        <tbody>
          {rows.map((row, i) => {
            const originId = `mark-origin-${i}`;
            const actionId = `mark-action-${i}`;
            const originBad = errors[markPath(i, 'origin')];
            const actionBad = errors[markPath(i, 'action')];
            const words = markActionError(row.action) === null ? actionWords(row.action.trim()) : null;
            return (
              <tr key={i}>
                <td>
                  <input id={originId} type="url" value={row.origin} aria-label={`Always-ask site ${i + 1}`} aria-invalid={originBad ? 'true' : 'false'}
                    aria-describedby={originBad ? `${originId}-error` : undefined} disabled={disabled}
                    onInput={(e) => set(i, { origin: e.currentTarget.value })} />
                  {originBad ? <span id={`${originId}-error`} class="error">{originBad}</span> : null}
                </td>
                <td>
                  <input id={actionId} type="text" spellcheck={false} value={row.action} aria-label={`Always-ask action ${i + 1}`} aria-invalid={actionBad ? 'true' : 'false'}
                    aria-describedby={actionBad ? `${actionId}-error` : words ? `${actionId}-words` : undefined} disabled={disabled}
                    onInput={(e) => set(i, { action: e.currentTarget.value })} />
                  {actionBad ? <span id={`${actionId}-error`} class="error">{actionBad}</span> : null}
                  {!actionBad && words ? <span id={`${actionId}-words`} class="help">{words}</span> : null}
                </td>
                <td>
                  <button type="button" aria-label={`Remove always-ask action ${i + 1}`} disabled={disabled} onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove</button>
                </td>
              </tr>
            );
          })}
          <tr>
            <td colSpan={3}><button type="button" disabled={disabled} onClick={add}>Add an action that always asks</button></td>
          </tr>
        </tbody>
      </table>
    </fieldset>
  );
}
