/**
 * Settings in chrome.storage.local. The provider key is kept apart from the
 * rest, under its own entry, and the area is restricted to trusted contexts
 * (extension pages and the service worker) so a content script — the part
 * that shares a process with hostile pages — cannot read it. The key follows
 * provider-key.ts: refused over plain http except to loopback, cleared when
 * the provider or its origin changes. Stored values are read by
 * core/settings-load.ts: older shapes are moved to today's, and a corrupt
 * value falls back to its default field by field, with a note, rather than
 * failing.
 */
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../core/settings.ts';
import { learnerSettingsProblems, loadSettings } from '../../core/settings-load.ts';
import { KeyTransportError, keyTransportProblem, reconcileProviderKey } from '../../core/provider-key.ts';
import { LEARNERS } from '../../core/learning/registry/registry.ts';

export interface StorageAreaSlice {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove?(key: string): Promise<void>;
  /** chrome.storage's access level; absent in tests and old browsers. */
  setAccessLevel?(options: { accessLevel: 'TRUSTED_CONTEXTS' | 'TRUSTED_AND_UNTRUSTED_CONTEXTS' }): Promise<void>;
}

/** Settings a learner's own schema refuses (the message says which field and why). */
export class InvalidSettingsError extends Error {
  override name = 'InvalidSettingsError';
}

const KEY = 'apprentice.settings';
const API_KEY = 'apprentice.providerKey';

export class SettingsStore {
  private cache: Settings | null = null;
  private notes: string[] = [];
  private restricted: Promise<void> | null = null;
  constructor(private readonly area: StorageAreaSlice) {}

  /** Content scripts may not read this area (chrome.storage.local is readable by them by default). */
  private restrict(): Promise<void> {
    this.restricted ??= (this.area.setAccessLevel?.({ accessLevel: 'TRUSTED_CONTEXTS' }) ?? Promise.resolve()).catch(() => undefined);
    return this.restricted;
  }

  async load(): Promise<Settings> {
    await this.restrict();
    const got = await this.area.get(KEY);
    const { settings, notes } = loadSettings(got[KEY], LEARNERS);
    this.notes = notes;
    const key = (await this.area.get(API_KEY))[API_KEY];
    // A key stored inside the settings by an older version moves to its own entry on the next save.
    const apiKey = typeof key === 'string' ? key : settings.provider.apiKey;
    this.cache = { ...settings, provider: { ...settings.provider, apiKey: keyTransportProblem({ ...settings.provider, apiKey }) ? '' : apiKey } };
    return this.cache;
  }

  /** What the last load could not keep of the stored settings (one line each; empty when all was valid). */
  loadNotes(): string[] {
    return [...this.notes];
  }

  /** The last loaded settings (synchronous, for the agent loop). */
  current(): Settings {
    return this.cache ?? structuredClone(DEFAULT_SETTINGS);
  }

  async save(settings: Settings): Promise<Settings> {
    await this.restrict();
    const previous = this.cache ?? (await this.load());
    const parsed = SettingsSchema.parse(settings);
    const problems = learnerSettingsProblems(parsed, LEARNERS);
    if (problems.length > 0) throw new InvalidSettingsError(`Not saved: ${problems.join('; ')}`);
    const valid: Settings = { ...parsed, provider: reconcileProviderKey(previous.provider, parsed.provider) };
    const problem = keyTransportProblem(valid.provider);
    if (problem) throw new KeyTransportError(problem);
    await this.area.set({ [KEY]: { ...valid, provider: { ...valid.provider, apiKey: '' } }, [API_KEY]: valid.provider.apiKey });
    this.cache = valid;
    this.notes = [];
    return valid;
  }
}
