/**
 * The options page's state: the stored settings, the edited values of every
 * generated field (core groups and learners, by path), and save / reset /
 * a learner view's immediate save. Saving validates with the same schemas
 * the background uses (SettingsSchema, each learner's own).
 */
import { useEffect, useState } from 'preact/hooks';
import type { LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../core/settings.ts';
import type { UiClient } from '../../protocol/validate.ts';
import { errorText } from './format.ts';
import { learnersFromValues, learnerValues } from './learner-settings.tsx';
import type { FieldValue, FieldValues } from './schema-fields.ts';
import { coreFromValues, coreValues } from './settings-groups.ts';
import { readSiteRows, siteRows, type SiteRow } from './site-ask-modes.tsx';
import { readMarkRows } from './always-ask-list.tsx';
import type { AlwaysAskMark } from '../../core/autonomy/always-ask.ts';

export type OptionsMessage = { kind: 'ok' | 'error'; text: string };

export function useOptionsForm(client: UiClient, generated: readonly LearnerDefinition[]) {
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadNotes, setLoadNotes] = useState<string[]>([]);
  const [provider, setProvider] = useState<Settings['provider']>(DEFAULT_SETTINGS.provider);
  const valuesOf = (s: Settings): FieldValues => ({ ...coreValues(s), ...learnerValues(s, generated) });
  const [values, setValues] = useState<FieldValues>(valuesOf(DEFAULT_SETTINGS));
  const [sites, setSites] = useState<SiteRow[]>(siteRows(DEFAULT_SETTINGS.agent.askModes));
  const [marks, setMarks] = useState<AlwaysAskMark[]>(DEFAULT_SETTINGS.agent.alwaysAsk);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<OptionsMessage | null>(null);
  const [busy, setBusy] = useState<'save' | 'reset' | null>(null);

  const apply = (s: Settings) => {
    setLoaded(s);
    setProvider(s.provider);
    setValues(valuesOf(s));
    setSites(siteRows(s.agent.askModes));
    setMarks(s.agent.alwaysAsk);
    setErrors({});
  };

  useEffect(() => {
    client.request('settings.get', {}).then(apply, (err: unknown) => setLoadError(errorText(err)));
    // What the background could not keep of the stored settings (older versions have no such message).
    client.request('settings.loadNotes', {}).then(setLoadNotes, () => setLoadNotes([]));
  }, [client]);

  async function run(kind: 'save' | 'reset', call: () => Promise<Settings>, ok: string, failed: string) {
    setBusy(kind);
    try {
      apply(await call());
      setLoadNotes([]);
      setMessage({ kind: 'ok', text: ok });
    } catch (err) {
      setMessage({ kind: 'error', text: `${failed}: ${errorText(err)}` });
    } finally {
      setBusy(null);
    }
  }

  async function save(e: Event) {
    e.preventDefault();
    setMessage(null);
    const learnerPart = learnersFromValues(loaded?.learners, values, generated);
    // The revision says which defaults these values were chosen under (settings-load.ts): saved as loaded.
    const kept = { ...(loaded?.replay ? { replay: loaded.replay } : {}), ...(loaded?.revision !== undefined ? { revision: loaded.revision } : {}) };
    const core = coreFromValues(values);
    const sitePart = readSiteRows(sites);
    const markPart = readMarkRows(marks);
    const candidate = { ...core, agent: { ...core.agent, askModes: sitePart.askModes, alwaysAsk: markPart.alwaysAsk }, provider, learners: learnerPart.learners, ...kept };
    const parsed = SettingsSchema.safeParse(candidate);
    const errs: Record<string, string> = { ...sitePart.errors, ...markPart.errors, ...learnerPart.errors };
    for (const issue of parsed.error?.issues ?? []) errs[issue.path.join('.')] ??= issue.message;
    if (!parsed.success || Object.keys(errs).length > 0) {
      const n = Object.keys(errs).length;
      setErrors(errs);
      setMessage({ kind: 'error', text: `Not saved: ${n} field${n === 1 ? '' : 's'} need fixing.` });
      return;
    }
    setErrors({});
    await run('save', () => client.request('settings.set', { settings: parsed.data }), 'Saved.', 'Not saved');
  }

  async function reset() {
    setMessage(null);
    await run('reset', () => client.request('settings.reset', {}), 'All settings reset to their defaults.', 'Reset failed');
  }

  /** A learner view's change, saved at once over the settings as stored. */
  async function saveLearner(id: string, next: unknown) {
    if (!loaded) return;
    setLoaded(await client.request('settings.set', { settings: { ...loaded, learners: { ...(loaded.learners ?? {}), [id]: next } } }));
  }

  const setValue = (path: string, v: FieldValue) => setValues({ ...values, [path]: v });
  // Unsaved changes (issue 31): the fields differ from the settings as stored (or, before they load, from the defaults).
  const base = loaded ?? DEFAULT_SETTINGS;
  const dirty = JSON.stringify(provider) !== JSON.stringify(base.provider) || JSON.stringify(values) !== JSON.stringify(valuesOf(base))
    || JSON.stringify(sites) !== JSON.stringify(siteRows(base.agent.askModes)) || JSON.stringify(marks) !== JSON.stringify(base.agent.alwaysAsk);
  return { loaded, loadError, loadNotes, provider, setProvider, values, setValue, sites, setSites, marks, setMarks, errors, message, busy, save, reset, saveLearner, dirty };
}
