/**
 * Training-Free GRPO through the agent controller, as the registry builds it:
 * a mixed group of attempts changes the library, the next attempt's prompt
 * carries the new experience (numbered, with its hint's actions for the
 * offline policy), and the step records which experiences were shown.
 */
import { describe, expect, it } from 'vitest';
import { AgentController } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import type { LearnerPorts } from '../../src/core/learning/learner-definition.ts';
import { buildLearners, enabledLearners } from '../../src/core/learning/registry/registry-factories.ts';
import { TfgrpoEvidenceSchema } from '../../src/learners/tfgrpo/core/evidence.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { CandidatePolicy, PolicyInput } from '../../src/core/policy/policy.ts';
import { seededRandom } from '../../src/core/random.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

const node = (ref: string, role: string, name: string): SnapshotNode => ({ ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true });
const PRODUCT: PageObservation = {
  url: 'https://shop.test/product/7', title: 'Red teapot', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
  scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
  nodes: [node('1', 'spinbutton', 'Quantity'), node('2', 'button', 'Add to cart'), node('3', 'link', 'Reviews')],
};

/** Proposes the three actions of the page with fixed logits; records what it was asked. */
function fixedPolicy(calls: PolicyInput[]): CandidatePolicy {
  return {
    id: 'fixed',
    async propose(input) {
      calls.push(input);
      const candidates = [['click([3])', 1], ['fill([1], "2")', 0.5], ['click([2])', 0.2]].map(([t, z]) => {
        const parsed = parseAction(t as string);
        if (!parsed.ok) throw parsed.error;
        return { action: parsed.action, logit: z as number };
      });
      return { candidates, logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}

describe('Training-Free GRPO in the agent loop', () => {
  it('learns from a mixed group and puts the experience in the next prompt, recorded per step', async () => {
    // The proposal is the argmax: the decisions below script the top candidate's path (the default).
    const settings = { ...DEFAULT_SETTINGS, learners: { jitrl: { enabled: false }, cer: { enabled: false } }, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' as const } };
    const calls: PolicyInput[] = [];
    let t = 0;
    let n = 0;
    const ports: LearnerPorts = {
      stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }),
      settings: () => settings, model: () => null, clock: { now: () => (t += 10) }, random: seededRandom(1),
    };
    const built = buildLearners(ports);
    const controller = new AgentController({
      episodes: new InMemoryEpisodeStore(),
      pageFor: () => ({ observe: async () => PRODUCT, act: async () => ({ ok: true, navigated: false }) }),
      policy: () => fixedPolicy(calls),
      learners: () => enabledLearners(built, settings),
      evaluator: () => null,
      settings: () => settings,
      clock: ports.clock,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
      newId: () => `ep-${++n}`,
    });
    const task = 'Add 2 of the "teapot" to the cart';
    /** Runs the candidate whose semantic form is `wanted`, then gives the verdict. */
    const run = async (wanted: string, verdict: 'success' | 'failure') => {
      let ep = await controller.start({ task, startUrl: PRODUCT.url, tabId: 1 });
      const index = ep.steps.at(-1)!.candidates.findIndex((c) => c.semantic === wanted);
      expect(index).toBeGreaterThanOrEqual(0);
      ep = await controller.decide(ep.id, { kind: 'pick', index });
      return controller.finish(ep.id, verdict);
    };

    const first = await run('click(<link "Reviews">)', 'failure');
    expect(first.learners).toEqual(['tfgrpo']);
    expect(TfgrpoEvidenceSchema.parse(first.steps[0]!.evidence?.tfgrpo)).toEqual({ experiences: [] });
    const second = await run('fill(<spinbutton "Quantity">, "2")', 'success');
    expect(second.steps.at(-1)!.learningNotes).toContain('tfgrpo: group of 2 attempts (mixed): experiences 1 added by page-type contrasts (no model)');

    const third = await controller.start({ task, startUrl: PRODUCT.url, tabId: 1 });
    const text = 'On the page "Red teapot": the successful attempts did fill(<spinbutton "Quantity">, "{quantity}") where the failed ones did click(<link "Reviews">).';
    expect(calls.at(-1)!.sections).toEqual([expect.objectContaining({
      title: 'Experience 1', text,
      suggestedActions: ['fill(<spinbutton "Quantity">, "2")'],
      discouragedActions: ['click(<link "Reviews">)'],
    })]);
    const shown = TfgrpoEvidenceSchema.parse(third.steps[0]!.evidence?.tfgrpo);
    expect(shown.experiences).toEqual([{ number: 1, id: calls.at(-1)!.sections[0]!.id, text }]);
    expect(third.steps[0]!.replayed).toEqual([shown.experiences[0]!.id]);
    // The pass-through adjust changes no logit.
    expect(third.steps[0]!.candidates.map((c) => c.adjustedLogit - c.baseLogit)).toEqual([0, 0, 0]);
  });
});
