/**
 * JitRL's settings, stored under `settings.learners.jitrl` and read through
 * its definition. Defaults are the paper's WebArena values (Table 8); where
 * the authors' public code differs the alternative is a setting (see
 * docs/learning.md, the deviations tables). Each `.describe()` (or `.meta`
 * description) text is the label the options page shows, in plain words; the
 * symbol and equation go in `.meta({ help })`, said under the field.
 */
import * as z from 'zod';

export const JitrlSettingsSchema = z.strictObject({
  enabled: z.boolean().describe('Use JitRL'),
  /** γ, discount for G_t (Eq. 3). Paper web: 0.1. */
  gamma: z.number().min(0).max(1).meta({ description: 'Discount of later rewards', help: 'γ in the return G_t (Eq. 3)' }),
  /** k, neighbours kept after ranking. Paper: 10. (The authors' code comments the cut out.) */
  k: z.number().int().positive().meta({ description: 'Neighbours kept', help: 'k, after ranking by similarity' }),
  /** Apply the top-k cut at all (paper: yes; authors' code: no). */
  useTopK: z.boolean().describe('Apply the top-k cut'),
  /** r, similarity threshold. Paper web: 0.8. */
  threshold: z.number().min(0).max(1).meta({ description: 'Similarity threshold', help: 'r: neighbours less similar than this are not used' }),
  /** Authors' code lowers r linearly with the step number down to this floor (0.7). Equal to `threshold` = off. */
  thresholdFloor: z.number().min(0).max(1).describe('Threshold floor (decays to this)'),
  /** Steps over which r decays to its floor. */
  thresholdDecaySteps: z.number().int().positive().describe('Steps for the threshold decay'),
  /** Neighbours must have task Jaccard > this floor. Paper: 0.27. */
  taskFloor: z.number().min(0).max(1).describe('Minimum task similarity'),
  /** w_h, weight of effective-state Jaccard. Paper: 0.7. */
  stateWeight: z.number().min(0).max(1).meta({ description: 'Weight of page-state similarity', help: 'w_h' }),
  /** w_t, weight of task Jaccard. Paper: 0.3. */
  taskWeight: z.number().min(0).max(1).meta({ description: 'Weight of task similarity', help: 'w_t' }),
  /** λ, probability of the optimistic branch for unseen actions (Eq. 6). Paper web: 0.05. */
  lambda: z.number().min(0).max(1).meta({ description: 'Chance of trying an action never seen here', help: 'λ, the optimistic branch (Eq. 6)' }),
  /** α, optimism bonus numerator (Eq. 6). Paper: 5 on rewards of ±3 (5/3 on our ±1, the default); authors' web code: 1. */
  alpha: z.number().min(0).meta({ description: 'Bonus for an action never seen here', help: 'α in Q = V + α/|N(s)| (Eq. 6)' }),
  /** β, strength of the logit update z' = z + β·Ã (Eq. 10). */
  beta: z.number().min(0).meta({ description: 'How strongly memory moves the model\'s choice', help: 'β in z′ = z + β·Ã (Eq. 10)' }),
  /**
   * Our addition: when some neighbours were taken on this very URL (the same
   * instance of the page type), use only those; otherwise the page type's.
   * Like n-gram backoff: the most specific evidence wins when it exists, and
   * the regularized URL still transfers to instances never seen.
   */
  preferSameUrl: z.boolean().describe('Prefer neighbours from this exact URL (instance backoff)'),
  /** Eq. 25 divides by max|A| + ε; the authors' code divides by the largest positive A. */
  normalization: z.enum(['max-abs', 'max-positive']).meta({ description: 'How advantages are scaled', help: 'max-abs divides by the largest |A| (Eq. 25); max-positive by the largest positive A (the authors\' code)' }),
  /** Our addition: the normalization divisor is at least this (one unit of reward), so tiny advantages stay tiny. 0 = Eq. 25. */
  advantageFloor: z.number().min(0).meta({ description: 'Smallest scaling divisor', help: '0 = Eq. 25 exactly' }),
  // Our additions beyond Algorithm 1, each with a switch so the paper's JitRL
  // can be measured alone (`npm run bench -- --ablate`, docs/learning-ablation.md).
  /** Our addition: a candidate rejected here, or blamed for a failure here (this very state), is not proposed while another exists. */
  bars: z.boolean().describe('Never propose what was rejected or blamed in this very state (our addition)'),
  /** Our addition: a candidate whose returns in this very state average at least half a success is proposed outright, not sampled. */
  exploitSettled: z.boolean().describe('Repeat outright what worked in this very state (our addition)'),
  /** Our addition: the model is asked for one more candidate per action barred in this state. */
  widenPool: z.boolean().describe('Ask for one more candidate per barred action (our addition)'),
  /** Our addition: actions that led round a loop in this episode are barred where the loop closed. */
  loopBars: z.boolean().describe('Bar the actions that led round a loop (our addition)'),
  /**
   * Our addition (issue 22): what the person taught counts as such — a correction
   * is proposed first in its state, and person-taught rows reach other instances
   * of the task's template with their values (docs/corrections.md).
   */
  learnCorrections: z.boolean().describe('Propose a correction first where it was taught, and carry what you taught to other instances of a task (our addition)'),
});
export type JitrlSettings = z.infer<typeof JitrlSettingsSchema>;

export const DEFAULT_JITRL: JitrlSettings = {
  enabled: true,
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
  bars: true,
  exploitSettled: true,
  learnCorrections: true,
  widenPool: true,
  loopBars: true,
};
