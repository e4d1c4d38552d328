// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/preact';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { DEFAULT_CER } from '../../src/learners/cer/core/settings.ts';
import { OptionsPage } from '../../src/ui/app/options-page.tsx';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { fakeConnector } from './ui-fake-connector.ts';

afterEach(cleanup);

function setup(stored: Settings = DEFAULT_SETTINGS, extra: Parameters<typeof fakeConnector>[0] = {}) {
  const fake = fakeConnector({
    'settings.get': async () => stored,
    'settings.set': async ({ settings }) => settings,
    'settings.reset': async () => DEFAULT_SETTINGS,
    ...extra,
  });
  const user = userEvent.setup();
  render(<OptionsPage client={fake.connector.client} learners={LEARNERS.filter((d) => d.id === 'cer' || d.id === 'jitrl')} />);
  return { ...fake, user };
}

describe('Options page', () => {
  it('offers every provider preset, offline by default, and fills the preset URL', async () => {
    const { user } = setup();
    const preset = await screen.findByLabelText('Provider');
    expect(preset).toHaveValue('offline');
    expect([...(preset as HTMLSelectElement).options].map((o) => o.value)).toEqual(['offline', 'chrome-ai', 'openai', 'openrouter', 'ollama', 'lmstudio', 'vllm', 'llamacpp', 'custom']);
    // Offline shows no provider fields at all (issue 31).
    for (const label of ['Base URL', 'Model', 'Logits', /^Timeout \(ms\)/, /^Context window/]) expect(screen.queryByLabelText(label)).toBeNull();
    await user.selectOptions(preset, 'ollama');
    expect(screen.getByLabelText('Base URL')).toHaveValue('http://localhost:11434/v1');
    expect(screen.getByLabelText('Model')).toHaveValue('llama3.1');
    expect(screen.getByLabelText('API key (optional)')).toHaveAttribute('type', 'password');
    await user.selectOptions(preset, 'openai');
    expect(screen.getByLabelText('Base URL')).toHaveValue('https://api.openai.com/v1');
    expect(screen.getByLabelText('API key')).toHaveAccessibleDescription(/never to web pages or content scripts/);
  });

  it('shows every hyperparameter with its default, and saves the edited settings', async () => {
    const { callsOf, user } = setup();
    const beta = await screen.findByLabelText("How strongly memory moves the model's choice");
    expect(beta).toHaveValue(2);
    expect(beta).toHaveAccessibleDescription('β in z′ = z + β·Ã (Eq. 10). default: 2');
    expect(screen.getByLabelText('Discount of later rewards')).toHaveAccessibleDescription('γ in the return G_t (Eq. 3). default: 0.1');
    expect(screen.getByLabelText('Use CER')).toBeChecked();
    expect(screen.getByLabelText('How advantages are scaled')).toHaveValue('max-abs');
    expect(screen.getByLabelText('Reward for a rejected step')).toHaveValue(-1);
    expect(screen.getByLabelText('Max steps per episode')).toHaveValue(15);
    await user.clear(beta);
    await user.type(beta, '1.5');
    await user.click(screen.getByLabelText('Use CER'));
    await user.click(screen.getByRole('button', { name: 'Add a site' }));
    await user.type(screen.getByLabelText('Site 1'), 'https://a.test');
    await user.selectOptions(screen.getByLabelText('Asking on site 1'), 'unapproved-only');
    await user.click(screen.getByRole('button', { name: 'Add a site' }));
    await user.type(screen.getByLabelText('Site 2'), 'https://b.test');
    await user.selectOptions(screen.getByLabelText('Asking on site 2'), 'off');
    await user.selectOptions(screen.getByLabelText('Provider'), 'vllm');
    await user.type(screen.getByLabelText('Model'), 'qwen');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    const sent = callsOf('settings.set')[0]!['settings'] as Settings;
    expect(sent).toEqual({
      ...DEFAULT_SETTINGS,
      provider: { ...DEFAULT_SETTINGS.provider, preset: 'vllm', baseUrl: 'http://localhost:8000/v1', model: 'qwen' },
      learners: { jitrl: { ...DEFAULT_JITRL, beta: 1.5 }, cer: { ...DEFAULT_CER, enabled: false } },
      agent: { ...DEFAULT_SETTINGS.agent, askModes: { 'https://a.test': 'unapproved-only', 'https://b.test': 'off' } },
    });
  });

  it('marks unsaved changes until they are saved, and not when a field is put back (issue 31)', async () => {
    const { user } = setup();
    const beta = await screen.findByLabelText("How strongly memory moves the model's choice");
    expect(screen.queryByTestId('unsaved')).toBeNull();
    await user.clear(beta);
    await user.type(beta, '1.5');
    expect(screen.getByTestId('unsaved')).toHaveTextContent('Unsaved changes');
    await user.clear(beta);
    await user.type(beta, '2');
    expect(screen.queryByTestId('unsaved')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Provider'), 'ollama');
    expect(screen.getByTestId('unsaved')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(screen.queryByTestId('unsaved')).toBeNull();
  });

  it('refuses to save invalid values and says which field is wrong', async () => {
    const { callsOf, user } = setup();
    const gamma = await screen.findByLabelText('Discount of later rewards');
    await user.clear(gamma);
    await user.type(gamma, '1.5');
    const k = screen.getByLabelText('Neighbours kept');
    await user.clear(k);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: 2 fields need fixing.');
    // Both are under Advanced: the disclosure opens so the fields to fix can be seen.
    await waitFor(() => expect(screen.getByTestId('advanced')).toHaveAttribute('open'));
    expect(gamma).toHaveAttribute('aria-invalid', 'true');
    expect(gamma).toHaveAccessibleDescription(/default: 0.1 .*<=1/);
    expect(screen.getByRole('list', { name: 'Fields to fix' }).textContent).toMatch(/Discount of later rewards: .*Neighbours kept: /);
    expect(callsOf('settings.set')).toEqual([]);
  });

  it('shows the background refusal when it rejects a save', async () => {
    const { user } = setup(DEFAULT_SETTINGS, {
      'settings.set': async () => { throw Object.assign(new Error('storage quota exceeded'), { name: 'StorageError' }); },
    });
    await screen.findByLabelText('Neighbours kept');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: StorageError: storage quota exceeded');
  });

  it('resets every setting to its default', async () => {
    const custom: Settings = { ...DEFAULT_SETTINGS, learners: { jitrl: { beta: 7, k: 3 } } };
    const { callsOf, user } = setup(custom);
    await waitFor(() => expect(screen.getByLabelText("How strongly memory moves the model's choice")).toHaveValue(7));
    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(callsOf('settings.reset')).toEqual([{}]);
    expect(await screen.findByText('All settings reset to their defaults.')).toBeInTheDocument();
    expect(screen.getByLabelText("How strongly memory moves the model's choice")).toHaveValue(2);
    expect(screen.getByLabelText('Neighbours kept')).toHaveValue(10);
  });

  it('tests the connection and reports whether token logprobs are available', async () => {
    const { callsOf, user } = setup(DEFAULT_SETTINGS, {
      'provider.test': async ({ provider }) => ({ ok: true, model: provider.model, logprobs: false, latencyMs: 120.4, message: 'top_logprobs missing from the reply' }),
    });
    await user.selectOptions(await screen.findByLabelText('Provider'), 'llamacpp');
    await user.type(screen.getByLabelText('Model'), 'tiny');
    await user.type(screen.getByLabelText('API key (optional)'), 'sk-secret');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    const report = await screen.findByTestId('provider-test');
    expect(report).toHaveTextContent('Connected to tiny (120 ms).');
    expect(report).toHaveTextContent('Token logprobs: not available (verbalized confidences will be used)');
    expect(callsOf('provider.test')).toEqual([{
      provider: { preset: 'llamacpp', baseUrl: 'http://localhost:8080/v1', apiKey: 'sk-secret', model: 'tiny', logitMode: 'auto', timeoutMs: 60_000 },
    }]);
  });

  it("Ollama's 403: shows the exact OLLAMA_ORIGINS value; a missing model: lists the server's models to pick from", async () => {
    const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    let reply: 'origin' | 'models' = 'origin';
    const { user } = setup(DEFAULT_SETTINGS, {
      'provider.test': async ({ provider }) =>
        reply === 'origin'
          ? { ok: false, model: provider.model, logprobs: false, latencyMs: 3, kind: 'origin_forbidden',
              message: `The model server refused requests from this extension's origin. (HTTP 403: the server refused the Origin ${origin} with an empty 403. For Ollama, set OLLAMA_ORIGINS=${origin} in Ollama's environment and restart it.)` }
          : { ok: false, model: provider.model, logprobs: false, latencyMs: 3, kind: 'model_not_found', message: 'model "llama3.1" not found', models: ['qwen2.5:7b', 'llama3.2:3b'] },
    });
    await user.selectOptions(await screen.findByLabelText('Provider'), 'ollama');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByTestId('ollama-origins')).toHaveTextContent(`OLLAMA_ORIGINS=${origin}`);
    reply = 'models';
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await user.click(await screen.findByRole('button', { name: 'Use llama3.2:3b' }));
    expect(screen.getByLabelText('Model')).toHaveValue('llama3.2:3b');
    // The context window is a setting, with the preset's default shown.
    expect(screen.getByText('0 = preset default 4096')).toBeInTheDocument();
  });

  it('keeps policy, rewards, agent and every learner\'s settings under a closed Advanced disclosure (issue 31)', async () => {
    setup();
    await screen.findByLabelText('Provider');
    const advanced = screen.getByTestId('advanced');
    expect(advanced.tagName).toBe('DETAILS');
    expect(advanced).not.toHaveAttribute('open');
    expect(advanced.querySelector(':scope > summary')!.textContent).toBe('Advanced: how Apprentice learns (policy, rewards, agent and each learner\'s settings)');
    expect(screen.getByLabelText('Neighbours kept').closest('details')).toBe(advanced);
    // Policy, rewards and agent settings are research settings too; the provider stays first, outside.
    for (const label of ['Model temperature', 'Reward for a rejected step', 'Max steps per episode']) expect(screen.getByLabelText(label).closest('details')).toBe(advanced);
    expect(screen.getByLabelText('Provider').closest('details')).toBeNull();
  });

  it('shows the per-site ask modes as a table first on the page, and saves them in the stored shape unchanged (issue 31)', async () => {
    const stored: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, askModes: { 'https://a.test': 'unapproved-only', 'http://b.test:8080': 'off' } } };
    const { callsOf, user } = setup(stored);
    await waitFor(() => expect(screen.getByLabelText('Site 1')).toHaveValue('https://a.test'));
    const table = screen.getByRole('table', { name: 'Asking per site' });
    expect(table.closest('details')).toBeNull();
    expect(within(table).getByLabelText('Asking on site 1')).toHaveValue('unapproved-only');
    expect(within(table).getByLabelText('Site 2')).toHaveValue('http://b.test:8080');
    expect(within(table).getByLabelText('Asking on site 2')).toHaveValue('off');
    expect(screen.queryByTestId('unsaved')).toBeNull();
    // Loaded and saved untouched: the stored object comes back as it was.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect((callsOf('settings.set')[0]!['settings'] as Settings).agent.askModes).toEqual(stored.agent.askModes);
    // Remove the first: the second stays with its mode.
    await user.click(screen.getByRole('button', { name: 'Remove site 1' }));
    expect(screen.getByTestId('unsaved')).toBeInTheDocument();
    expect(screen.getByLabelText('Site 1')).toHaveValue('http://b.test:8080');
    expect(screen.queryByLabelText('Site 2')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsOf('settings.set')).toHaveLength(2));
    expect((callsOf('settings.set')[1]!['settings'] as Settings).agent.askModes).toEqual({ 'http://b.test:8080': 'off' });
  });

  it('refuses a site that is not an http(s) origin, saying what to type instead (issue 31)', async () => {
    const { callsOf, user } = setup();
    await screen.findByLabelText('Provider');
    // Add a site puts the cursor in the new row's site.
    await user.click(screen.getByRole('button', { name: 'Add a site' }));
    await waitFor(() => expect(screen.getByLabelText('Site 1')).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Remove site 1' }));
    expect(screen.queryByLabelText('Site 1')).toBeNull();
    for (const typed of ['a.test', 'ftp://files.test', 'https://a.test/shop', 'https://c.test', 'https://c.test']) {
      await user.click(screen.getByRole('button', { name: 'Add a site' }));
      const rows = screen.getAllByLabelText(/^Site \d+$/);
      await user.type(rows[rows.length - 1]!, typed);
    }
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: 4 fields need fixing.');
    expect(screen.getByLabelText('Site 1')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Site 1')).toHaveAccessibleDescription('"a.test" is not a web address: type it with http:// or https://, such as https://a.test');
    expect(screen.getByLabelText('Site 2')).toHaveAccessibleDescription('only http:// and https:// sites can have an ask mode (this is ftp:)');
    expect(screen.getByLabelText('Site 3')).toHaveAccessibleDescription('"https://a.test/shop" is more than a site: use https://a.test');
    expect(screen.getByLabelText('Site 4')).toHaveAttribute('aria-invalid', 'false');
    // Two rows for one site: neither wins, the person removes one.
    expect(screen.getByLabelText('Site 5')).toHaveAccessibleDescription('https://c.test is listed twice: remove one');
    expect(screen.getByRole('list', { name: 'Fields to fix' }).textContent).toContain('Site 2: only http:// and https:// sites');
    // The fields to fix are not under Advanced: it stays closed.
    expect(screen.getByTestId('advanced')).not.toHaveAttribute('open');
    expect(callsOf('settings.set')).toEqual([]);
  });

  it('edits the actions that always ask as a list, outside Advanced, each said in words, and saves the stored shape (issue 31)', async () => {
    const stored: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, alwaysAsk: [{ origin: 'https://a.test', action: 'click(<button "Remove" in row "Ada">)' }] } };
    const { callsOf, user } = setup(stored);
    await waitFor(() => expect(screen.getByLabelText('Always-ask site 1')).toHaveValue('https://a.test'));
    const table = screen.getByRole('table', { name: 'Actions that always ask' });
    expect(table.closest('details')).toBeNull();
    expect(screen.queryByRole('textbox', { name: /one "origin action" per line/ })).toBeNull();
    expect(within(table).getByLabelText('Always-ask action 1')).toHaveAccessibleDescription('Click “Remove” (row “Ada”)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    expect((callsOf('settings.set')[0]!['settings'] as Settings).agent.alwaysAsk).toEqual(stored.agent.alwaysAsk);
    // Add one, then remove the first: the new one is saved alone, trimmed.
    await user.click(screen.getByRole('button', { name: 'Add an action that always asks' }));
    await waitFor(() => expect(screen.getByLabelText('Always-ask site 2')).toHaveFocus());
    await user.type(screen.getByLabelText('Always-ask site 2'), 'https://b.test');
    await user.type(screen.getByLabelText('Always-ask action 2'), ' click(<button "Pay now">) ');
    expect(screen.getByTestId('unsaved')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove always-ask action 1' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsOf('settings.set')).toHaveLength(2));
    expect((callsOf('settings.set')[1]!['settings'] as Settings).agent.alwaysAsk).toEqual([{ origin: 'https://b.test', action: 'click(<button "Pay now">)' }]);
  });

  it('refuses an always-ask row whose site or action is not valid, saying what to write instead (issue 31)', async () => {
    const { callsOf, user } = setup();
    await screen.findByLabelText('Provider');
    const rows: [string, string][] = [
      ['https://a.test', 'Delete the account'],
      ['https://a.test', 'click(<button "Delete"'],
      ['https://a.test', 'click([5])'],
      ['a.test', 'click(<button "Delete">)'],
      ['https://a.test', 'click(<button "Delete">)'],
      ['https://a.test', "click(<button 'Delete'>)"],
      ['https://b.test', 'click(<button "Delete">)'],
    ];
    for (const [i, [origin, action]] of rows.entries()) {
      await user.click(screen.getByRole('button', { name: 'Add an action that always asks' }));
      await user.type(screen.getByLabelText(`Always-ask site ${i + 1}`), origin);
      // user-event reads [ and { as key names: typed as text through the input event.
      const field = screen.getByLabelText(`Always-ask action ${i + 1}`) as HTMLInputElement;
      field.value = action;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: 5 fields need fixing.');
    expect(screen.getByLabelText('Always-ask action 1')).toHaveAccessibleDescription('"Delete the account" reads as words: write the action, such as click(<button "Delete">)');
    expect(screen.getByLabelText('Always-ask action 2')).toHaveAccessibleDescription(/^the action does not parse \(.+\); write it as click\(<button "Delete">\)$/);
    expect(screen.getByLabelText('Always-ask action 3')).toHaveAccessibleDescription('it names its element by a number that changes from visit to visit: use its role and name, such as click(<button "Delete">)');
    expect(screen.getByLabelText('Always-ask site 4')).toHaveAccessibleDescription('"a.test" is not a web address: type it with http:// or https://, such as https://a.test');
    expect(screen.getByLabelText('Always-ask action 5')).toHaveAttribute('aria-invalid', 'false');
    // The same action written with other quotes is the same action for the gate: listed twice, neither wins.
    expect(screen.getByLabelText('Always-ask action 6')).toHaveAccessibleDescription('this action is listed twice for https://a.test: remove one');
    expect(screen.getByLabelText('Always-ask action 7')).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByRole('list', { name: 'Fields to fix' }).textContent).toContain('Always-ask site 4: "a.test" is not a web address');
    expect(screen.getByTestId('advanced')).not.toHaveAttribute('open');
    expect(callsOf('settings.set')).toEqual([]);
  });

  it("says plainly when this browser cannot run Chrome's built-in model", async () => {
    const { user } = setup();
    await user.selectOptions(await screen.findByLabelText('Provider'), 'chrome-ai');
    const status = await screen.findByTestId('builtin-status');
    await waitFor(() => expect(status).toHaveTextContent('This browser has no Prompt API (LanguageModel)'));
    expect(status).toHaveClass('error');
    // The built-in model has no URL, key or model name to type.
    expect(screen.queryByLabelText('Base URL')).toBeNull();
    expect(screen.queryByLabelText('Model')).toBeNull();
    expect(screen.getByLabelText('Logits')).toBeEnabled();
  });

  it('shows a failed connection as a clear message', async () => {
    const { user } = setup(DEFAULT_SETTINGS, {
      'provider.test': async () => { throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'ProviderError' }); },
    });
    await user.selectOptions(await screen.findByLabelText('Provider'), 'ollama');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Connection test failed: The model provider failed. (connect ECONNREFUSED)');
  });
});

