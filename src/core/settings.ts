/**
 * Every tunable of Apprentice, with defaults. JitRL defaults are the paper's
 * WebArena values (Table 8); where the authors' public code differs the
 * alternative is a setting (see docs/learning.md, the deviations tables).
 */
import * as z from 'zod';
import { AskModeSchema } from './autonomy/ask-mode.ts';

export const ProviderPresetSchema = z.enum([
  'offline', 'chrome-ai', 'openai', 'openrouter', 'ollama', 'lmstudio', 'vllm', 'llamacpp', 'custom',
]);
export type ProviderPreset = z.infer<typeof ProviderPresetSchema>;

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

export const JitrlSettingsSchema = z.strictObject({
  /** γ, discount for G_t (Eq. 3). Paper web: 0.1. */
  gamma: z.number().min(0).max(1),
  /** k, neighbours kept after ranking. Paper: 10. (The authors' code comments the cut out.) */
  k: z.number().int().positive(),
  /** Apply the top-k cut at all (paper: yes; authors' code: no). */
  useTopK: z.boolean(),
  /** r, similarity threshold. Paper web: 0.8. */
  threshold: z.number().min(0).max(1),
  /** Authors' code lowers r linearly with the step number down to this floor (0.7). Equal to `threshold` = off. */
  thresholdFloor: z.number().min(0).max(1),
  /** Steps over which r decays to its floor. */
  thresholdDecaySteps: z.number().int().positive(),
  /** Neighbours must have task Jaccard > this floor. Paper: 0.27. */
  taskFloor: z.number().min(0).max(1),
  /** w_h, weight of effective-state Jaccard. Paper: 0.7. */
  stateWeight: z.number().min(0).max(1),
  /** w_t, weight of task Jaccard. Paper: 0.3. */
  taskWeight: z.number().min(0).max(1),
  /** λ, probability of the optimistic branch for unseen actions (Eq. 6). Paper web: 0.05. */
  lambda: z.number().min(0).max(1),
  /** α, optimism bonus numerator (Eq. 6). Paper: 5 on rewards of ±3 (5/3 on our ±1, the default); authors' web code: 1. */
  alpha: z.number().min(0),
  /** β, strength of the logit update z' = z + β·Ã (Eq. 10). */
  beta: z.number().min(0),
  /**
   * Our addition: when some neighbours were taken on this very URL (the same
   * instance of the page type), use only those; otherwise the page type's.
   * Like n-gram backoff: the most specific evidence wins when it exists, and
   * the regularized URL still transfers to instances never seen.
   */
  preferSameUrl: z.boolean(),
  /** Eq. 25 divides by max|A| + ε; the authors' code divides by the largest positive A. */
  normalization: z.enum(['max-abs', 'max-positive']),
  /** Our addition: the normalization divisor is at least this (one unit of reward), so tiny advantages stay tiny. 0 = Eq. 25. */
  advantageFloor: z.number().min(0),
  /** Sampling temperature of the model. Paper: 0.8. */
  temperature: z.number().min(0).max(2),
  /** |C_LLM|, candidates asked of the model. Paper: 3. */
  numCandidates: z.number().int().min(1).max(10),
  // Our additions beyond Algorithm 1, each with a switch so the paper's JitRL
  // can be measured alone (`npm run bench -- --ablate`, docs/learning-ablation.md).
  /** Our addition: a candidate rejected here, or blamed for a failure here (this very state), is not proposed while another exists. */
  bars: z.boolean(),
  /** Our addition: a candidate whose returns in this very state average at least half a success is proposed outright, not sampled. */
  exploitSettled: z.boolean(),
  /** Our addition: the model is asked for one more candidate per action barred in this state. */
  widenPool: z.boolean(),
  /** Our addition: actions that led round a loop in this episode are barred where the loop closed. */
  loopBars: z.boolean(),
  /**
   * Our addition (issue 22): what the person taught counts as such — a correction
   * is proposed first in its state, and person-taught rows reach other instances
   * of the task's template with their values (docs/corrections.md).
   */
  learnCorrections: z.boolean(),
});
export type JitrlSettings = z.infer<typeof JitrlSettingsSchema>;

export const RewardSettingsSchema = z.strictObject({
  approve: z.number(),
  reject: z.number(),
  success: z.number(),
  failure: z.number(),
  partial: z.number(),
  /** Weight of the model evaluator's step score (scaled from −3..+3 to −1..+1) when both exist. */
  evaluatorWeight: z.number().min(0).max(1),
});
export type RewardSettings = z.infer<typeof RewardSettingsSchema>;

