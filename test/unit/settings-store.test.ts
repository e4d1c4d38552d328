/**
 * Where the provider key lives and when it goes: its own entry in an area
 * closed to content scripts, never over plain http to another machine, and
 * dropped when the provider or its origin changes.
 */
import { describe, expect, it } from 'vitest';
import { SettingsStore, type StorageAreaSlice } from '../../src/adapters/chrome/settings-store.ts';
import { keyTransportProblem, reconcileProviderKey } from '../../src/core/provider-key.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';

function memoryArea() {
  const data: Record<string, unknown> = {};
  const levels: string[] = [];
  const area: StorageAreaSlice = {
    async get(key) {
      return key in data ? { [key]: structuredClone(data[key]) } : {};
    },
    async set(items) {
      Object.assign(data, structuredClone(items));
    },
    async setAccessLevel({ accessLevel }) {
      levels.push(accessLevel);
    },
  };
  return { area, data, levels };
}

const withProvider = (p: Partial<Settings['provider']>): Settings => ({ ...DEFAULT_SETTINGS, provider: { ...DEFAULT_SETTINGS.provider, ...p } });

describe('SettingsStore and the provider key', () => {
  it('restricts the area to trusted contexts and keeps the key out of the settings entry', async () => {
    const { area, data, levels } = memoryArea();
    const store = new SettingsStore(area);
    await store.save(withProvider({ preset: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-test-123' }));
    expect(levels).toEqual(['TRUSTED_CONTEXTS']);
    expect(JSON.stringify(data['apprentice.settings'])).not.toContain('sk-test-123');
    expect(data['apprentice.providerKey']).toBe('sk-test-123');
    expect((await new SettingsStore(area).load()).provider.apiKey).toBe('sk-test-123');
  });

  it('clears the key when the base-URL origin or the preset changes and no new key was typed', async () => {
    const { area } = memoryArea();
    const store = new SettingsStore(area);
    await store.save(withProvider({ preset: 'custom', baseUrl: 'https://a.example/v1', apiKey: 'sk-a' }));
    expect((await store.save(withProvider({ preset: 'custom', baseUrl: 'https://a.example/v2', apiKey: 'sk-a' }))).provider.apiKey).toBe('sk-a');
    expect((await store.save(withProvider({ preset: 'custom', baseUrl: 'https://b.example/v1', apiKey: 'sk-a' }))).provider.apiKey).toBe('');
    await store.save(withProvider({ preset: 'custom', baseUrl: 'https://b.example/v1', apiKey: 'sk-b' }));
    expect((await store.save(withProvider({ preset: 'openrouter', baseUrl: 'https://b.example/v1', apiKey: 'sk-b' }))).provider.apiKey).toBe('');
    // A new key typed together with the new URL is kept.
    expect((await store.save(withProvider({ preset: 'custom', baseUrl: 'https://c.example/v1', apiKey: 'sk-c' }))).provider.apiKey).toBe('sk-c');
  });

  it('refuses to store a key for plain http except to loopback', async () => {
    const store = new SettingsStore(memoryArea().area);
    await expect(store.save(withProvider({ preset: 'custom', baseUrl: 'http://models.lan:8000/v1', apiKey: 'sk-x' }))).rejects.toThrow(/only over https/);
    await expect(store.save(withProvider({ preset: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-x' }))).resolves.toBeTruthy();
    await expect(store.save(withProvider({ preset: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: 'sk-x' }))).resolves.toBeTruthy();
    // No key: any URL is fine.
    await expect(store.save(withProvider({ preset: 'custom', baseUrl: 'http://models.lan:8000/v1', apiKey: '' }))).resolves.toBeTruthy();
  });

  it('pure rules', () => {
    expect(keyTransportProblem({ baseUrl: 'http://[::1]:8080/v1', apiKey: 'k' })).toBeNull();
    expect(keyTransportProblem({ baseUrl: 'http://127.0.0.1.evil.test/v1', apiKey: 'k' })).toMatch(/unencrypted/);
    const p = DEFAULT_SETTINGS.provider;
    expect(reconcileProviderKey({ ...p, baseUrl: 'https://a.test', apiKey: 'k' }, { ...p, baseUrl: 'https://a.test/other', apiKey: 'k' }).apiKey).toBe('k');
  });
});
