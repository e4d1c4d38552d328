/**
 * The record of an episode and of every step in it. The UI, the export and the
 * benchmark all read these; the checkpoint is the same record, so an episode
 * resumes exactly after the service worker is killed.
 */
import * as z from 'zod';
import { ActionResultSchema } from '../page/action.ts';
import { TargetFingerprintSchema, type TargetFingerprint } from '../page/target-fingerprint.ts';
import { AnswerSourceSchema } from '../page/answer-source.ts';

export const LogitSourceSchema = z.enum(['logprobs', 'verbalized', 'offline', 'simulated', 'memory']);
export type LogitSource = z.infer<typeof LogitSourceSchema>;

/** Why a candidate is never proposed while an unbarred one exists: the person rejected it here, a failure's credit blamed it here, or it leads round a loop. */
export const BarredSchema = z.enum(['rejected', 'failed', 'loop']);
export type Barred = z.infer<typeof BarredSchema>;

/**
 * One candidate at one step, as stored and shown: base versus adjusted, and
 * each learner's evidence about it (the in-memory value is `Candidate`,
 * src/core/learning/candidate.ts).
 */
export const CandidateRecordSchema = z.strictObject({
  /** Action in ref form for the current page: `click([12])`. */
  action: z.string(),
  /** The same action in semantic form: `click(<button "Sign in">)`. */
  semantic: z.string(),
  /** 'model' = proposed by the policy; 'memory' = added by a learner from what it remembered, below every model logit. */
  origin: z.enum(['model', 'memory']),
  /** A memory-only action that resolved loosely: the remembered semantic action (`semantic` is the element it acts on). */
  remembered: z.string().optional(),
  /** Never proposed in this state while an unbarred candidate exists. */
  barred: BarredSchema.optional(),
  /** This very state's memory says this action led to success: proposed outright, not sampled (exploitation). */
  settled: z.boolean().optional(),
  rationale: z.string().optional(),
  /** The element the action targets, as the page showed it when proposed (what an approval is about). */
  target: TargetFingerprintSchema.optional(),
  baseLogit: z.number(),
  adjustedLogit: z.number(),
  baseProb: z.number(),
  adjustedProb: z.number(),
  /**
   * Each learner's evidence about this candidate, by learner id; each value is
   * validated by that learner's `candidateEvidenceSchema` where it is read.
   */
  evidence: z.record(z.string(), z.unknown()).optional(),
});
export type CandidateRecord = z.infer<typeof CandidateRecordSchema>;

/** 'demonstrated': the person did the action themselves while Apprentice recorded (a demonstration). */
export const DecisionSchema = z.enum(['approved', 'auto', 'picked', 'edited', 'rejected', 'demonstrated']);
export type Decision = z.infer<typeof DecisionSchema>;

/**
 * How the person corrected a proposal: picked another candidate, edited the
 * action in the panel, or showed it in the page (Show me). All three are
 * corrections; the kind says which one the step was.
 */
export const CorrectionKindSchema = z.enum(['pick', 'edit', 'show']);
export type CorrectionKind = z.infer<typeof CorrectionKindSchema>;

/** The person teaching in the page: one step (Show me) or several until Continue (Take over). */
export const TeachingSchema = z.strictObject({
  mode: z.enum(['show', 'takeover']),
  since: z.number(),
});
export type Teaching = z.infer<typeof TeachingSchema>;