describe('Options page: a section per registry learner', () => {
  it('generates a learner\'s section from its definition, says plainly it needs a model, and saves its settings', async () => {

    const z = await import('zod');
    const example = {
      id: 'example',
      label: 'Example learner',
      settings: { schema: z.strictObject({ enabled: z.boolean(), groupSize: z.number().int().min(2).describe('Attempts per group') }), defaults: { enabled: true, groupSize: 4 }, read: () => ({ enabled: true, groupSize: 4 }) },
      enabled: () => true,
      needsModel: { level: 'required' as const, description: 'It asks the model to compare attempts.' },
      keepsMemory: false,
    };
    const stored: Settings = { ...DEFAULT_SETTINGS, learners: { example: { groupSize: 6 }, other: { kept: 1 } } };
    const fake = fakeConnector({
      'settings.get': async () => stored,
      'settings.set': async ({ settings }) => settings,
      'settings.reset': async () => DEFAULT_SETTINGS,
    });
    const user = userEvent.setup();
    render(<OptionsPage client={fake.connector.client} learners={[...LEARNERS.filter((d) => d.id === 'cer' || d.id === 'jitrl'), example]} />);

    const section = await screen.findByRole('group', { name: 'Example learner settings' });
    expect(section).toHaveTextContent('Example learner needs a model and none is configured, so it does not run: It asks the model to compare attempts. Choose a provider above.');
    // The label is the schema's description; a key without one is its own label.
    const size = screen.getByLabelText('Attempts per group');
    await waitFor(() => expect(size).toHaveValue(6));
    expect(size).toHaveAccessibleDescription('default: 4');
    expect(screen.getByLabelText('enabled')).toBeChecked();

    await user.clear(size);
    await user.type(size, '1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Not saved: 1 field need fixing.')).toBeInTheDocument();
    expect(fake.callsOf('settings.set')).toHaveLength(0);

    await user.clear(size);
    await user.type(size, '8');
    await user.selectOptions(screen.getByLabelText('Provider'), 'ollama');
    expect(section).toHaveTextContent('Needs a model. It asks the model to compare attempts.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    const sent = fake.callsOf('settings.set')[0]!['settings'] as Settings;
    expect(sent.learners).toEqual({ example: { enabled: true, groupSize: 8 }, other: { kept: 1 }, jitrl: DEFAULT_JITRL, cer: DEFAULT_CER });
  });
});

