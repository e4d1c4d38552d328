/**
 * Every path a secret could leave by, over generated secret shapes: a
 * password, a card number (spaces, dashes or none), a one-time code and an API
 * key, each placed in the task ("password: X"), in a field's value on the page,
 * or typed by the model into its field. One live episode runs through the real
 * controller, the LLM policy (a model that records its prompts), the registry's
 * learners (spied on: every argument they get) and a finish; then the memory
 * export and the team documents are built. None of them holds the secret, and
 * the action still types the real value where it belongs. A row an older
 * version stored unmasked is planted too: export and sync mask it on their own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { inMemoryImportWriter } from '../../src/core/learning/in-memory/in-memory-import.ts';
import { ownStoresOf, type LearnerPorts } from '../../src/core/learning/learner-definition.ts';
import type { Learner } from '../../src/core/learning/learner.ts';
import { exportMemory } from '../../src/core/learning/memory-transfer.ts';
import { buildLearners, enabledLearners, learnerMemories } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { createLlmPolicy } from '../../src/core/policy/llm-policy.ts';
import { silentLogger, type ChatModel, type ChatRequest, type PageDriver } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import type { SecretKind } from '../../src/core/secrets/secret-kinds.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { shareItems } from '../../src/core/sync/share-items.ts';
import { candidateAnswer } from '../support/llm-fixtures.ts';
import { transition } from '../support/team-fixtures.ts';
import { TRANSITIONS } from '../../src/learners/jitrl/core/stores.ts';
import { EXPERIENCES } from '../../src/learners/cer/core/stores.ts';
import { testLearnerStores } from '../support/learner-stores.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../../src/core/learning/stored-step-upgrade.ts';

const ORIGIN = 'https://vault.test';

/** One secret as a person would write it, the field it belongs in, and the task that names it. */
interface Shape {
  kind: SecretKind;
  /** As written (a card number with its separators). */
  written: string;
  /** Forms that must never appear (a card's digits without separators too). */
  forbidden: string[];
  field: Partial<SnapshotNode> & { name: string };
  task: string;
}

const luhnDigit = (body: string): string => {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
};

const password = fc.stringMatching(/^[A-Za-z0-9#%&*+_-]{8,16}$/).filter((s) => /\d/.test(s) && /[A-Za-z]/.test(s)).chain((v) =>
  fc.constantFrom(`Sign in with password ${v} and continue`, `Sign in, password: "${v}", then continue`).map((task): Shape => ({
    kind: 'password', written: v, forbidden: [v], field: { name: 'Password', inputType: 'password' }, task,
  })));
const card = fc.tuple(fc.stringMatching(/^[0-9]{14}$/), fc.constantFrom(' ', '-', '')).map(([body, sep]): Shape => {
  const digits = `4${body}${luhnDigit(`4${body}`)}`;
  const written = digits.match(/.{4}/g)!.join(sep);
  return { kind: 'payment', written, forbidden: [written, digits], field: { name: 'Card number', autocomplete: 'cc-number' }, task: `Pay with card ${written} and continue` };
});
const code = fc.integer({ min: 100_000, max: 999_999 }).map(String).map((v): Shape => ({
  kind: 'one-time-code', written: v, forbidden: [v], field: { name: 'Verification code', autocomplete: 'one-time-code' }, task: `Enter the verification code ${v} and continue`,
}));
const apiKey = fc.tuple(fc.constantFrom('sk-live-', 'ghp_', ''), fc.stringMatching(/^[A-Za-z0-9]{28,36}$/).filter((s) => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s)))
  .map(([prefix, body]): Shape => {
    const v = `${prefix}${body}`;
    return { kind: 'secret', written: v, forbidden: [v], field: { name: 'API key' }, task: `Connect the shop with the API key ${v}` };
  });

/** Where the secret is: in the task, already in the field on the page, or typed by the model. */
type Placement = 'task' | 'field' | 'typed';

const node = (ref: string, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref, kind: 'interactive', role, name, states: {}, depth: 0, inViewport: true, ...extra,
});

class Page implements PageDriver {
  acted: Action[] = [];
  constructor(private readonly secretField: SnapshotNode) {}
  async observe(): Promise<PageObservation> {
    return {
      url: `${ORIGIN}/connect`, title: 'Connect', focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [],
      scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
      nodes: [node('1', 'textbox', 'Shop name', { value: '' }), this.secretField, node('3', 'button', 'Continue')],
    };
  }
  async act(action: Action): Promise<ActionResult> {
    this.acted.push(action);
    return { ok: true, navigated: false };
  }
}

/** A model that records every prompt and always proposes the same options. */
function recordingModel(options: [string, number][], prompts: string[]): ChatModel {
  return {
    async chat(request: ChatRequest) {
      prompts.push(request.messages.map((m) => m.content).join('\n'));
      return { text: candidateAnswer(options), tokens: null, usage: { promptTokens: 1, completionTokens: 1 }, model: 'test' };
    },
  };
}

const safeJson = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
};

