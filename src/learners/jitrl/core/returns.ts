/** Discounted returns, JitRL Eq. 3: G_t = Σ_{u≥t} γ^{u−t} r_u. */
import type { Transition } from './transition.ts';

/** G_t for every t of an episode's rewards. */
export function discountedReturns(rewards: readonly number[], gamma: number): number[] {
  const returns = new Array<number>(rewards.length);
  let next = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    next = (rewards[t] ?? 0) + gamma * next;
    returns[t] = next;
  }
  return returns;
}

/** G of a stored transition, recomputed from r_t … r_T with the current γ (so γ can change without a migration). */
export function returnOf(transition: Pick<Transition, 'futureRewards'>, gamma: number): number {
  let g = 0;
  const rewards = transition.futureRewards;
  for (let u = rewards.length - 1; u >= 0; u--) g = (rewards[u] ?? 0) + gamma * g;
  return g;
}
