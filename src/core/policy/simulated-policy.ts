/**
 * The benchmark's simulated base policy: the offline policy's candidates with
 * seeded Gaussian noise on their logits, re-ranked. An honest, noisy base —
 * it sees only the page and the task — so learners can be compared without a
 * model, and the same seed gives the same run.
 */
import type { RandomSource } from '../ports.ts';
import type { CandidatePolicy, PolicyInput, PolicyProposal } from './policy.ts';

export interface SimulatedPolicyOptions {
  base: CandidatePolicy;
  random: RandomSource;
  /** Standard deviation of the noise added to each logit, in nats. */
  noise: number;
  /** How many candidates to ask the base for before re-ranking (default 3 × asked, at least 8). */
  pool?: number;
}

/** A standard normal draw (Box–Muller) from a uniform source. */
export function gaussian(random: RandomSource): number {
  // 1 − u keeps the log argument in (0, 1].
  const u = 1 - random.next();
  const v = random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function createSimulatedPolicy(options: SimulatedPolicyOptions): CandidatePolicy {
  return {
    id: 'simulated',
    async propose(input: PolicyInput, signal?: AbortSignal): Promise<PolicyProposal> {
      const pool = options.pool ?? Math.max(8, input.numCandidates * 3);
      const base = await options.base.propose({ ...input, numCandidates: pool }, signal);
      const noisy = base.candidates.map((c, i) => ({ c, i, logit: c.logit + options.noise * gaussian(options.random) }));
      // Ties keep the base order, so the ranking is a function of the seed alone.
      noisy.sort((a, b) => b.logit - a.logit || a.i - b.i);
      return {
        candidates: noisy.slice(0, input.numCandidates).map(({ c, logit }) => ({ ...c, logit })),
        logitSource: 'simulated',
        usage: base.usage,
        notes: [...base.notes, `Simulated policy: base "${options.base.id}" logits plus Gaussian noise (σ = ${options.noise}).`],
      };
    },
  };
}