export const StepRecordSchema = z.strictObject({
  index: z.number().int().nonnegative(),
  url: z.string(),
  regUrl: z.string(),
  /** The page title when the step was recorded; names the page in what learners distil. */
  pageTitle: z.string().optional(),
  /**
   * What the page showed: the rendered snapshot, secrets masked, capped at
   * PAGE_DIGEST_CHARS (secrets/page-digest.ts). Absent on records older than it.
   */
  pageDigest: z.string().optional(),
  effectiveState: z.array(z.string()),
  /**
   * What the page showed open when the step was proposed: dialogs and expanded
   * controls (`page-marks.ts`). The first step on a page is the baseline its
   * later steps' progress is counted from. Absent on records older than it.
   */
  pageMarks: z.array(z.string().max(2000)).max(40).optional(),
  /** `pageKeyOf` the page when the step was proposed: step credit and loops compare these. */
  pageKey: z.string().optional(),
  logitSource: LogitSourceSchema,
  candidates: z.array(CandidateRecordSchema),
  /** Ids of replayed experience that were in the prompt. */
  replayed: z.array(z.string()),
  /** Learning is best-effort: what failed, if anything. */
  learningNotes: z.array(z.string()),
  /** How the proposal (the first candidate) was chosen: sampled from Softmax(z′/T), argmax, or exploited from memory. */
  selection: z.strictObject({
    how: z.enum(['sampled', 'argmax', 'exploited']),
    /** Its probability under the rule that chose it (1 for argmax and exploitation). */
    probability: z.number().min(0).max(1),
    temperature: z.number().min(0),
  }).optional(),
  /** Back at a page state seen before this step without progress (A → B → A): shown to the person. */
  loop: z.strictObject({
    /** Step index of the earlier visit. */
    since: z.number().int().nonnegative(),
    length: z.number().int().positive(),
    repeated: z.array(z.string()),
  }).optional(),
  /**
   * Each adjusting learner's evidence for this step, by learner id; each value
   * is validated by that learner's `evidenceSchema` (its registry entry) where
   * it is read. Absent when no learner gave evidence.
   */
  evidence: z.record(z.string(), z.unknown()).optional(),
  /** The action that ran, in both forms; null while awaiting a decision. */
  chosen: z.strictObject({
    action: z.string(),
    semantic: z.string(),
    decision: DecisionSchema,
    /** Set when the person corrected the proposal: which kind of correction this step was. */
    correction: CorrectionKindSchema.optional(),
    /**
     * The person pressed "Task is done" while this step's proposal waited: the step is the
     * finishing action they gave with their verdict, not a correction of the proposal.
     */
    done: z.literal(true).optional(),
    /**
     * Idempotency id, saved just before the action starts. After a worker
     * restart, an approved step with an id but no result may have run: it is
     * returned to the person as "outcome unknown", never run again.
     */
    actionId: z.string().optional(),
    /** The element as the person approved it (role, name, link, form, submits): what earned autonomy compares. */
    target: TargetFingerprintSchema.optional(),
  }).nullable(),
  /** Why the step ran without asking, or why it asked (the autonomy gate's words, shown in the panel). */
  autonomy: z.strictObject({ ran: z.boolean(), reason: z.string() }).optional(),
  /**
   * A step the person did while they had taken over the page. `learn: false`
   * (they marked it "don't learn from this"): kept in the history, but no
   * learner ever receives it.
   */
  takeOver: z.strictObject({ learn: z.boolean() }).optional(),
  /** Rejected proposals at this step (semantic form): each is stored with a negative reward. */
  rejected: z.array(z.string()),
  result: ActionResultSchema.nullable(),
  /** Per-step reward once known, and its source. */
  reward: z.number().nullable(),
  decisionLatencyMs: z.number().nonnegative(),
  modelCalls: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  startedAt: z.number(),
  /** The step came from a learned procedure, not the policy (issue 25): which one, and which of its steps. */
  replayStep: z.strictObject({ procedureId: z.string(), step: z.number().int().nonnegative(), of: z.number().int().positive() }).optional(),
  /**
   * An answer step: where the page showed the answer (page/answer-source.ts), read from the whole page as it was
   * observed when the answer was given, secrets masked; null when no one place shows it. Absent on other steps and
   * on records older than it (their place is read from `pageDigest`, which keeps only its first 4,000 characters).
   */
  answerFrom: AnswerSourceSchema.nullable().optional(),
});
export type StepRecord = z.infer<typeof StepRecordSchema>;

/**
 * A replay's plan and where it stands (src/core/replay). `offered`: shown
 * to the person, waiting for plan approval; `approved`: its steps are
 * proposed without a policy call; `declined`; `fell_back`: a precondition
 * failed at `fallback.step` and the policy took over; `finished`: every step
 * ran; `refused`: a procedure fitted the task but could not run (`message`).
 */
