/**
 * Settings in chrome.storage.local — the only place the provider key lives.
 * It is read by the background alone; it never goes to pages or content
 * scripts. Stored values are validated; a corrupt entry falls back to the
 * defaults field by field rather than failing.
 */
import { DEFAULT_SETTINGS, SettingsSchema, type Settings } from '../../core/settings.ts';

export interface StorageAreaSlice {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const KEY = 'apprentice.settings';

export function mergeWithDefaults(raw: unknown): Settings {
  if (typeof raw !== 'object' || raw === null) return structuredClone(DEFAULT_SETTINGS);
  const r = raw as Record<string, unknown>;
  const section = <K extends keyof Settings>(key: K): Settings[K] => {
    const merged = { ...DEFAULT_SETTINGS[key], ...(typeof r[key] === 'object' && r[key] !== null ? (r[key] as object) : {}) };
    const parsed = SettingsSchema.shape[key].safeParse(merged);
    return (parsed.success ? parsed.data : structuredClone(DEFAULT_SETTINGS[key])) as Settings[K];
  };
  const learners = SettingsSchema.shape.learners.safeParse(r.learners);
  return {
    provider: section('provider'), jitrl: section('jitrl'), rewards: section('rewards'), cer: section('cer'), agent: section('agent'),
    ...(learners.success && learners.data ? { learners: learners.data } : {}),
  };
}

export class SettingsStore {
  private cache: Settings | null = null;
  constructor(private readonly area: StorageAreaSlice) {}

  async load(): Promise<Settings> {
    const got = await this.area.get(KEY);
    this.cache = mergeWithDefaults(got[KEY]);
    return this.cache;
  }

  /** The last loaded settings (synchronous, for the agent loop). */
  current(): Settings {
    return this.cache ?? structuredClone(DEFAULT_SETTINGS);
  }

  async save(settings: Settings): Promise<Settings> {
    const valid = SettingsSchema.parse(settings);
    await this.area.set({ [KEY]: valid });
    this.cache = valid;
    return valid;
  }
}
