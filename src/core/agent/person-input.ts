/**
 * What the person sends the agent, declared once: a decision on the pending
 * step, an action recorded in the page, and how a demonstration ended. The
 * protocol validates messages with these schemas and the controller takes
 * what they parse, unchanged (test/unit/person-input.test.ts).
 */
import * as z from 'zod';
import { TargetFingerprintSchema } from '../page/target-fingerprint.ts';
import { PageObservationSchema } from '../page/observation.ts';
import { VerdictSchema } from '../episode/episode.ts';

/** One action the person did in the page, as the content script reports it. */
export const RecordedActionSchema = z.strictObject({
  /** Semantic form: `click(<button "Sign up">)`. */
  action: z.string().min(1).max(4000),
  url: z.string().min(1).max(8000),
  title: z.string().max(2000),
  /**
   * The element acted on, as the content script's snapshot showed it (role,
   * name, link, form, submit behaviour): with it a taught step counts toward
   * earned autonomy like an approval.
   */
  target: TargetFingerprintSchema.optional(),
  /** What the page showed open when the person acted (dialogs, expanded controls: `pageMarks`). */
  marks: z.array(z.string().max(2000)).max(40).optional(),
  /**
   * The page just before the person acted (before a click's handlers ran, a
   * box toggled, an option changed, or the first character of a fill): what a
   * proposal at that moment would have observed. The step's digest, page key
   * and effective state are read from it; it is not stored.
   */
  before: PageObservationSchema.optional(),
});
export type RecordedAction = z.infer<typeof RecordedActionSchema>;

/** A demonstration ends with a verdict, or abandoned ('abandoned' is stored as partial, never as a success). */
export const DemonstrationOutcomeSchema = z.enum([...VerdictSchema.options, 'abandoned']);
export type DemonstrationOutcome = z.infer<typeof DemonstrationOutcomeSchema>;

const StepIndex = z.number().int().nonnegative();
/** A candidate's semantic form: unique within a step, so it is the candidate's id. */
const CandidateId = z.string().min(1).max(8000);

/**
 * The four decisions on a proposal, with the step and candidate they answer
 * either required (`named`) or optional. One builder, so the panel's form and
 * the controller's form cannot drift apart.
 */
function decisionKinds<S extends z.ZodType<number | undefined>, C extends z.ZodType<string | undefined>>(step: S, candidate: C) {
  return [
    /** Run the top-ranked candidate. */
    z.strictObject({ kind: z.literal('approve'), step, candidate }),
    /** Run another candidate, by its index in the step's candidate list. */
    z.strictObject({ kind: z.literal('pick'), index: StepIndex, step, candidate }),
    /**
     * Run an edited action (ref or semantic form); parsed and validated before it runs.
     * `done`: the person pressed "Task is done" (the action is then `send_msg_to_user`): the
     * step is their verdict, stored without a correction (issue 31: History counts no correction).
     */
    z.strictObject({ kind: z.literal('edit'), action: z.string().min(1), step, done: z.literal(true).optional() }),
    /** Reject the candidate at `index` (default: the top one): stored as a negative reward, then re-propose. */
    z.strictObject({ kind: z.literal('reject'), index: StepIndex.optional(), step, candidate }),
  ] as const;
}

/**
 * A decision from the panel names the step it answers and the candidate it
 * approves: the background refuses one whose step or candidate is not the one
 * pending, so a stale panel, a double click or a re-proposal in between can
 * never run something else.
 */
export const PanelDecisionSchema = z.discriminatedUnion('kind', decisionKinds(StepIndex, CandidateId));
export type PanelDecision = z.infer<typeof PanelDecisionSchema>;

/**
 * Show me: the person did the step in the page while it was recorded. It
 * already ran; `action` is its semantic form, `url` the page it was done on,
 * `navigated` whether the page then moved on.
 */
export const ShownDecisionSchema = z.strictObject({
  kind: z.literal('show'),
  ...RecordedActionSchema.shape,
  navigated: z.boolean().optional(),
});

/**
 * Every decision the controller takes: the panel's (a mismatch with the
 * pending step is refused), the same without names from the core's own
 * callers (auto-approve, the benchmark's decider), and a shown step.
 */
export const DecisionInputSchema = z.discriminatedUnion('kind', [...decisionKinds(StepIndex.optional(), CandidateId.optional()), ShownDecisionSchema]);
export type DecisionInput = z.infer<typeof DecisionInputSchema>;