export const CerSettingsSchema = z.strictObject({
  enabled: z.boolean(),
  successOnly: z.boolean(),
  topDynamics: z.number().int().nonnegative(),
  topSkills: z.number().int().nonnegative(),
  maxEntriesPerSite: z.number().int().positive(),
});
export type CerSettings = z.infer<typeof CerSettingsSchema>;

export const SettingsSchema = z.strictObject({
  provider: ProviderSettingsSchema,
  jitrl: JitrlSettingsSchema.extend({ enabled: z.boolean() }),
  rewards: RewardSettingsSchema,
  cer: CerSettingsSchema,
  agent: z.strictObject({
    maxSteps: z.number().int().positive(),
    /**
     * Per site (origin): 'every-step' asks about every step (the default for a
     * site not listed), 'unapproved-only' runs what the person approved there
     * (autonomy/earned-autonomy.ts), 'off' keeps Apprentice from acting there.
     */
    askModes: z.record(z.string(), AskModeSchema),
    /** N: approvals of one action on one page type before it may run unasked. */
    approvalsNeeded: z.number().int().min(1).max(20),
    /** Actions the person marked "always ask", by site (semantic form). */
    alwaysAsk: z.array(z.strictObject({ origin: z.string(), action: z.string() })),
    /** Character budget of the page rendering in the prompt. */
    observationChars: z.number().int().positive(),
    /** Seed of the random source (λ branch, simulated policy, the proposal's draw). */
    seed: z.number().int(),
    /** How the proposal is chosen: sampled from Softmax(z′/T) as Algorithm 1 acts, or the argmax. */
    selection: z.enum(['sampling', 'argmax']),
    /** T of Softmax(z′/T) when sampling. */
    samplingTemperature: z.number().min(0).max(5),
    /** Model tokens one site may use in 24 hours before its episode pauses (0: no limit). */
    tokenBudgetPerSite: z.number().int().nonnegative(),
  }),
  /**
   * Settings of learners added through the registry, by learner id; each is
   * validated by its own schema (`LearnerDefinition.settings`). JitRL and CER
   * keep their own keys above.
   */
  learners: z.record(z.string(), z.unknown()).optional(),
  /** Learned procedures replay without a model when they clearly apply (issue 25); absent = on. */
  replay: z.strictObject({ enabled: z.boolean() }).optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_JITRL: JitrlSettings = {
  gamma: 0.1,
  k: 10,
  useTopK: true,
  threshold: 0.8,
  thresholdFloor: 0.8,
  thresholdDecaySteps: 10,
  taskFloor: 0.27,
  stateWeight: 0.7,
  taskWeight: 0.3,
  lambda: 0.05,
  // α = 5 in the paper (Table 8) is on the evaluator's step scores of −3..+3;
  // our rewards are on −1..+1 (the evaluator's score is divided by 3), so the
  // same optimism, relative to the returns it competes with, is 5/3. At α = 5
  // an untried action with one neighbour got Q = V + 5, far above any return
  // (the demo showed it overtaking a known-good action).
  alpha: 5 / 3,
  // The paper gives no web β; the authors' code uses 1 on probabilities. Our
  // logits are log-probabilities, and Ã ∈ [−1, 1], so β = 2 lets a consistent
  // record overturn a base preference of up to 2 nats (about 7:1 odds).
  beta: 2,
  preferSameUrl: true,
  normalization: 'max-abs',
  advantageFloor: 1,
  temperature: 0.8,
  numCandidates: 3,
  bars: true,
  exploitSettled: true,
  learnCorrections: true,
  widenPool: true,
  loopBars: true,
};

export const DEFAULT_SETTINGS: Settings = {
  provider: {
    preset: 'offline',
    baseUrl: '',
    apiKey: '',
    model: '',
    logitMode: 'auto',
    timeoutMs: 60_000,
  },
  jitrl: { ...DEFAULT_JITRL, enabled: true },
  rewards: { approve: 0.2, reject: -1, success: 1, failure: -1, partial: 0.3, evaluatorWeight: 0.5 },
  cer: { enabled: true, successOnly: false, topDynamics: 5, topSkills: 5, maxEntriesPerSite: 200 },
  agent: { maxSteps: 15, askModes: {}, approvalsNeeded: 2, alwaysAsk: [], observationChars: 12_000, seed: 0, selection: 'sampling', samplingTemperature: 1, tokenBudgetPerSite: 0 },
};
