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
  /**
   * The context window the server runs with by default, in tokens (0: large
   * or unknown; learned from the first context-length error). Ollama and LM
   * Studio default to small windows, and Ollama cuts longer prompts silently.
   */
  contextTokens: number;
  /**
   * Characters per token assumed for this provider's models until the
   * server's own count of a prompt measures it. Page listings (brackets,
   * refs, numbers) tokenize denser than prose: OpenAI's o200k ≈ 3.5 on them,
   * Llama/Qwen tokenizers ≈ 3.2.
   */
  charsPerToken: number;
}

export const PROVIDER_PRESETS: readonly ProviderPresetInfo[] = [
  { preset: 'offline', label: 'Built-in offline policy (no model)', baseUrl: '', needsKey: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'chrome-ai', label: "Chrome's built-in model (no key, on device)", baseUrl: '', needsKey: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true, exampleModel: 'gpt-4o-mini', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, exampleModel: 'openai/gpt-4o-mini', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'ollama', label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1', needsKey: false, exampleModel: 'llama3.1', contextTokens: 4096, charsPerToken: 3.2 },
  { preset: 'lmstudio', label: 'LM Studio (local)', baseUrl: 'http://localhost:1234/v1', needsKey: false, exampleModel: '', contextTokens: 4096, charsPerToken: 3.2 },
  { preset: 'vllm', label: 'vLLM (local)', baseUrl: 'http://localhost:8000/v1', needsKey: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.2 },
  { preset: 'llamacpp', label: 'llama.cpp server (local)', baseUrl: 'http://localhost:8080/v1', needsKey: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.2 },
  { preset: 'custom', label: 'Custom OpenAI-compatible endpoint', baseUrl: '', needsKey: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.5 },
];

export function presetInfo(preset: ProviderPreset): ProviderPresetInfo {
  const info = PROVIDER_PRESETS.find((p) => p.preset === preset);
  if (!info) throw new Error(`Unknown provider preset: ${preset}`);
  return info;
}

/** The context window to plan for: the person's setting, else the preset's default (0: unknown). */
export const contextTokensFor = (provider: { preset: ProviderPreset; contextTokens?: number | undefined }): number =>
  provider.contextTokens && provider.contextTokens > 0 ? provider.contextTokens : presetInfo(provider.preset).contextTokens;

/** The base URL for a preset (empty for 'offline' and 'custom'). */
export const defaultBaseUrl = (preset: ProviderPreset): string => presetInfo(preset).baseUrl;
