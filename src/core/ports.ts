/**
 * The narrow interfaces the core is written against. Adapters implement them
 * for Chrome, IndexedDB and the OpenAI-compatible client; tests and the
 * benchmark pass plain objects.
 */
import type { Action, ActionResult } from './page/action.ts';
import type { ObserveOptions, PageObservation } from './page/observation.ts';
import type { TargetFingerprint } from './page/target-fingerprint.ts';

/** Reads and drives one page (a tab in the extension, a Playwright page in the benchmark). */
export interface PageDriver {
  observe(options: ObserveOptions, signal?: AbortSignal): Promise<PageObservation>;
  /**
   * Runs an action whose target is a ref of the latest observation. With
   * `expect`, the page layer refuses (`not_run`) when the element is not the
   * one approved at the moment it acts: role, name, link, form, submit
   * behaviour, and what is under the pointer.
   */
  act(action: Action, signal?: AbortSignal, expect?: TargetFingerprint): Promise<ActionResult>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  temperature: number;
  maxTokens: number;
  /** Ask for token logprobs (and this many alternatives per token). */
  logprobs: boolean;
  topLogprobs: number;
  /** Ask for a JSON object response when the provider supports it. */
  json: boolean;
  /**
   * The JSON Schema the answer must follow, for providers that constrain
   * decoding to a schema (Chrome's built-in model); others use JSON mode.
   */
  jsonSchema?: Record<string, unknown>;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

export interface ChatResponse {
  text: string;
  /** Null when the provider returned no logprobs. */
  tokens: TokenLogprob[] | null;
  usage: { promptTokens: number; completionTokens: number };
  model: string;
  /** What the adapter changed to get an answer (a parameter it stopped sending, …), for the person. */
  notes?: string[];
}

/** Any OpenAI-compatible chat endpoint. */
export interface ChatModel {
  chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}

/** Uniform [0, 1) source, seeded where reproducibility matters. */
export interface RandomSource {
  next(): number;
}

export interface Clock {
  now(): number;
}

export interface Logger {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
export const systemClock: Clock = { now: () => Date.now() };
