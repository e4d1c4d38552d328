/**
 * Where an answer was read, on a long page (issue 35, loose end of session
 * 11): the place was looked up in the step's page digest, which keeps 4,000
 * characters and drops text first. On a page with many links, an answer shown
 * in a paragraph below them was not in the digest, so it had no place and did
 * not carry to another instance. It is now read from the page as observed
 * when the answer was given, whole, and kept on the step (`answerFrom`).
 *
 * Mutants: JitRL reading the digest instead of `answerFrom` gives the
 * transition no place; observing the answer's page with the agent's budget
 * (12,000 characters) instead of whole leaves `answerFrom` null on a page
 * longer than that.
 */
import { describe, expect, it } from 'vitest';
import type { ObserveOptions, PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { truncateObservation } from '../../src/core/page/render-observation.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { answerAt, answerSourceIn, answerSourceOn } from '../../src/core/page/answer-source.ts';
import { buildTransitions } from '../../src/learners/jitrl/core/jitrl-learner.ts';
import { oneCandidateAgent } from '../support/one-candidate-agent.ts';

const node = (ref: string | null, role: string, name: string, inViewport: boolean): SnapshotNode => ({
  ref, kind: ref === null ? 'text' : 'interactive', role, name, states: {}, depth: 0, inViewport,
});
/** A release page: links to older notes (150: about 6,700 characters rendered), then, below the fold, the answer. */
const releasePage = (release: string, links = 150): PageObservation => ({
  url: 'https://proj.test/releases', title: 'Releases', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 4000, viewportHeight: 800 }, tookMs: 1,
  nodes: [
    ...Array.from({ length: links }, (_, i) => node(String(i + 1), 'link', `Release notes for build ${1000 + i}`, true)),
    node(null, 'text', `Latest release: ${release}`, false),
  ],
});

function controller(observation: PageObservation) {
  const page = {
    // As the page layer does: the snapshot is cut to the budget asked for.
    async observe(options: ObserveOptions): Promise<PageObservation> {
      return options.maxChars === undefined ? observation : truncateObservation(observation, { maxChars: options.maxChars, lastActedRef: options.lastActedRef ?? null });
    },
    async act() { return { ok: true as const, navigated: false }; },
  };
  return oneCandidateAgent(page);
}

const PLACE = { role: 'text', before: 'Latest release: ', after: '' };

describe('an answer below what the digest keeps', () => {
  it('is read from the whole page when it is given, and carries to another instance', async () => {
    const page = releasePage('Juniper');
    const c = controller(page);
    const ep = await c.start({ task: 'What is the latest release?', startUrl: page.url, tabId: 7 });
    const answered = await c.decide(ep.id, { kind: 'edit', action: 'send_msg_to_user("Juniper")', step: 0 });
    const step = answered.steps[0]!;
    // The digest has no room for the paragraph: the old lookup finds no place.
    expect(step.pageDigest!.length).toBeLessThanOrEqual(4000);
    expect(step.pageDigest).not.toContain('Juniper');
    expect(answerSourceIn(step.pageDigest!, 'Juniper')).toBeNull();
    expect(step.answerFrom).toEqual(PLACE);

    const closed = await c.finish(ep.id, 'success');
    const [transition] = buildTransitions({ episode: closed, rewards: [1] }, { now: 0, rejectReward: -1 });
    expect(transition!.answerFrom).toEqual(PLACE);
    // Another instance's page, as the agent observes it (its 12,000-character budget keeps this one whole), answers from the same place.
    const seen = truncateObservation(releasePage('Kestrel'), { maxChars: DEFAULT_SETTINGS.agent.observationChars });
    expect(answerAt(PLACE, seen)).toBe('Kestrel');
    // A record from before answerFrom reads the digest, as it did: here, no place.
    const { answerFrom: _none, ...older } = closed.steps[0]!;
    expect(buildTransitions({ episode: { ...closed, steps: [older] }, rewards: [1] }, { now: 0, rejectReward: -1 })[0]!.answerFrom).toBeUndefined();
  });

  it('the answer\'s page is read whole, also past the agent\'s own budget', async () => {
    const page = releasePage('Juniper', 300); // about 13,000 characters of links
    const c = controller(page);
    const ep = await c.start({ task: 'What is the latest release?', startUrl: page.url, tabId: 7 });
    const answered = await c.decide(ep.id, { kind: 'edit', action: 'send_msg_to_user("Juniper")', step: 0 });
    expect(answered.steps[0]!.answerFrom).toEqual(PLACE);
  });

  it('a place shown twice in two shapes is no place', () => {
    const page = releasePage('Juniper');
    expect(answerSourceOn({ nodes: [...page.nodes, node('999', 'link', 'Download Juniper', false)] }, 'Juniper')).toBeNull();
    expect(answerSourceOn(page, 'Juniper')).toEqual(PLACE);
  });
});
