/** Meta-TTL's settings: which attempts share a guide, the conversation cap, and the strategy φ in force. */
import * as z from 'zod';
import { MAX_STRATEGY_CHARS, SHIPPED_STRATEGY } from './meta-prompt.ts';

export const MetaTtlSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  scope: z.enum(['task', 'template']),
  /** Episode logs kept in the meta conversation (one message per attempt). */
  conversationCap: z.number().int().min(1).max(20),
  temperature: z.number().min(0).max(2),
  maxTokens: z.number().int().min(256).max(8_000),
  /** The learned part of the meta-prompt (φ). */
  strategy: z.string().max(MAX_STRATEGY_CHARS),
  /** Where the strategy came from: the shipped one, a meta-training file, or the person's edit. */
  strategySource: z.enum(['shipped', 'imported', 'edited']),
  /** For imported strategies: when and on what it was meta-trained (shown in settings). */
  strategyNote: z.string().max(500),
});
export type MetaTtlSettings = z.infer<typeof MetaTtlSettingsSchema>;

export const DEFAULT_METATTL: MetaTtlSettings = {
  // Off by default: it needs a model and spends one meta-agent call per attempt.
  enabled: false,
  scope: 'task',
  // The authors' conversation grows without bound; 4 logs keep the prompt within small context windows.
  conversationCap: 4,
  temperature: 0.3,
  maxTokens: 1_500,
  strategy: SHIPPED_STRATEGY,
  strategySource: 'shipped',
  strategyNote: '',
};
