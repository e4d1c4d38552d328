/**
 * The one list of providers (CONTRIBUTING: "Adding a provider"): the stored
 * setting's enum (`ProviderPresetSchema`, re-exported by settings.ts), the
 * options page's choices and each provider's defaults all come from here.
 */
import * as z from 'zod';

export interface ProviderPresetInfo<P extends string = ProviderPreset> {
  preset: P;
  label: string;
  /** Empty for 'offline' (no endpoint) and 'custom' (the person types it). */
  baseUrl: string;
  /** Whether the provider normally needs an API key. */
  needsKey: boolean;
  /** A server on the person's own machine: when it cannot be reached, ask whether it is running. */
  local: boolean;
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

const PRESETS = [
  { preset: 'offline', label: 'Built-in offline policy (no model)', baseUrl: '', needsKey: false, local: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'chrome-ai', label: "Chrome's built-in model (no key, on device)", baseUrl: '', needsKey: false, local: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', needsKey: true, local: false, exampleModel: 'gpt-4o-mini', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, local: false, exampleModel: 'openai/gpt-4o-mini', contextTokens: 0, charsPerToken: 3.5 },
  { preset: 'ollama', label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1', needsKey: false, local: true, exampleModel: 'llama3.1', contextTokens: 4096, charsPerToken: 3.2 },
  { preset: 'lmstudio', label: 'LM Studio (local)', baseUrl: 'http://localhost:1234/v1', needsKey: false, local: true, exampleModel: '', contextTokens: 4096, charsPerToken: 3.2 },
  { preset: 'vllm', label: 'vLLM (local)', baseUrl: 'http://localhost:8000/v1', needsKey: false, local: true, exampleModel: '', contextTokens: 0, charsPerToken: 3.2 },
  { preset: 'llamacpp', label: 'llama.cpp server (local)', baseUrl: 'http://localhost:8080/v1', needsKey: false, local: true, exampleModel: '', contextTokens: 0, charsPerToken: 3.2 },
  { preset: 'custom', label: 'Custom OpenAI-compatible endpoint', baseUrl: '', needsKey: false, local: false, exampleModel: '', contextTokens: 0, charsPerToken: 3.5 },
] as const satisfies readonly ProviderPresetInfo<string>[];

export type ProviderPreset = (typeof PRESETS)[number]['preset'];
/** The stored `provider.preset`: exactly the ids of the list above, in its order. */
export const ProviderPresetSchema = z.enum(PRESETS.map((p) => p.preset) as [ProviderPreset, ...ProviderPreset[]]);
export const PROVIDER_PRESETS: readonly ProviderPresetInfo[] = PRESETS;

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