describe('Options page: generated from the schemas', () => {
  it('shows the policy group and every registry learner from its schema, with no learner named by the page', async () => {
    const stored: Settings = { ...DEFAULT_SETTINGS, policy: { temperature: 0.4, numCandidates: 5 }, learners: { jitrl: { normalization: 'max-positive' } } };
    const fake = fakeConnector({
      'settings.get': async () => stored,
      'settings.set': async ({ settings }) => settings,
      'settings.loadNotes': async () => ['agent.maxSteps: the stored value 0 is not valid (Too small: expected number to be >0); using the default 15'],
    });
    const user = userEvent.setup();
    render(<OptionsPage client={fake.connector.client} />);
    const policy = await screen.findByRole('group', { name: 'Policy: how candidates are asked for' });
    await waitFor(() => expect(within(policy).getByLabelText('Model temperature')).toHaveValue(0.4));
    expect(within(policy).getByLabelText('Candidates asked of the model')).toHaveAccessibleDescription('default: 3');
    expect(screen.getByRole('list', { name: 'Settings reset on load' })).toHaveTextContent('agent.maxSteps: the stored value 0 is not valid');
    // An enum is a choice of its options, read from the schema.
    const jitrl = screen.getByRole('group', { name: 'JitRL settings' });
    const normalization = within(jitrl).getByLabelText('How advantages are scaled') as HTMLSelectElement;
    expect([...normalization.options].map((o) => o.value)).toEqual(['max-abs', 'max-positive']);
    expect(normalization).toHaveValue('max-positive');
    // Each section says plainly what it needs of a model.
    expect(jitrl).toHaveTextContent('Needs no model. Works with any policy');
    expect(screen.getByRole('group', { name: 'CER settings' })).toHaveTextContent('Uses a model when one is configured.');
    expect(screen.getByRole('group', { name: 'EvoTest settings' })).toBeInTheDocument();
    expect(screen.getByLabelText('Import meta-prompt')).toBeInTheDocument(); // Meta-TTL's own view
    await user.selectOptions(normalization, 'max-abs');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved.');
    const sent = fake.callsOf('settings.set')[0]!['settings'] as Settings;
    expect(sent.policy).toEqual({ temperature: 0.4, numCandidates: 5 });
    expect(sent.learners?.['jitrl']).toEqual(DEFAULT_JITRL);
    expect(screen.queryByRole('list', { name: 'Settings reset on load' })).toBeNull();
  });
});

