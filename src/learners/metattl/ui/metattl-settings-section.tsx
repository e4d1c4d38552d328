/**
 * Meta-TTL's block of the options page: switch, scope, conversation cap, the
 * strategy in force (shipped, imported from `npm run meta-train`, or edited),
 * import of a meta-prompt file and reset to the shipped one. Says plainly
 * that it needs a model when none is configured.
 */
import { useState } from 'preact/hooks';
import { importMetaPrompt, resetStrategy } from '../core/import-meta-prompt.ts';
import { MAX_STRATEGY_CHARS } from '../core/meta-prompt.ts';
import type { MetaTtlSettings } from '../core/metattl-settings.ts';
import { metattlDefinition } from '../definition.ts';
import { learnerSettings } from '../../../core/learning/learner-definition.ts';
import { errorText } from '../../../ui/app/format.ts';
import type { LearnerSettingsViewProps } from '../../../ui/app/learner-view-types.ts';

export interface MetaTtlSettingsSectionProps {
  settings: MetaTtlSettings;
  /** Null when a model is configured; otherwise why Meta-TTL cannot run. */
  needsModel: string | null;
  onChange(next: MetaTtlSettings): Promise<void>;
}

/** Meta-TTL's entry in SETTINGS_VIEWS: its section over the stored settings, saved at once. */
export function MetaTtlSettingsView({ settings, modelConfigured, save }: LearnerSettingsViewProps) {
  return (
    <MetaTtlSettingsSection settings={learnerSettings(metattlDefinition, settings)}
      needsModel={modelConfigured ? null : metattlDefinition.needsModel.description} onChange={save} />
  );
}

const SOURCE = { shipped: 'the shipped strategy', imported: 'imported from meta-training', edited: 'edited by you' } as const;

export function MetaTtlSettingsSection({ settings, needsModel, onChange }: MetaTtlSettingsSectionProps) {
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function apply(next: MetaTtlSettings, message: string) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await onChange(next);
      setNotice(message);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  async function importFile(e: Event) {
    const input = e.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    const r = importMetaPrompt(settings, await file.text());
    input.value = '';
    if (!r.ok) {
      setNotice(null);
      setError(`${file.name} was not imported, and nothing was changed: ${r.error}`);
      return;
    }
    await apply(r.settings, `Imported the meta-prompt from ${file.name}: ${r.summary}.`);
  }

  return (
    <fieldset class="metattl-settings">
      <legend>Meta-TTL: a meta-agent rewrites the guide after each attempt</legend>
      {needsModel ? <p class="notice" role="status">{needsModel}</p> : null}
      <label>
        <input type="checkbox" checked={settings.enabled} disabled={busy} onChange={(e) => apply({ ...settings, enabled: (e.target as HTMLInputElement).checked }, 'Saved.')} />
        Use Meta-TTL
      </label>
      <label>
        Attempts that share a guide
        <select value={settings.scope} disabled={busy} onChange={(e) => apply({ ...settings, scope: (e.target as HTMLSelectElement).value === 'template' ? 'template' : 'task' }, 'Saved.')}>
          <option value="task">the same task</option>
          <option value="template">the same task with other numbers or quoted values</option>
        </select>
      </label>
      <label>
        Attempts the meta-agent re-reads
        <input type="number" min={1} max={20} value={settings.conversationCap} disabled={busy}
          onChange={(e) => {
            const n = Number((e.target as HTMLInputElement).value);
            if (Number.isInteger(n) && n >= 1 && n <= 20) void apply({ ...settings, conversationCap: n }, 'Saved.');
            else setError('The number of attempts re-read must be a whole number from 1 to 20.');
          }} />
      </label>
      <p>
        Strategy in force: <strong>{SOURCE[settings.strategySource]}</strong>
        {settings.strategyNote ? <span class="muted small"> — {settings.strategyNote}</span> : null}
      </p>
      <details>
        <summary>Show or edit the strategy</summary>
        <textarea aria-label="Meta-agent strategy" rows={10} maxLength={MAX_STRATEGY_CHARS} value={settings.strategy} disabled={busy}
          onChange={(e) => apply({ ...settings, strategy: (e.target as HTMLTextAreaElement).value, strategySource: 'edited', strategyNote: '' }, 'Saved your strategy.')} />
      </details>
      <div class="toolbar" role="group" aria-label="Meta-prompt">
        <label class="file-button">
          Import meta-prompt
          <input type="file" accept="application/json,.json" disabled={busy} onChange={importFile} />
        </label>
        <button type="button" disabled={busy || settings.strategySource === 'shipped'} onClick={() => apply(resetStrategy(settings), 'Back to the shipped strategy.')}>
          Use the shipped strategy
        </button>
      </div>
      {notice ? <p class="notice" role="status">{notice}</p> : null}
      {error ? <p class="error" role="alert">{error}</p> : null}
    </fieldset>
  );
}
