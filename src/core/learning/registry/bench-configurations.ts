/**
 * The benchmark's default learner configurations (registry ids joined by "+"): the one place
 * outside the learner folders that names learners, as data (check-learner-ids.mjs lets this
 * file alone). registry.ts drops any configuration whose learner folder is gone.
 * TODO [2027-01-15]: let each definition declare the configurations it belongs to.
 */
export const PREFERRED_BENCH_CONFIGURATIONS = {
  default: ['static', 'jitrl', 'cer', 'jitrl+cer', 'metattl', 'jitrl+metattl'],
  showcase: 'jitrl+cer',
  // bench:trust part (a), the hijacked model through the built extension: the learners on
  // there (every other one off) — the set its published figures were measured with.
  hijack: 'tfgrpo',
} as const;
