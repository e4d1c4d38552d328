/**
 * Known OpenAI-compatible providers and their default base URLs, so the
 * options page can fill the URL when a person picks a preset.
 */
import type { ProviderPreset } from '../../core/settings.ts';

export interface ProviderPresetInfo {
  preset: ProviderPreset;
  label: string;
  /** Empty for 'offline' (no endpoint) and 'custom' (the person types it). */
  baseUrl: string;
  /** Whether the provider normally needs an API key. */
  needsKey: boolean;
  /** A model name to suggest, or '' when it depends on what is installed. */
  exampleModel: string;
}

export const PROVIDER_PRESETS: readonly ProviderPresetInfo[] = [
  { preset: 'offline', label: 'Built-in offline policy (no model)', baseUrl: '', needsKey: false, exampleModel: '' },
  { preset: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true, exampleModel: 'gpt-4o-mini' },
  { preset: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, exampleModel: 'openai/gpt-4o-mini' },
  { preset: 'ollama', label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1', needsKey: false, exampleModel: 'llama3.1' },
  { preset: 'lmstudio', label: 'LM Studio (local)', baseUrl: 'http://localhost:1234/v1', needsKey: false, exampleModel: '' },
  { preset: 'vllm', label: 'vLLM (local)', baseUrl: 'http://localhost:8000/v1', needsKey: false, exampleModel: '' },
  { preset: 'llamacpp', label: 'llama.cpp server (local)', baseUrl: 'http://localhost:8080/v1', needsKey: false, exampleModel: '' },
  { preset: 'custom', label: 'Custom OpenAI-compatible endpoint', baseUrl: '', needsKey: false, exampleModel: '' },
];

export function presetInfo(preset: ProviderPreset): ProviderPresetInfo {
  const info = PROVIDER_PRESETS.find((p) => p.preset === preset);
  if (!info) throw new Error(`Unknown provider preset: ${preset}`);
  return info;
}

/** The base URL for a preset (empty for 'offline' and 'custom'). */
export const defaultBaseUrl = (preset: ProviderPreset): string => presetInfo(preset).baseUrl;
