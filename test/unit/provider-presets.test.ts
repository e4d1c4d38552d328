/**
 * Issue 32: the providers are listed once (src/core/llm/provider-presets.ts):
 * the stored setting's enum, the options page's choices and the local
 * servers' hint all come from that list.
 */
import { describe, expect, it } from 'vitest';
import { testProvider } from '../../src/adapters/openai/openai-chat-model.ts';
import { PROVIDER_PRESETS, ProviderPresetSchema as listed } from '../../src/core/llm/provider-presets.ts';
import { DEFAULT_SETTINGS, ProviderPresetSchema } from '../../src/core/settings.ts';

describe('the provider list', () => {
  it('is one list: the settings enum is the list\'s ids, in its order', () => {
    expect(ProviderPresetSchema).toBe(listed);
    expect(ProviderPresetSchema.options).toEqual(PROVIDER_PRESETS.map((p) => p.preset));
    expect(ProviderPresetSchema.options).toEqual(['offline', 'chrome-ai', 'openai', 'openrouter', 'ollama', 'lmstudio', 'vllm', 'llamacpp', 'custom']);
  });

  it('marks the servers on the person\'s machine, and asks whether they run when unreachable', async () => {
    expect(PROVIDER_PRESETS.filter((p) => p.local).map((p) => p.preset)).toEqual(['ollama', 'lmstudio', 'vllm', 'llamacpp']);
    const unreachable = (preset: 'ollama' | 'openai') => testProvider({ ...DEFAULT_SETTINGS.provider, preset, baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'k' });
    const local = await unreachable('ollama');
    const remote = await unreachable('openai');
    expect([local.kind, remote.kind]).toEqual(['unreachable', 'unreachable']);
    expect(local.message).toContain('Is the local server running at that address?');
    expect(remote.message).not.toContain('local server');
  });
});
