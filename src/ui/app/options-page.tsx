/**
 * The options page: the model provider (presets, base URL, key, model, logit
 * mode, connection test) and every hyperparameter of Settings with its
 * default, validated with the same schema the background uses before saving.
 */
import { useEffect, useState } from 'preact/hooks';
import { PROVIDER_PRESETS, presetInfo } from '../../core/llm/provider-presets.ts';
import { BuiltInModelNotice, ProviderTestReport } from './provider-test-report.tsx';
import { DEFAULT_SETTINGS, ProviderPresetSchema, ProviderSettingsSchema, SettingsSchema, type Settings } from '../../core/settings.ts';
import type { ProviderTestResult } from '../../protocol/messages.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { LEARNERS } from '../../core/learning/registry.ts';
import { errorText } from './format.ts';
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { LearnerSettingsSections, learnerFieldLabels, learnersFromValues, learnerValues, type LearnerValues } from './learner-settings.tsx';
import { learnerSettings } from '../../core/learning/learner-definition.ts';
import { metattlDefinition, NEEDS_MODEL } from '../../core/learning/metattl/definition.ts';
import type { MetaTtlSettings } from '../../core/learning/metattl/metattl-settings.ts';
import { MetaTtlSettingsSection } from './metattl-settings-section.tsx';

/** Meta-TTL has a section of its own (import a meta-prompt, edit the strategy), saved at once: no generated fields for it. */
const OWN_SECTION_LEARNERS = new Set(['metattl']);

type Group = 'policy' | 'rewards' | 'agent';
type Kind = 'number' | 'checkbox' | 'select' | 'lines';
interface Field { path: string; group: Group; key: string; kind: Kind; label: string; options?: readonly string[] }
const GROUPS: readonly Group[] = ['policy', 'rewards', 'agent'];

const GROUP_TITLES: Record<Group, string> = {
  policy: 'Policy: how candidates are asked for',
  rewards: 'Rewards',
  agent: 'Agent',
};

/** A setting's schema: its label is the `.describe()` text, an enum's options are the choices. */
const fieldSchema = (group: Group, key: string) =>
  (SettingsSchema.shape[group].shape as Record<string, { description?: string; options?: readonly unknown[] }>)[key];

/** "origin value" lines for the settings that are a list of pairs (a bad line is left for the schema to refuse). */
const splitPair = (line: string): [string, string] => {
  const at = line.indexOf(' ');
  return at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1).trim()];
};
const PAIR_CODECS: Record<string, { toLines(raw: unknown): string[]; fromLines(lines: string[]): unknown }> = {
  'agent.askModes': {
    toLines: (raw) => Object.entries(raw as Record<string, string>).map(([origin, mode]) => `${origin} ${mode}`),
    fromLines: (lines) => Object.fromEntries(lines.map(splitPair)),
  },
  'agent.alwaysAsk': {
    toLines: (raw) => (raw as { origin: string; action: string }[]).map((m) => `${m.origin} ${m.action}`),
    fromLines: (lines) => lines.map(splitPair).map(([origin, action]) => ({ origin, action })),
  },
};

const FIELDS: Field[] = GROUPS.flatMap((group) =>
  Object.entries(DEFAULT_SETTINGS[group]).map(([key, value]): Field => {
    const path = `${group}.${key}`;
    const schema = fieldSchema(group, key);
    const label = schema?.description ?? key;
    if (Array.isArray(value) || PAIR_CODECS[path]) return { path, group, key, label, kind: 'lines' };
    if (typeof value === 'boolean') return { path, group, key, label, kind: 'checkbox' };
    if (typeof value === 'string') return { path, group, key, label, kind: 'select', options: (schema?.options ?? [value]).map(String) };
    return { path, group, key, label, kind: 'number' };
  }),
);
const LABELS: Record<string, string> = Object.fromEntries(FIELDS.map((f) => [f.path, f.label]));

type Values = Record<string, string | boolean>;


function toValues(s: Settings): Values {
  const v: Values = {};
  for (const f of FIELDS) {
    const raw = (s[f.group] as Record<string, unknown>)[f.key];
    const codec = PAIR_CODECS[f.path];
    v[f.path] = f.kind === 'checkbox' ? raw === true : codec ? codec.toLines(raw).join('\n') : f.kind === 'lines' ? (raw as string[]).join('\n') : String(raw);
  }
  return v;
}

