/**
 * EvoTest's agent configuration χ = (p, M, h, u) (EvoTest §"Holistic Agent
 * Configuration"), as declarative data only:
 *  - p  `guidance`: the policy prompt added to the actor's guide;
 *  - M  `memoryRules`: what counts as a success pair and a failure pattern,
 *       and how memory hints are phrased (the memory itself is shared by the
 *       whole lineage, as the paper's M^(e+1) is inherited by every child);
 *  - h  `hyperparameters`: temperature, number of candidates, the step
 *       limit, and the numbers other learners declare tunable (tunables.ts);
 *  - u  `stateAbstraction`: which parts of the page digest to keep and which
 *       phrases mark a milestone. The authors evolve a Python extractor; an
 *       MV3 extension must never run generated code, so the extractor becomes
 *       these rules.
 * Every object is strict: an evolver that adds a field (`extractor`, `code`,
 * `onStep`…) produces an invalid child, which is dropped and counted.
 */
import * as z from 'zod';
import type { Tunables } from '../../../core/learning/tunables.ts';

/** Short plain text matched as a case-insensitive substring (never a pattern, never code). */
const PhraseSchema = z
  .string()
  .trim()
  .min(2)
  .max(80)
  .refine((s) => !/[{}<>;]|=>|\bfunction\b|\bdef\s|\blambda\b|\bimport\b|\beval\b/i.test(s), {
    message: 'a milestone phrase is plain text, not code',
  });

export const DIGEST_PARTS = ['title', 'headings', 'landmarks', 'controls', 'values', 'text'] as const;
export const DigestPartSchema = z.enum(DIGEST_PARTS);
export type DigestPart = z.infer<typeof DigestPartSchema>;

export const MemoryRulesSchema = z.strictObject({
  successPair: z.strictObject({
    /** A step is a success pair when its reward is at least this (rewards lie in [−1, 1]). */
    minStepReward: z.number().min(-1).max(1),
    /** Only steps of episodes that ended in success (or partial success) count. */
    requireEpisodeSuccess: z.boolean(),
  }),
  failurePattern: z.strictObject({
    /** The same action on the same page this many times in one episode is a loop. */
    loopRepeats: z.number().int().min(2).max(8),
    /** Actions whose result was an error count as failures. */
    includeFailedActions: z.boolean(),
    /** Actions the person rejected count as failures. */
    includeRejected: z.boolean(),
    /** The last this-many actions of a failed episode count as failures (where it went wrong is usually near the end). */
    lastActionsOfFailure: z.number().int().min(0).max(3),
  }),
  /** 'suggestion': hints in the prompt only; 'instruction': hints also raise the hinted action's logit. */
  hintPhrasing: z.enum(['suggestion', 'instruction']),
  maxHints: z.number().int().min(0).max(8),
  /** Logit added to a hinted action when hints are instructions (nats). */
  instructionBonus: z.number().min(0).max(5),
  /** Logit taken from an action that matches a failure pattern (nats). */
  avoidPenalty: z.number().min(0).max(5),
});
export type MemoryRules = z.infer<typeof MemoryRulesSchema>;

const FixedHyperparametersSchema = z.strictObject({
  temperature: z.number().min(0).max(2),
  numCandidates: z.number().int().min(1).max(8),
  maxSteps: z.number().int().min(2).max(50),
});
const HyperparameterRecordSchema = z.record(z.string(), z.number());

/**
 * Its own numbers, and the registry's tunables by key (tunables.ts: another
 * learner's β, for one), in that learner's ranges.
 */
export type Hyperparameters = z.infer<typeof FixedHyperparametersSchema> & { readonly [tunable: string]: number };

/**
 * As stored (lineages, episode plans): its own numbers in range, every other
 * value a number, keys in the order written. What a tuned learner accepts is
 * checked by `configurationSchemaFor` when a configuration is proposed.
 */
export const HyperparametersSchema = z.custom<Hyperparameters>((value) => {
  const record = HyperparameterRecordSchema.safeParse(value);
  if (!record.success) return false;
  const { temperature, numCandidates, maxSteps } = record.data;
  return FixedHyperparametersSchema.safeParse({ temperature, numCandidates, maxSteps }).success;
}, { message: 'hyperparameters: temperature, numCandidates and maxSteps in range, every other value a number' });

