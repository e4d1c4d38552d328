/**
 * Seeded randomness for everything that must be reproducible: the λ branch of
 * a learner's sampling, the simulated policy's noise, benchmark seeds.
 */
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomSource } from './ports.ts';

export function seededRandom(seed: number): RandomSource {
  const rng = xoroshiro128plus(seed | 0);
  // Small seeds give correlated first outputs (seed 1 → 0.99999998…): warm up.
  for (let i = 0; i < 16; i++) rng.next();
  return { next: () => uniformFloat64(rng) };
}