describe('schema-fields: a form from a zod object schema', () => {
  it('derives each input from the schema and defaults, and reads the values back', async () => {
    const z = await import('zod');
    const { fieldValues, readFields, schemaFields, defaultText } = await import('../../src/ui/app/schema-fields.ts');
    const schema = z.strictObject({
      on: z.boolean().describe('Switched on'),
      size: z.number().int().min(1).describe('Size'),
      mode: z.enum(['fast', 'slow']).describe('Mode'),
      note: z.string(),
      tags: z.array(z.string()).describe('Tags'),
    });
    const fields = schemaFields('learners.demo', schema, { on: true, size: 3, mode: 'fast', note: '', tags: ['a', 'b'] });
    expect(fields.map((f) => [f.path, f.label, f.kind, f.options ?? null])).toEqual([
      ['learners.demo.on', 'Switched on', 'checkbox', null],
      ['learners.demo.size', 'Size', 'number', null],
      ['learners.demo.mode', 'Mode', 'select', ['fast', 'slow']],
      ['learners.demo.note', 'note', 'text', null],
      ['learners.demo.tags', 'Tags', 'lines', null],
    ]);
    expect(fields.map(defaultText)).toEqual(['true', '3', 'fast', '', 'a, b']);
    const values = fieldValues(fields, { on: false, size: 7, mode: 'slow', note: 'x', tags: ['c'] });
    expect(values).toEqual({ 'learners.demo.on': false, 'learners.demo.size': '7', 'learners.demo.mode': 'slow', 'learners.demo.note': 'x', 'learners.demo.tags': 'c' });
    expect(readFields(fields, { ...values, 'learners.demo.size': ' ', 'learners.demo.tags': 'd\n\n e ' })).toEqual({ on: false, size: Number.NaN, mode: 'slow', note: 'x', tags: ['d', 'e'] });
  });
});