export const StateAbstractionSchema = z.strictObject({
  /** Parts of the page digest shown to the evolver and summarized for the actor. */
  keep: z.array(DigestPartSchema).min(1).max(DIGEST_PARTS.length).refine((a) => new Set(a).size === a.length, { message: 'parts must not repeat' }),
  /** Lines of the digest kept per page. */
  maxLines: z.number().int().min(5).max(200),
  /** A digest line containing one of these marks a milestone ("Milestone: …" in the prompt). */
  milestonePhrases: z.array(PhraseSchema).max(12),
});
export type StateAbstraction = z.infer<typeof StateAbstractionSchema>;

const GuidanceSchema = z.string().max(1500);

export const EvoConfigurationSchema = z.strictObject({
  guidance: GuidanceSchema,
  memoryRules: MemoryRulesSchema,
  hyperparameters: HyperparametersSchema,
  stateAbstraction: StateAbstractionSchema,
});
export type EvoConfiguration = z.infer<typeof EvoConfigurationSchema>;

/**
 * The seed configuration every lineage starts from: the product's policy settings and step limit,
 * and each tunable's current value (`tuned`, in registry order) between the candidate count and the step limit.
 */
export function seedConfiguration(h: { temperature: number; numCandidates: number; maxSteps: number }, tuned: Readonly<Record<string, number>> = {}): EvoConfiguration {
  return {
    guidance: '',
    memoryRules: {
      successPair: { minStepReward: 0.1, requireEpisodeSuccess: true },
      failurePattern: { loopRepeats: 3, includeFailedActions: true, includeRejected: true, lastActionsOfFailure: 0 },
      hintPhrasing: 'suggestion',
      maxHints: 3,
      instructionBonus: 1,
      avoidPenalty: 1,
    },
    hyperparameters: {
      temperature: h.temperature,
      numCandidates: Math.min(8, Math.max(1, h.numCandidates)),
      ...tuned,
      maxSteps: Math.min(50, Math.max(2, h.maxSteps)),
    },
    stateAbstraction: { keep: ['title', 'headings', 'controls'], maxLines: 40, milestonePhrases: [] },
  };
}

export type ConfigurationCheck = { ok: true; configuration: EvoConfiguration } | { ok: false; error: string };

/**
 * The configuration as an evolver may propose it: every field, the tunables' keys and nothing
 * else, each within its range (the model is shown this schema).
 */
export function configurationSchemaFor(tunables: Tunables): z.ZodType<EvoConfiguration> {
  const hyperparameters = z.strictObject({
    temperature: FixedHyperparametersSchema.shape.temperature,
    numCandidates: FixedHyperparametersSchema.shape.numCandidates,
    ...Object.fromEntries(Object.entries(tunables).map(([key, t]) => [key, t.schema])),
    maxSteps: FixedHyperparametersSchema.shape.maxSteps,
  });
  return z.strictObject({ guidance: GuidanceSchema, memoryRules: MemoryRulesSchema, hyperparameters, stateAbstraction: StateAbstractionSchema }) as z.ZodType<EvoConfiguration>;
}

/** Validates an evolver's proposal against the tunables it may set; the first few issues say why it was dropped. */
export function checkConfiguration(value: unknown, tunables: Tunables): ConfigurationCheck {
  const parsed = configurationSchemaFor(tunables).safeParse(value);
  if (parsed.success) return { ok: true, configuration: parsed.data };
  const error = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : 'configuration'}: ${i.message}`)
    .join('; ');
  return { ok: false, error };
}

const QUOTED = /"[^"]*"|'[^']*'|“[^”]*”|‘[^’]*’|«[^»]*»/g;
const NUMBER = /(?<![\p{L}\p{N}])\d+(?:[.,]\d+)*(?![\p{L}\p{N}])/gu;

/**
 * The task template a configuration belongs to: the task with its explicit
 * values (quoted strings, numbers) replaced by `…`, lowercased. "Open order 12"
 * and "Open order 15" share a template; an unquoted name makes its own
 * (a configuration never leaks onto a task it was not evolved for).
 */
export function taskTemplateOf(task: string): string {
  return task.replace(QUOTED, '…').replace(NUMBER, '…').toLowerCase().replace(/\s+/g, ' ').trim();
}
