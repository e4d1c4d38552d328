/**
 * Settings of the learners that keep theirs in `settings.learners[id]`
 * (registry learners added after JitRL and CER): one fieldset per learner,
 * with what it needs of a model said plainly, fields derived from its
 * defaults, validated with its own schema, saved on their own.
 */
import { useState } from 'preact/hooks';
import { learnerSettings, type LearnerDefinition } from '../../core/learning/learner-definition.ts';
import type { Settings } from '../../core/settings.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText } from './format.ts';

const NEEDS_MODEL_TEXT = { no: 'Works without a model.', optional: 'Works better with a model.', required: 'Needs a model.' } as const;

type Editable = Record<string, string | boolean>;

function editable(values: unknown): Editable {
  const out: Editable = {};
  if (typeof values !== 'object' || values === null) return out;
  for (const [k, v] of Object.entries(values)) if (typeof v === 'boolean' || typeof v === 'number') out[k] = typeof v === 'boolean' ? v : String(v);
  return out;
}

export function LearnerSettingsFieldset({ client, definition, settings, onSaved }: {
  client: UiClient;
  definition: LearnerDefinition;
  settings: Settings;
  onSaved: (s: Settings) => void;
}) {
  const defaults = editable(definition.settings.defaults);
  const [values, setValues] = useState<Editable>(editable(learnerSettings(definition, settings)));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const id = (key: string) => `opt-${definition.id}-${key}`;

  async function save() {
    const candidate: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) candidate[k] = typeof v === 'boolean' ? v : v.trim() === '' ? Number.NaN : Number(v);
    const parsed = definition.settings.schema.safeParse(candidate);
    if (!parsed.success) {
      setMessage({ ok: false, text: `Not saved: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` });
      return;
    }
    try {
      const saved = await client.request('settings.set', { settings: { ...settings, learners: { ...settings.learners, [definition.id]: parsed.data } } });
      onSaved(saved);
      setMessage({ ok: true, text: 'Saved.' });
    } catch (err) {
      setMessage({ ok: false, text: `Not saved: ${errorText(err)}` });
    }
  }

  return (
    <fieldset class="learner-settings">
      <legend>{definition.label}</legend>
      <p class="help">{NEEDS_MODEL_TEXT[definition.needsModel.level]} {definition.needsModel.description}</p>
      {Object.entries(values).map(([key, value]) => (
        <div key={key} class={`field field-${typeof value === 'boolean' ? 'checkbox' : 'number'}`}>
          {typeof value === 'boolean' ? (
            <label class="check">
              <input id={id(key)} type="checkbox" checked={value} onChange={(e) => setValues({ ...values, [key]: e.currentTarget.checked })} />
              {key}
            </label>
          ) : (
            <>
              <label for={id(key)}>{key}</label>
              <input id={id(key)} type="number" step="any" value={value} onInput={(e) => setValues({ ...values, [key]: e.currentTarget.value })} />
            </>
          )}
          <span class="help">default: {String(defaults[key])}</span>
        </div>
      ))}
      <div class="row">
        <button type="button" onClick={save}>Save {definition.label} settings</button>
      </div>
      {message ? <p class={message.ok ? 'notice' : 'error'} role={message.ok ? 'status' : 'alert'}>{message.text}</p> : null}
    </fieldset>
  );
}
