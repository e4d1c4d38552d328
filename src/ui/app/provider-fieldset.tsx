/**
 * The options page's model provider: presets, base URL, key, model, logit
 * mode, context window, timeout, and the connection test.
 */
import { useState } from 'preact/hooks';
import { PROVIDER_PRESETS, presetInfo } from '../../core/llm/provider-presets.ts';
import { DEFAULT_SETTINGS, ProviderPresetSchema, ProviderSettingsSchema, type ProviderSettings } from '../../core/settings.ts';
import type { ProviderTestResult } from '../../protocol/messages.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText } from './format.ts';
import { BuiltInModelNotice, ProviderTestReport } from './provider-test-report.tsx';

/** Whether a model is there to use: the built-in one, or an endpoint with a model name. */
export const modelConfigured = (p: ProviderSettings): boolean =>
  p.preset === 'chrome-ai' || (p.preset !== 'offline' && p.baseUrl !== '' && p.model !== '');

/** The preset chosen, keeping a URL or model the person typed; the previous preset's defaults are replaced. */
export function withPreset(provider: ProviderSettings, preset: ProviderSettings['preset']): ProviderSettings {
  const old = presetInfo(provider.preset);
  const next = presetInfo(preset);
  return {
    ...provider,
    preset,
    baseUrl: provider.baseUrl === '' || provider.baseUrl === old.baseUrl ? next.baseUrl : provider.baseUrl,
    model: provider.model === '' || provider.model === old.exampleModel ? next.exampleModel : provider.model,
  };
}

export function ProviderFieldset({ client, provider, onChange, error, disabled }: {
  client: UiClient;
  provider: ProviderSettings;
  onChange: (next: ProviderSettings) => void;
  /** Error of a provider field, by key. */
  error: (key: string) => string | undefined;
  disabled: boolean;
}) {
  const [test, setTest] = useState<ProviderTestResult | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const set = (patch: Partial<ProviderSettings>) => onChange({ ...provider, ...patch });

  async function testConnection() {
    setTest(null);
    setTestError(null);
    const parsed = ProviderSettingsSchema.safeParse(provider);
    if (!parsed.success) {
      setTestError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      return;
    }
    setTesting(true);
    try {
      setTest(await client.request('provider.test', { provider: parsed.data }));
    } catch (err) {
      setTestError(errorText(err));
    } finally {
      setTesting(false);
    }
  }

  const offline = provider.preset === 'offline';
  // The built-in model has no URL, key or model name.
  const noEndpoint = offline || provider.preset === 'chrome-ai';
  return (
    <fieldset>
      <legend>Model provider</legend>
      <label for="opt-preset">Provider</label>
      <select id="opt-preset" value={provider.preset} onChange={(e) => { onChange(withPreset(provider, ProviderPresetSchema.parse(e.currentTarget.value))); setTest(null); }}>
        {PROVIDER_PRESETS.map((p) => <option key={p.preset} value={p.preset}>{p.label}</option>)}
      </select>
      {offline ? <p class="help">The built-in offline policy needs no model and no network. Choose a provider to use a language model.</p> : null}
      {provider.preset === 'chrome-ai' ? <BuiltInModelNotice /> : null}
      {/* Only the chosen provider's own fields (issue 31): offline has none, the built-in model no endpoint. */}
      {noEndpoint ? null : <EndpointFields provider={provider} set={set} />}
      {offline ? null : <ModelFields provider={provider} set={set} />}
      {offline ? null : (
        <>
          <label for="opt-timeoutMs">Timeout (ms) <span class="muted">default {DEFAULT_SETTINGS.provider.timeoutMs}</span></label>
          <input id="opt-timeoutMs" type="number" min={1} value={String(provider.timeoutMs)} aria-invalid={error('timeoutMs') ? 'true' : 'false'}
            onInput={(e) => set({ timeoutMs: e.currentTarget.value === '' ? Number.NaN : Number(e.currentTarget.value) })} />
          {error('timeoutMs') ? <p class="error">{error('timeoutMs')}</p> : null}
        </>
      )}
      <div class="row">
        <button type="button" disabled={disabled || testing} onClick={testConnection}>Test connection</button>
        {testing ? <span role="status"><span class="spinner" aria-hidden="true" /> Testing…</span> : null}
      </div>
      {test ? <ProviderTestReport test={test} onUseModel={(model) => { set({ model }); setTest(null); }} /> : null}
      {testError ? <p class="error" role="alert">Connection test failed: {testError}</p> : null}
    </fieldset>
  );
}

type SetProvider = (patch: Partial<ProviderSettings>) => void;

/** Base URL, key and model name: providers reached over HTTP. */
function EndpointFields({ provider, set }: { provider: ProviderSettings; set: SetProvider }) {
  const info = presetInfo(provider.preset);
  return (
    <>
          <label for="opt-baseUrl">Base URL</label>
          <input id="opt-baseUrl" type="url" value={provider.baseUrl} placeholder={info.baseUrl || 'http://host:port/v1'}
            onInput={(e) => set({ baseUrl: e.currentTarget.value })} />
          <label for="opt-apiKey">API key{info.needsKey ? '' : ' (optional)'}</label>
          <input id="opt-apiKey" type="password" autoComplete="off" value={provider.apiKey} aria-describedby="key-help"
            onInput={(e) => set({ apiKey: e.currentTarget.value })} />
          <p id="key-help" class="help">Kept in this extension's storage only. It is sent to the provider and never to web pages or content scripts.</p>
          <label for="opt-model">Model</label>
          <input id="opt-model" type="text" value={provider.model} placeholder={info.exampleModel}
            onInput={(e) => set({ model: e.currentTarget.value })} />
    </>
  );
}

/** How logits are read and the context window: any model, not the offline policy. */
function ModelFields({ provider, set }: { provider: ProviderSettings; set: SetProvider }) {
  const info = presetInfo(provider.preset);
  return (
    <>
          <label for="opt-logitMode">Logits</label>
          <select id="opt-logitMode" value={provider.logitMode}
            onChange={(e) => set({ logitMode: e.currentTarget.value as ProviderSettings['logitMode'] })}>
            <option value="auto">Auto: token logprobs when available, else verbalized</option>
            <option value="logprobs">Token logprobs</option>
            <option value="verbalized">Verbalized confidences</option>
          </select>
          <label for="opt-contextTokens">Context window (tokens) <span class="muted">0 = {info.contextTokens > 0 ? `preset default ${info.contextTokens}` : 'learn it from the server'}</span></label>
          <input id="opt-contextTokens" type="number" min={0} value={String(provider.contextTokens ?? 0)} aria-describedby="ctx-help"
            onInput={(e) => set({ contextTokens: e.currentTarget.value === '' ? 0 : Number(e.currentTarget.value) })} />
          <p id="ctx-help" class="help">When the prompt would not fit, the page listing is shrunk to fit. Ollama cuts long prompts silently, so set its num_ctx here.</p>
    </>
  );
}
