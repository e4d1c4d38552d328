/**
 * Whether two URLs are the same page: a fragment ("#comments") moves within a
 * page, it does not change it. One definition for the agent, the learners and
 * the offline policy.
 */

/** The URL without its fragment. */
export const withoutFragment = (url: string): string => url.split('#')[0] ?? url;

/** True when the two URLs differ at most in their fragment. */
export const samePage = (a: string, b: string): boolean => withoutFragment(a) === withoutFragment(b);