function fromValues(provider: Settings['provider'], values: Values): unknown {
  const out: Record<string, Record<string, unknown>> = { provider: { ...provider } };
  for (const f of FIELDS) {
    const raw = values[f.path];
    const group = (out[f.group] ??= {});
    if (f.kind === 'checkbox') group[f.key] = raw === true;
    else if (f.kind === 'lines') {
      const lines = String(raw).split('\n').map((l) => l.trim()).filter((l) => l !== '');
      const codec = PAIR_CODECS[f.path];
      group[f.key] = codec ? codec.fromLines(lines) : lines;
    }
    else if (f.kind === 'number') group[f.key] = String(raw).trim() === '' ? Number.NaN : Number(raw);
    else group[f.key] = raw;
  }
  return out;
}

const defaultText = (f: Field): string => {
  const d = (DEFAULT_SETTINGS[f.group] as Record<string, unknown>)[f.key];
  const codec = PAIR_CODECS[f.path];
  if (codec) return codec.toLines(d).join(', ') || 'none';
  return Array.isArray(d) ? (d.length ? d.join(', ') : 'none') : String(d);
};
const fieldId = (path: string) => `opt-${path.replace('.', '-')}`;

export function OptionsPage({ client, learners: registry = LEARNERS }: { client: UiClient; learners?: readonly LearnerDefinition[] }) {
  const learners = registry.filter((d) => !OWN_SECTION_LEARNERS.has(d.id));
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [learnerFields, setLearnerFields] = useState<LearnerValues>(learnerValues(DEFAULT_SETTINGS, learners));
  const [provider, setProvider] = useState<Settings['provider']>(DEFAULT_SETTINGS.provider);
  const [values, setValues] = useState<Values>(toValues(DEFAULT_SETTINGS));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [test, setTest] = useState<ProviderTestResult | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const apply = (s: Settings) => {
    setLoaded(s);
    setProvider(s.provider);
    setValues(toValues(s));
    setLearnerFields(learnerValues(s, learners));
    setErrors({});
  };

  useEffect(() => {
    client.request('settings.get', {}).then(apply, (err: unknown) => setLoadError(errorText(err)));
  }, [client]);

  function choosePreset(preset: Settings['provider']['preset']) {
    const old = presetInfo(provider.preset);
    const next = presetInfo(preset);
    setProvider({
      ...provider,
      preset,
      // Keep a URL or model the person typed; replace the previous preset's defaults.
      baseUrl: provider.baseUrl === '' || provider.baseUrl === old.baseUrl ? next.baseUrl : provider.baseUrl,
      model: provider.model === '' || provider.model === old.exampleModel ? next.exampleModel : provider.model,
    });
    setTest(null);
  }

  async function save(e: Event) {
    e.preventDefault();
    setMessage(null);
    const registryPart = learnersFromValues(loaded?.learners, learnerFields, learners);
    const candidate = fromValues(provider, values) as Record<string, unknown>;
    if (registryPart.learners !== undefined) candidate['learners'] = registryPart.learners;
    const parsed = SettingsSchema.safeParse(candidate);
    if (!parsed.success || Object.keys(registryPart.errors).length > 0) {
      const errs: Record<string, string> = { ...registryPart.errors };
      for (const issue of parsed.error?.issues ?? []) errs[issue.path.join('.')] ??= issue.message;
      setErrors(errs);
      setMessage({ kind: 'error', text: `Not saved: ${Object.keys(errs).length} field${Object.keys(errs).length === 1 ? '' : 's'} need fixing.` });
      return;
    }
    setErrors({});
    setBusy('save');
    try {
      apply(await client.request('settings.set', { settings: parsed.data }));
      setMessage({ kind: 'ok', text: 'Saved.' });
    } catch (err) {
      setMessage({ kind: 'error', text: `Not saved: ${errorText(err)}` });
    } finally {
      setBusy(null);
    }
  }

  async function reset() {
    setMessage(null);
    setBusy('reset');
    try {
      apply(await client.request('settings.reset', {}));
      setMessage({ kind: 'ok', text: 'All settings reset to their defaults.' });
    } catch (err) {
      setMessage({ kind: 'error', text: `Reset failed: ${errorText(err)}` });
    } finally {
      setBusy(null);
    }
  }

  async function testConnection() {
    setTest(null);
    setTestError(null);
    const parsed = ProviderSettingsSchema.safeParse(provider);
    if (!parsed.success) {
      setTestError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      return;
    }
    setBusy('test');
    try {
      setTest(await client.request('provider.test', { provider: parsed.data }));
    } catch (err) {
      setTestError(errorText(err));
    } finally {
      setBusy(null);
    }
  }

  const providerErr = (key: string) => errors[`provider.${key}`];
  const builtInPreset = provider.preset === 'chrome-ai';
  const offline = provider.preset === 'offline';
  // The built-in model has no URL, key or model name.
  const noEndpoint = offline || builtInPreset;
  const info = presetInfo(provider.preset);

  return (
    <main class="options">
      <h1>Apprentice settings</h1>
      {loadError ? <p class="error" role="alert">Could not load the settings: {loadError}. Showing the defaults.</p> : null}
      {!loaded && !loadError ? <p role="status" class="loading"><span class="spinner" aria-hidden="true" /> Loading…</p> : null}
      <form onSubmit={save} noValidate>
        <fieldset>
          <legend>Model provider</legend>
          <label for="opt-preset">Provider</label>
          <select id="opt-preset" value={provider.preset} onChange={(e) => choosePreset(ProviderPresetSchema.parse(e.currentTarget.value))}>
            {PROVIDER_PRESETS.map((p) => <option key={p.preset} value={p.preset}>{p.label}</option>)}
          </select>
          {offline ? (
            <p class="help">The built-in offline policy needs no model and no network. Choose a provider to use a language model.</p>
          ) : null}
          {builtInPreset ? <BuiltInModelNotice /> : null}
          <label for="opt-baseUrl">Base URL</label>
          <input id="opt-baseUrl" type="url" value={provider.baseUrl} disabled={noEndpoint} placeholder={info.baseUrl || 'http://host:port/v1'}
            onInput={(e) => setProvider({ ...provider, baseUrl: e.currentTarget.value })} />
          <label for="opt-apiKey">API key{info.needsKey ? '' : ' (optional)'}</label>
          <input id="opt-apiKey" type="password" autoComplete="off" value={provider.apiKey} disabled={noEndpoint} aria-describedby="key-help"
            onInput={(e) => setProvider({ ...provider, apiKey: e.currentTarget.value })} />
          <p id="key-help" class="help">Kept in this extension's storage only. It is sent to the provider and never to web pages or content scripts.</p>
          <label for="opt-model">Model</label>
          <input id="opt-model" type="text" value={provider.model} disabled={noEndpoint} placeholder={info.exampleModel}
            onInput={(e) => setProvider({ ...provider, model: e.currentTarget.value })} />
          <label for="opt-logitMode">Logits</label>
          <select id="opt-logitMode" value={provider.logitMode} disabled={offline}
            onChange={(e) => setProvider({ ...provider, logitMode: e.currentTarget.value as Settings['provider']['logitMode'] })}>
            <option value="auto">Auto: token logprobs when available, else verbalized</option>
            <option value="logprobs">Token logprobs</option>
            <option value="verbalized">Verbalized confidences</option>
          </select>
          <label for="opt-contextTokens">Context window (tokens) <span class="muted">0 = {info.contextTokens > 0 ? `preset default ${info.contextTokens}` : 'learn it from the server'}</span></label>
          <input id="opt-contextTokens" type="number" min={0} value={String(provider.contextTokens ?? 0)} disabled={offline} aria-describedby="ctx-help"
            onInput={(e) => setProvider({ ...provider, contextTokens: e.currentTarget.value === '' ? 0 : Number(e.currentTarget.value) })} />
          <p id="ctx-help" class="help">When the prompt would not fit, the page listing is shrunk to fit. Ollama cuts long prompts silently, so set its num_ctx here.</p>
          <label for="opt-timeoutMs">Timeout (ms) <span class="muted">default {DEFAULT_SETTINGS.provider.timeoutMs}</span></label>
          <input id="opt-timeoutMs" type="number" min={1} value={String(provider.timeoutMs)} aria-invalid={providerErr('timeoutMs') ? 'true' : 'false'}
            onInput={(e) => setProvider({ ...provider, timeoutMs: e.currentTarget.value === '' ? Number.NaN : Number(e.currentTarget.value) })} />
          {providerErr('timeoutMs') ? <p class="error">{providerErr('timeoutMs')}</p> : null}
          <div class="row">
            <button type="button" disabled={busy !== null} onClick={testConnection}>Test connection</button>
            {busy === 'test' ? <span role="status"><span class="spinner" aria-hidden="true" /> Testing…</span> : null}
          </div>
          {test ? (
            <ProviderTestReport test={test} onUseModel={(model) => { setProvider({ ...provider, model }); setTest(null); }} />
          ) : null}
          {testError ? <p class="error" role="alert">Connection test failed: {testError}</p> : null}
        </fieldset>

        {GROUPS.map((group) => (
          <fieldset key={group}>
            <legend>{GROUP_TITLES[group]}</legend>
            {FIELDS.filter((f) => f.group === group).map((f) => (
              <FieldInput key={f.path} field={f} value={values[f.path] ?? ''} error={errors[f.path]}
                onChange={(v) => setValues({ ...values, [f.path]: v })} />
            ))}
          </fieldset>
        ))}

        {loaded ? (
          <MetaTtlSettingsSection
            settings={learnerSettings(metattlDefinition, loaded)}
            needsModel={loaded.provider.preset === 'offline' || !loaded.provider.baseUrl || !loaded.provider.model ? NEEDS_MODEL : null}
            onChange={async (next: MetaTtlSettings) => {
              // Saved at once (an import is a file the person chose), over the settings as stored.
              const saved = await client.request('settings.set', { settings: { ...loaded, learners: { ...(loaded.learners ?? {}), [metattlDefinition.id]: next } } });
              setLoaded(saved);
            }}
          />
        ) : null}
        <LearnerSettingsSections registry={learners} values={learnerFields} errors={errors} modelConfigured={provider.preset !== 'offline'}
          onChange={(path, v) => setLearnerFields({ ...learnerFields, [path]: v })} />

        <div class="row sticky-actions">
          <button type="submit" class="primary" disabled={busy !== null}>Save</button>
          <button type="button" disabled={busy !== null} onClick={reset}>Reset to defaults</button>
        </div>
        {message ? <p class={message.kind === 'ok' ? 'notice' : 'error'} role={message.kind === 'ok' ? 'status' : 'alert'}>{message.text}</p> : null}
        {Object.keys(errors).length > 0 ? (
          <ul class="error" aria-label="Fields to fix">
            {Object.entries(errors).map(([path, msg]) => <li key={path}>{LABELS[path] ?? learnerFieldLabels(learners)[path] ?? path}: {msg}</li>)}
          </ul>
        ) : null}
      </form>
    </main>
  );
}