export const EpisodeReplaySchema = z.strictObject({
  procedureId: z.string(),
  template: z.string(),
  values: z.record(z.string(), z.string()),
  /** The procedure's steps with {variables}, and the same with the values in place. */
  abstractSteps: z.array(z.strictObject({ regUrl: z.string(), action: z.string(), effect: TargetFingerprintSchema.optional() })),
  /** `effect`: what the step does (its element's link, form and data), the values in place (replay/step-effect.ts). */
  steps: z.array(z.strictObject({ regUrl: z.string(), action: z.string(), effect: TargetFingerprintSchema.optional() })),
  origins: z.array(z.string()),
  endsWithAnswer: z.boolean(),
  status: z.enum(['offered', 'approved', 'declined', 'fell_back', 'finished', 'refused']),
  fallback: z.strictObject({ step: z.number().int().nonnegative(), reason: z.string() }).nullable(),
  message: z.string().nullable(),
  /** Tokens one model-driven step cost on this site lately (prompt + completion); null when none was seen. */
  tokensPerModelStep: z.number().nonnegative().nullable(),
});
export type EpisodeReplay = z.infer<typeof EpisodeReplaySchema>;

/** How an attempt went, in the person's (or the task reward's) words. */
export const VerdictSchema = z.enum(['success', 'failure', 'partial']);
export type Verdict = z.infer<typeof VerdictSchema>;

/** The statuses an episode ends in: a verdict, stopped by the person, or an error. */
export const FINISHED_STATUSES = [...VerdictSchema.options, 'stopped', 'error'] as const;
export type FinishedStatus = (typeof FINISHED_STATUSES)[number];

export const EpisodeStatusSchema = z.enum(['running', 'paused', 'awaiting_approval', 'awaiting_verdict', ...FINISHED_STATUSES]);
export type EpisodeStatus = z.infer<typeof EpisodeStatusSchema>;

export const EpisodeSchema = z.strictObject({
  id: z.string(),
  origin: z.string(),
  task: z.string(),
  startUrl: z.string(),
  tabId: z.number().int().nullable(),
  status: EpisodeStatusSchema,
  steps: z.array(StepRecordSchema),
  /** The answer when the task asked a question (send_msg_to_user text). */
  answer: z.string().nullable(),
  error: z.string().nullable(),
  learners: z.array(z.string()),
  /**
   * Each learner's plan for this episode (what its `beginEpisode` returned),
   * by learner id: the checkpoint a restarted worker resumes with.
   */
  plans: z.record(z.string(), z.unknown()).optional(),
  /** 1-based attempt number of this task on this origin. */
  attempt: z.number().int().positive(),
  /** 'live' (the person drove it), 'demonstration' (recorded), 'imported', 'bench'. */
  kind: z.enum(['live', 'demonstration', 'imported', 'bench']),
  /** A learned procedure replayed (or offered) in this episode. */
  replay: EpisodeReplaySchema.optional(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Set while the person teaches in the page (Show me, Take over); the checkpoint survives a worker restart. */
  teaching: TeachingSchema.optional(),
});
export type Episode = z.infer<typeof EpisodeSchema>;

/**
 * A step that ran an action no policy proposed (a recorded demonstration, an
 * imported trajectory): no candidates, no values, just what was done and how
 * it went.
 */
export function recordedStepRecord(input: {
  index: number;
  url: string;
  regUrl: string;
  semantic: string;
  decision: Decision;
  result: StepRecord['result'];
  startedAt: number;
  pageTitle?: string;
  latencyMs?: number;
  /** The element as the person acted on it (a demonstration or Show me): what the teaching was about. */
  target?: TargetFingerprint | undefined;
  /** What the page showed open when the person acted (`pageMarks`). */
  pageMarks?: string[] | undefined;
  /** The page before the action, as a proposed step keeps it (`pageDigest`, `pageKeyOf`), when it was observed. */
  pageDigest?: string | undefined;
  pageKey?: string | undefined;
}): StepRecord {
  return {
    index: input.index,
    url: input.url,
    regUrl: input.regUrl,
    ...(input.pageTitle ? { pageTitle: input.pageTitle } : {}),
    ...(input.pageDigest !== undefined ? { pageDigest: input.pageDigest } : {}),
    effectiveState: [],
    ...(input.pageMarks !== undefined ? { pageMarks: input.pageMarks } : {}),
    ...(input.pageKey !== undefined ? { pageKey: input.pageKey } : {}),
    // No policy ranked anything here; the field needs a value, and no model was involved.
    logitSource: 'offline',
    candidates: [],
    replayed: [],
    learningNotes: [],
    chosen: { action: input.semantic, semantic: input.semantic, decision: input.decision, ...(input.target ? { target: input.target } : {}) },
    rejected: [],
    result: input.result,
    reward: null,
    decisionLatencyMs: Math.max(0, input.latencyMs ?? 0),
    modelCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    startedAt: input.startedAt,
  };
}