/** Every argument a learner gets, as JSON. */
function spied(learner: Learner, seen: string[]): Learner {
  return new Proxy(learner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        seen.push(safeJson(args));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The secret as a token: a leaked code inside a longer number (a probability, a timestamp) is no leak. */
const holds = (text: string, secret: string): boolean => new RegExp(`(?<![A-Za-z0-9])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`).test(text);

async function runEpisode(shape: Shape, placement: Placement) {
  const field = node('2', 'textbox', shape.field.name, { ...shape.field, value: placement === 'field' ? shape.written : '' });
  const page = new Page(field);
  const mask = `{${shape.kind}}`;
  const top = placement === 'typed' ? `fill([2], "${shape.written}")` : placement === 'task' ? `fill([2], "${mask}")` : 'click([3])';
  const prompts: string[] = [];
  const model = recordingModel([[top, 70], ['click([3])', 30]], prompts);
  const settings: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } };
  let t = 1000;
  const ports: LearnerPorts = {
    stores: testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }),
    settings: () => settings,
    model: () => model,
    clock: { now: () => (t += 10) },
    random: seededRandom(1),
  };
  const seen: string[] = [];
  const learners = enabledLearners(buildLearners(ports), settings).map((l) => spied(l, seen));
  const episodes = new InMemoryEpisodeStore();
  const deps: AgentDeps = {
    episodes,
    pageFor: () => page,
    policy: () => createLlmPolicy(model, { logitMode: 'verbalized' }),
    learners: () => learners,
    evaluator: () => null,
    settings: () => settings,
    clock: ports.clock,
    logger: silentLogger,
    newId: () => 'ep-1',
  };
  const controller = new AgentController(deps);
  const task = placement === 'task' ? shape.task : 'Connect the shop and continue';
  let ep = await controller.start({ task, startUrl: `${ORIGIN}/connect`, tabId: 7 });
  ep = await controller.decide(ep.id, { kind: 'approve', step: 0, candidate: ep.steps[0]!.candidates[0]!.semantic });
  await controller.finish(ep.id, 'success');

  // A row an older version wrote, the secret typed in the clear: the export and the team documents mask it on their own.
  await ports.stores.declared(TRANSITIONS).putEpisode('ep-old', [transition(ORIGIN, 'ep-old', 0, `fill(<textbox "${shape.field.name}">, "${shape.written}")`)]);
  const memories = learnerMemories(ports);
  const { json: exported } = await exportMemory({
    episodes,
    learnerMemories: memories,
    learning: { learners: () => [], rewards: () => settings.rewards, logger: silentLogger },
    now: () => Date.UTC(2026, 10, 25),
    writeImport: inMemoryImportWriter({ ...ports.stores, episodes }, memories),
    upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
  });
  // The team documents from the stores as they are (not from the export, which is masked on its own).
  const shared = shareItems({
    // The site-row store returns its rows as stored (CER validates its own reads); the share step checks each row itself.
    archive: { transitions: await ports.stores.declared(TRANSITIONS).all(), experiences: await ports.stores.declared(EXPERIENCES).all() } as Parameters<typeof shareItems>[0]['archive'],
    ownStores: ownStoresOf(memories),
    sharedSites: [ORIGIN], me: { id: 'member-0001', name: 'Ada' }, fromTeammate: () => false, appVersion: '0.1.0', now: 5,
  });
  return {
    page,
    paths: {
      'storage record': safeJson(await episodes.all()),
      'learner inputs': seen.join('\n'),
      'prompt text': prompts.join('\n'),
      export: exported,
      'sync document': safeJson(shared.docs),
    },
    sharedDocs: shared.docs.length,
  };
}

describe('secrets never reach storage, learners, prompts, exports or team documents', () => {
  it('property: over secret shapes and where they appear, every path holds only the mask', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(password, card, code, apiKey), fc.constantFrom<Placement>('task', 'field', 'typed'), async (shape, placement) => {
        const { page, paths } = await runEpisode(shape, placement);
        for (const [path, text] of Object.entries(paths)) {
          for (const secret of shape.forbidden) expect(holds(text, secret), `${path} holds ${secret} (${placement})`).toBe(false);
        }
        // Masking never changes what runs: the real value is typed, into its own field.
        if (placement !== 'field') expect(page.acted[0]).toEqual({ type: 'fill', target: { kind: 'ref', ref: '2' }, text: shape.written });
        // The mask says which kind of secret was there.
        expect(paths['storage record']).toContain(`{${shape.kind}}`);
      }),
      { numRuns: 60, seed: 23 },
    );
  });

  it('the scan can fail: the same value in an ordinary field (no detector can know it) is found on every path', async () => {
    // The page shows the value in a field named "Nickname": not a secret field, so it is page data everywhere.
    const shape: Shape = { kind: 'password', written: 'Tr0ub4dor-3', forbidden: ['Tr0ub4dor-3'], field: { name: 'Nickname' }, task: '' };
    const { paths, sharedDocs } = await runEpisode(shape, 'field');
    expect(holds(paths['prompt text'], 'Tr0ub4dor-3')).toBe(true);
    expect(holds(paths['learner inputs'], 'Tr0ub4dor-3')).toBe(true);
    expect(holds(paths['storage record'], 'Tr0ub4dor-3')).toBe(true);
    expect(holds(paths.export, 'Tr0ub4dor-3')).toBe(true);
    // The older row typed it into the Nickname field: shared as it is.
    expect(sharedDocs).toBeGreaterThan(0);
    expect(holds(paths['sync document'], 'Tr0ub4dor-3')).toBe(true);
  });
});
