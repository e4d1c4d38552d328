/**
 * The site's ask mode, chosen in the run tab: ask every step (the default),
 * ask only for what the person has not approved here, or keep Apprentice off.
 */
import { ASK_MODE_LABELS, AskModeSchema, askModeFor, type AskMode } from '../../core/autonomy/ask-mode.ts';
import type { Settings } from '../../core/settings.ts';

export function AskModeControl(props: { origin: string; settings: Settings | null; onChange: (mode: AskMode) => void }) {
  const mode = props.settings ? askModeFor(props.settings.agent.askModes, props.origin) : 'every-step';
  const needed = props.settings?.agent.approvalsNeeded ?? 2;
  return (
    <div class="auto-approve">
      <label>
        Asking on {props.origin}{' '}
        <select value={mode} disabled={!props.settings} aria-describedby="ask-help" onChange={(e) => props.onChange(AskModeSchema.parse(e.currentTarget.value))}>
          {AskModeSchema.options.map((m) => (
            <option key={m} value={m}>{ASK_MODE_LABELS[m]}</option>
          ))}
        </select>
      </label>
      <p id="ask-help" class="help">
        A step runs without asking only after you approved that same action on this page {needed} times, on the same element,
        and never rejected it since. Passwords and payment fields, going to or sending a form to another site, downloads and
        file uploads always ask.
      </p>
    </div>
  );
}
