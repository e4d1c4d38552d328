/**
 * A sign-in page, a long listing page and candidate answers for tests of the
 * model path (policy, adapters, provider conformance).
 */
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { renderObservation } from '../../src/core/page/render-observation.ts';
import type { PolicyInput } from '../../src/core/policy/policy.ts';

export const node = (ref: string | null, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref,
  kind: ref === null ? 'heading' : 'interactive',
  role,
  name,
  states: {},
  depth: 1,
  inViewport: true,
  ...extra,
});

export const loginPage: PageObservation = {
  url: 'http://127.0.0.1:9/login',
  title: 'Sign in',
  nodes: [
    node(null, 'heading', 'Sign in', { level: 1 }),
    node('1', 'textbox', 'Email', { inputType: 'email' }),
    node('2', 'textbox', 'Password', { inputType: 'password' }),
    node('3', 'button', 'Sign in'),
    node('4', 'link', 'Forgot password?'),
  ],
  focusedRef: null,
  offscreen: { above: 0, below: 0 },
  omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 },
  tookMs: 1,
};

/** The sign-in form followed by `extraLinks` article links: a page too long for small context windows. */
export function longPage(extraLinks: number): PageObservation {
  const links = Array.from({ length: extraLinks }, (_, i) =>
    node(String(10 + i), 'link', `Archived article number ${i + 1} about quarterly results and regional news`, { inViewport: i < 20 }),
  );
  return { ...loginPage, nodes: [...loginPage.nodes, ...links] };
}

export const policyInput = (numCandidates = 3, observation: PageObservation = loginPage): PolicyInput => ({
  task: 'Sign in as ada@example.com',
  observation,
  renderedObservation: renderObservation(observation),
  history: [],
  sections: [{ id: 'skill:login', title: 'Logging in', text: 'Fill the email, then the password, then press Sign in.' }],
  numCandidates,
  temperature: 0.8,
});

export const candidateAnswer = (options: [string, number][], best = 1, pretty = false) =>
  JSON.stringify(
    {
      thinking: 'The form is empty.',
      candidates: options.map(([action, confidence], i) => ({ option: i + 1, action, confidence, why: `reason ${i + 1}` })),
      best,
    },
    null,
    pretty ? 2 : undefined,
  );

export const THREE: [string, number][] = [
  ['fill([1], "ada@example.com")', 60],
  ['click([3])', 30],
  ['click([4])', 10],
];