describe('every generated setting has a label from its schema', () => {
  it('no input on the options page falls back to its key', async () => {
    const { CORE_GROUPS } = await import('../../src/ui/app/settings-groups.ts');
    const { learnerFields } = await import('../../src/ui/app/learner-settings.tsx');
    const { SETTINGS_VIEWS } = await import('../../src/ui/app/learner-settings-views.tsx');
    const generated = LEARNERS.filter((d) => !(d.id in SETTINGS_VIEWS));
    const fields = [...CORE_GROUPS.flatMap((g) => g.fields), ...generated.flatMap(learnerFields)];
    // policy 2, rewards 6, agent 7 (the ask modes and the actions that always ask are their own tables); then one input per key of each generated learner's defaults
    // (from the registry, so a new learner needs no edit here: today JitRL 21, CER 5, TF-GRPO 8, EvoTest 4).
    const perLearner = generated.map((d) => Object.keys(d.settings.defaults as object).length);
    expect(perLearner.every((n) => n > 0)).toBe(true);
    expect(fields.length).toBe(2 + 6 + 7 + perLearner.reduce((a, b) => a + b, 0));
    expect(fields.filter((f) => f.label === f.key).map((f) => f.path)).toEqual([]);
  });

  it('labels are plain words: no equation numbers or Greek symbols; the equation is in the help text (issue 31)', async () => {
    const { CORE_GROUPS } = await import('../../src/ui/app/settings-groups.ts');
    const { learnerFields } = await import('../../src/ui/app/learner-settings.tsx');
    const fields = [...CORE_GROUPS.flatMap((g) => g.fields), ...LEARNERS.flatMap(learnerFields)];
    expect(fields.filter((f) => /Eq\.|[\u0370-\u03ff]|^[a-z](_[a-z])? /.test(f.label)).map((f) => f.label)).toEqual([]);
    const help = Object.fromEntries(fields.map((f) => [f.path, f.help]));
    expect(help['learners.jitrl.beta']).toBe('β in z′ = z + β·Ã (Eq. 10)');
    expect(help['learners.jitrl.normalization']).toMatch(/^max-abs divides by the largest \|A\| \(Eq\. 25\)/);
    expect(help['agent.samplingTemperature']).toBe('T of Softmax(z′/T)');
  });
});
