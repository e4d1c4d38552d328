/**
 * Every tunable of Apprentice outside the learners, with defaults; each
 * learner's own settings are in its folder and stored under
 * `settings.learners[id]`. Each `.describe()` text is the label the options
 * page shows. Stored settings are read through settings-load.ts (defaults,
 * older shapes).
 */
import * as z from 'zod';
import { AskModeSchema } from './autonomy/ask-mode.ts';
import { ProviderPresetSchema } from './llm/provider-presets.ts';

/** The providers are listed once, in llm/provider-presets.ts. */
export { ProviderPresetSchema, type ProviderPreset } from './llm/provider-presets.ts';

export const ProviderSettingsSchema = z.strictObject({
  preset: ProviderPresetSchema,
  baseUrl: z.string(),
  apiKey: z.string(),
  model: z.string(),
  /** 'auto' detects whether the provider returns token logprobs and falls back to verbalized confidences. */
  logitMode: z.enum(['auto', 'logprobs', 'verbalized']),
  timeoutMs: z.number().int().positive(),
  /**
   * The model's context window in tokens, when known (0 or unset: learned from
   * the server's first context-length error). Servers that truncate silently
   * (Ollama) need it set so the page is shrunk before sending.
   */
  contextTokens: z.number().int().nonnegative().optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/**
 * How the policy is asked for candidates: they belong to the policy, not to a
 * learner (learners may change them per step through `shapeRequest`).
 */
export const PolicySettingsSchema = z.strictObject({
  /** Sampling temperature of the model. Default 0.8. */
  temperature: z.number().min(0).max(2).describe('Model temperature'),
  /** |C_LLM|, candidates asked of the model. Default 3. */
  numCandidates: z.number().int().min(1).max(10).describe('Candidates asked of the model'),
});
export type PolicySettings = z.infer<typeof PolicySettingsSchema>;

export const RewardSettingsSchema = z.strictObject({
  approve: z.number().describe('Reward for an approved step'),
  reject: z.number().describe('Reward for a rejected step'),
  success: z.number().describe('Reward for success'),
  failure: z.number().describe('Reward for failure'),
  partial: z.number().describe('Reward for partly done'),
  /** Weight of the model evaluator's step score (scaled from −3..+3 to −1..+1) when both exist. */
  evaluatorWeight: z.number().min(0).max(1).describe('Weight of the model evaluator'),
});
export type RewardSettings = z.infer<typeof RewardSettingsSchema>;

export const AgentSettingsSchema = z.strictObject({
  maxSteps: z.number().int().positive().describe('Max steps per episode'),
  /**
   * Per site (origin): 'every-step' asks about every step (the default for a
   * site not listed), 'unapproved-only' runs what the person approved there
   * (autonomy/earned-autonomy.ts), 'off' keeps Apprentice from acting there.
   */
  askModes: z.record(z.string(), AskModeSchema).describe('Ask mode per site (origin: every-step, unapproved-only or off)'),
  /** N: approvals of one action on one page type before it may run unasked. */
  approvalsNeeded: z.number().int().min(1).max(20).describe('Approvals of the same action before it may run unasked'),
  /** Actions the person marked "always ask", by site (semantic form). */
  alwaysAsk: z.array(z.strictObject({ origin: z.string(), action: z.string() })).describe('Actions that always ask, by site'),
  /** Character budget of the page rendering in the prompt. */
  observationChars: z.number().int().positive().describe('Page text budget (characters; shrunk further to fit a small context window)'),
  /** Seed of the random source (λ branch, simulated policy, the proposal's draw). */
  seed: z.number().int().describe('Random seed'),
  /**
   * How the proposal is chosen (agent/proposal-choice.ts): 'likeliest'
   * repeats what worked here, else takes the highest adjusted logit (what a
   * person approving steps should see); 'sampling' draws from Softmax(z′/T)
   * as Algorithm 1 acts (exploration, for unattended and benchmark runs);
   * 'argmax' is the highest adjusted logit alone.
   */
  selection: z.enum(['likeliest', 'sampling', 'argmax']).describe('Choose the proposal by (likeliest = repeat what worked, else the top; sampling explores, as Algorithm 1)'),
  /** T of Softmax(z′/T) when sampling. */
  samplingTemperature: z.number().min(0).max(5).meta({ description: 'Sampling temperature', help: 'T of Softmax(z′/T)' }),
  /** Model tokens one site may use in 24 hours before its episode pauses (0: no limit). */
  tokenBudgetPerSite: z.number().int().nonnegative().describe('Model tokens per site per 24 h before pausing (0 = no limit)'),
});
export type AgentSettings = z.infer<typeof AgentSettingsSchema>;

export const SettingsSchema = z.strictObject({
  provider: ProviderSettingsSchema,
  policy: PolicySettingsSchema,
  rewards: RewardSettingsSchema,
  agent: AgentSettingsSchema,
  /**
   * Every registry learner's settings, by learner id; each is validated by
   * its own schema and read over its defaults (`learnerSettings`). A learner
   * with nothing stored runs with its defaults.
   */
  learners: z.record(z.string(), z.unknown()).optional(),
  /** Learned procedures replay without a model when they clearly apply (issue 25); absent = on. */
  replay: z.strictObject({ enabled: z.boolean() }).optional(),
  /**
   * Which shipped defaults the settings were saved under (absent: before
   * revision 2). settings-load.ts moves what an older revision stored as
   * its default to today's default.
   */
  revision: z.number().int().positive().optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

/**
 * 2: proposals default to the likeliest candidate (issue 31); revision 1 sampled at T = 1,
 * so a person who learned to trust Approve approved random steps.
 */
export const SETTINGS_REVISION = 2;

export const DEFAULT_SETTINGS: Settings = {
  provider: {
    preset: 'offline',
    baseUrl: '',
    apiKey: '',
    model: '',
    logitMode: 'auto',
    timeoutMs: 60_000,
  },
  policy: { temperature: 0.8, numCandidates: 3 },
  rewards: { approve: 0.2, reject: -1, success: 1, failure: -1, partial: 0.3, evaluatorWeight: 0.5 },
  agent: { maxSteps: 15, askModes: {}, approvalsNeeded: 2, alwaysAsk: [], observationChars: 12_000, seed: 0, selection: 'likeliest', samplingTemperature: 1, tokenBudgetPerSite: 0 },
  revision: SETTINGS_REVISION,
};
