/**
 * The per-site ask modes on the options page, as a table (issue 31): one row
 * per site (its origin, its mode, Remove) and a row to add one. Stored as
 * before, `agent.askModes` = { origin: mode }. Origins are checked with
 * HttpOriginSchema before saving, and a bad one says what to type instead.
 */
import { ASK_MODE_LABELS, AskModeSchema, HttpOriginSchema, type AskMode } from '../../core/autonomy/ask-mode.ts';

export interface SiteRow { origin: string; mode: AskMode }

export const ASK_MODES_PATH = 'agent.askModes';
export const siteRowPath = (i: number) => `${ASK_MODES_PATH}.${i}`;

export const siteRows = (askModes: Readonly<Record<string, AskMode>>): SiteRow[] =>
  Object.entries(askModes).map(([origin, mode]) => ({ origin, mode }));

/** What is wrong with one typed origin, in words that say what to type instead (null: fine). */
export function originError(typed: string): string | null {
  if (HttpOriginSchema.safeParse(typed).success) return null;
  if (typed === '') return 'type the site, such as https://example.com';
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return `"${typed}" is not a web address: type it with http:// or https://, such as https://${typed.replace(/^\/+/, '').split('/')[0] || 'example.com'}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http:// and https:// sites can have an ask mode (this is ${url.protocol})`;
  return `"${typed}" is more than a site: use ${url.origin}`;
}

/**
 * The stored shape, or the errors by row path. Two rows for one origin are an
 * error, never "the first wins": the person says which they meant.
 */
export function readSiteRows(rows: readonly SiteRow[]): { askModes: Record<string, AskMode>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const askModes: Record<string, AskMode> = {};
  rows.forEach((row, i) => {
    const origin = row.origin.trim();
    const bad = originError(origin);
    if (bad) errors[siteRowPath(i)] = bad;
    else if (origin in askModes) errors[siteRowPath(i)] = `${origin} is listed twice: remove one`;
    else askModes[origin] = row.mode;
  });
  return { askModes, errors };
}

export const siteRowLabels = (rows: readonly SiteRow[]): Record<string, string> =>
  Object.fromEntries(rows.map((_, i) => [siteRowPath(i), `Site ${i + 1}`]));

export function SiteAskModes({ rows, errors, disabled, onChange }: {
  rows: readonly SiteRow[];
  errors: Record<string, string>;
  disabled: boolean;
  onChange: (rows: SiteRow[]) => void;
}) {
  const set = (i: number, row: Partial<SiteRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...row } : r)));
  const add = () => {
    onChange([...rows, { origin: '', mode: 'every-step' }]);
    // The new row's origin is what the person types next.
    setTimeout(() => document.getElementById(`site-origin-${rows.length}`)?.focus(), 0);
  };
  return (
    <fieldset class="site-modes">
      <legend>Asking per site</legend>
      <p class="help" id="site-modes-help">A site not listed asks every step. Type a site as its origin, such as https://shop.example.com.</p>
      <table class="site-table" aria-label="Asking per site" aria-describedby="site-modes-help">
        <thead><tr><th scope="col">Site</th><th scope="col">Asking</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>
        <tbody>
          {rows.map((row, i) => {
            const error = errors[siteRowPath(i)];
            const id = `site-origin-${i}`;
            return (
              <tr key={i}>
                <td>
                  <input id={id} type="url" value={row.origin} aria-label={`Site ${i + 1}`} aria-invalid={error ? 'true' : 'false'}
                    aria-describedby={error ? `${id}-error` : undefined} disabled={disabled}
                    onInput={(e) => set(i, { origin: e.currentTarget.value })} />
                  {error ? <span id={`${id}-error`} class="error">{error}</span> : null}
                </td>
                <td>
                  <select value={row.mode} aria-label={`Asking on site ${i + 1}`} disabled={disabled}
                    onChange={(e) => set(i, { mode: AskModeSchema.parse(e.currentTarget.value) })}>
                    {AskModeSchema.options.map((m) => <option key={m} value={m}>{ASK_MODE_LABELS[m]}</option>)}
                  </select>
                </td>
                <td>
                  <button type="button" aria-label={`Remove site ${i + 1}`} disabled={disabled} onClick={() => onChange(rows.filter((_, j) => j !== i))}>Remove</button>
                </td>
              </tr>
            );
          })}
          <tr>
            <td colSpan={3}><button type="button" disabled={disabled} onClick={add}>Add a site</button></td>
          </tr>
        </tbody>
      </table>
    </fieldset>
  );
}
