/**
 * EvoTest's memory interaction logic at decision time (the tool-usage part u
 * of χ): hinted actions gain `instructionBonus` when hints are instructions,
 * actions matching a failure pattern lose `avoidPenalty`. The policy already
 * saw the hints in the prompt; this is the "hard instruction" upgrade the
 * paper describes, in logit form so later learners and the person see its effect.
 */
import type { MemoryRules } from './configuration.ts';
import type { MemoryHints } from './experience-memory.ts';

export interface HintShift {
  /** Added to the candidate's logit (0 when no hint applies). */
  shift: number;
  /** 'hinted' | 'avoided' | null */
  reason: 'hinted' | 'avoided' | null;
}

export function hintShift(semantic: string, hints: MemoryHints, rules: MemoryRules): HintShift {
  if (rules.hintPhrasing === 'instruction' && hints.suggested.includes(semantic)) return { shift: rules.instructionBonus, reason: 'hinted' };
  if (hints.avoid.some((f) => f.action === semantic)) return { shift: -rules.avoidPenalty, reason: 'avoided' };
  return { shift: 0, reason: null };
}