function FieldInput({ field, value, error, onChange }: { field: Field; value: string | boolean; error: string | undefined; onChange: (v: string | boolean) => void }) {
  const id = fieldId(field.path);
  const label = field.label;
  const help = `${id}-help`;
  const describedBy = error ? `${help} ${id}-error` : help;
  const invalid = error ? 'true' : 'false';
  return (
    <div class={`field field-${field.kind}`}>
      {field.kind === 'checkbox' ? (
        <label class="check">
          <input id={id} type="checkbox" checked={value === true} aria-describedby={describedBy} onChange={(e) => onChange(e.currentTarget.checked)} />
          {label}
        </label>
      ) : (
        <label for={id}>{label}</label>
      )}
      {field.kind === 'number' ? (
        <input id={id} type="number" step="any" value={String(value)} aria-invalid={invalid} aria-describedby={describedBy}
          onInput={(e) => onChange(e.currentTarget.value)} />
      ) : null}
      {field.kind === 'select' ? (
        <select id={id} value={String(value)} aria-describedby={describedBy} onChange={(e) => onChange(e.currentTarget.value)}>
          {field.options?.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
      ) : null}
      {field.kind === 'lines' ? (
        <textarea id={id} rows={2} value={String(value)} aria-invalid={invalid} aria-describedby={describedBy} onInput={(e) => onChange(e.currentTarget.value)} />
      ) : null}
      <span id={help} class="help">default: {defaultText(field)}</span>
      {error ? <span id={`${id}-error`} class="error">{error}</span> : null}
    </div>
  );
}
