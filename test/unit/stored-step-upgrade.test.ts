/**
 * Episodes stored before JitRL's numbers moved into its evidence (step fields
 * v / neighbours / droppedMemoryActions, candidate fields q / advantage /
 * normAdvantage / support / valueKind) still load — from IndexedDB and from an
 * export archive — with every value kept, now under `evidence.jitrl`.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { IdbEpisodeStore } from '../../src/adapters/idb/idb-episode-store.ts';
import { EpisodeSchema, type Episode } from '../../src/core/episode/episode.ts';
import { JitrlCandidateEvidenceSchema, JitrlStepEvidenceSchema } from '../../src/learners/jitrl/core/evidence.ts';
import { EvoCandidateEvidenceSchema, EvoStepEvidenceSchema } from '../../src/learners/evotest/core/episode-plan.ts';
import { importMemory, type ImportRows, type MemoryTransferDeps } from '../../src/core/learning/memory-transfer.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { upgradeStoredEpisode, upgradeStoredStep } from '../../src/core/learning/stored-step-upgrade.ts';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION } from '../../src/core/archive/memory-archive.ts';

const NEIGHBOUR = { transitionId: 'e0:0', episodeId: 'e0', task: 'Sign up as Bob', action: 'click(<button "Sign up">)', similarity: 0.91, ret: 1.1 };

/** A step as the store wrote it before this change (copied field by field from the old StepRecordSchema). */
function oldStep(): Record<string, unknown> {
  return {
    index: 0, url: 'https://shop.test/signup', regUrl: '/signup', effectiveState: [], logitSource: 'offline',
    candidates: [
      {
        action: 'click([5])', semantic: 'click(<button "Sign up">)', origin: 'model', baseLogit: -1.2, adjustedLogit: -0.4, baseProb: 0.3, adjustedProb: 0.7,
        q: 0.65, advantage: 0.4, normAdvantage: 0.4, support: 3, valueKind: 'known', settled: true,
      },
      {
        action: 'click([3])', semantic: 'click(<button "Cancel">)', origin: 'memory', baseLogit: -3, adjustedLogit: -3.8, baseProb: 0.1, adjustedProb: 0.05,
        q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none', barred: 'rejected',
      },
    ],
    v: 0.25, neighbours: [NEIGHBOUR], droppedMemoryActions: 2,
    replayed: ['skill:signup'], learningNotes: ['a note'],
    evidence: { tfgrpo: { experiences: [] } },
    chosen: { action: 'click([5])', semantic: 'click(<button "Sign up">)', decision: 'approved' }, rejected: [],
    result: { ok: true, navigated: true }, reward: 1, decisionLatencyMs: 40, modelCalls: 0, promptTokens: 0, completionTokens: 0, startedAt: 7,
  };
}

function oldEpisode(id = 'old'): Record<string, unknown> {
  return {
    id, origin: 'https://shop.test', task: 'Sign up as Ada', startUrl: 'https://shop.test/signup', tabId: null, status: 'success', steps: [oldStep()],
    answer: null, error: null, learners: ['jitrl'], attempt: 2, kind: 'live', startedAt: 0, endedAt: 9,
  };
}

function expectUpgraded(episode: Episode) {
  const [step] = episode.steps;
  expect(JitrlStepEvidenceSchema.parse(step!.evidence?.jitrl)).toEqual({ v: 0.25, neighbours: [NEIGHBOUR], droppedMemoryActions: 2 });
  // Another learner's evidence and every generic field stay as they were.
  expect(step!.evidence?.tfgrpo).toEqual({ experiences: [] });
  expect(step).toMatchObject({ replayed: ['skill:signup'], learningNotes: ['a note'], reward: 1, decisionLatencyMs: 40 });
  const [signUp, cancel] = step!.candidates;
  expect(signUp).toMatchObject({ action: 'click([5])', baseLogit: -1.2, adjustedLogit: -0.4, baseProb: 0.3, adjustedProb: 0.7, settled: true });
  expect(JitrlCandidateEvidenceSchema.parse(signUp!.evidence?.jitrl)).toEqual({ q: 0.65, advantage: 0.4, normAdvantage: 0.4, support: 3, valueKind: 'known' });
  expect(cancel).toMatchObject({ origin: 'memory', barred: 'rejected' });
  expect(JitrlCandidateEvidenceSchema.parse(cancel!.evidence?.jitrl)).toEqual({ q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' });
}

describe('stored episodes from before the one Candidate value', () => {
  it('do not parse as they are (why the upgrade exists), and parse after it with every value under evidence.jitrl', () => {
    expect(EpisodeSchema.safeParse(oldEpisode()).success).toBe(false);
    expectUpgraded(EpisodeSchema.parse(upgradeStoredEpisode(oldEpisode(), LEARNERS)));
  });

  it('loses nothing: every old value is found again, and the upgrade does not change its input', () => {
    const input = oldStep();
    const before = JSON.stringify(input);
    const upgraded = upgradeStoredStep(input, LEARNERS) as Record<string, unknown>;
    expect(JSON.stringify(input)).toBe(before);
    const leaves = (v: unknown): unknown[] => (typeof v === 'object' && v !== null ? Object.values(v).flatMap(leaves) : [v]);
    const count = (xs: unknown[]) => xs.reduce<Map<string, number>>((m, x) => m.set(JSON.stringify(x), (m.get(JSON.stringify(x)) ?? 0) + 1), new Map());
    expect(count(leaves(upgraded))).toEqual(count(leaves(input)));
  });

  it('a record already in the current format passes through as it is', () => {
    const current = upgradeStoredEpisode(oldEpisode(), LEARNERS);
    expect(upgradeStoredEpisode(current, LEARNERS)).toBe(current);
    const step = (current as { steps: unknown[] }).steps[0];
    expect(upgradeStoredStep(step, LEARNERS)).toBe(step);
  });

  it('the registry says which learner owned which former fields: JitRL\'s record fields, EvoTest\'s shifts list', () => {
    expect(LEARNERS.filter((d) => d.formerFields).map((d) => [d.id, d.formerFields])).toEqual([
      ['jitrl', { step: ['v', 'neighbours', 'droppedMemoryActions'], candidate: ['q', 'advantage', 'normAdvantage', 'support', 'valueKind'] }],
      ['evotest', { perCandidate: ['shifts'] }],
    ]);
  });

  it('load from IndexedDB upgraded (a row written by the previous version)', async () => {
    const store = await IdbEpisodeStore.open({ factory: new IDBFactory() });
    await store.put(oldEpisode('row') as unknown as Episode);
    const loaded = await store.get('row');
    expect(loaded).not.toBeNull();
    expectUpgraded(loaded!);
    expect(store.corruptRowsSkipped).toBe(0);
    store.close();
  });

  it('import from an export archive upgraded', async () => {
    let written: ImportRows | null = null;
    const deps = {
      learnerMemories: [],
      writeImport: async (rows: ImportRows) => { written = rows; },
      upgradeEpisode: (raw: unknown) => upgradeStoredEpisode(raw, LEARNERS),
      learnFromImported: async () => ({ experiences: 0 }),
      now: () => 100,
    } as unknown as MemoryTransferDeps;
    const archive = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, exportedAt: 1, transitions: [], episodes: [oldEpisode('exported')], experiences: [] };
    expect(await importMemory(deps, JSON.stringify(archive))).toMatchObject({ episodes: 1 });
    expectUpgraded(written!.episodes[0]!);
  });
});

const NEXT = 'click(<button "Next">)';
const ORDERS = 'click(<link "Orders">)';

/** A step as written before EvoTest's shifts moved to the candidates: a `shifts` list in its step evidence (and JitRL's old fields too). */
function oldEvotestStep(): Record<string, unknown> {
  const step = oldStep();
  step.candidates = [
    { action: 'click([4])', semantic: NEXT, origin: 'model', baseLogit: 2, adjustedLogit: 0.5, baseProb: 0.6, adjustedProb: 0.3, q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' },
    { action: 'click([2])', semantic: ORDERS, origin: 'model', baseLogit: 1, adjustedLogit: 2, baseProb: 0.4, adjustedProb: 0.7, q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' },
    { action: 'click([9])', semantic: 'click(<link "Help">)', origin: 'model', baseLogit: 0, adjustedLogit: 0, baseProb: 0.1, adjustedProb: 0.1, q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' },
  ];
  step.evidence = {
    tfgrpo: { experiences: [] },
    evotest: {
      configurationId: 'c2', hinted: [ORDERS], avoided: [NEXT], milestones: ['Orders listed'],
      shifts: [{ semantic: NEXT, shift: -1.5, reason: 'avoided' }, { semantic: ORDERS, shift: 1, reason: 'hinted' }],
    },
  };
  return step;
}

describe('stored steps from before EvoTest\'s shifts became candidate evidence', () => {
  it('the old step evidence does not parse; after the upgrade each shift is its candidate\'s evidence under evotest', () => {
    const old = oldEvotestStep();
    expect(EvoStepEvidenceSchema.safeParse((old.evidence as Record<string, unknown>).evotest).success).toBe(false);
    const episode = EpisodeSchema.parse(upgradeStoredEpisode({ ...oldEpisode(), steps: [old] }, LEARNERS));
    const [step] = episode.steps;
    expect(EvoStepEvidenceSchema.parse(step!.evidence?.evotest)).toEqual({ configurationId: 'c2', hinted: [ORDERS], avoided: [NEXT], milestones: ['Orders listed'] });
    expect(step!.candidates.map((c) => c.evidence?.evotest)).toEqual([{ shift: -1.5, reason: 'avoided' }, { shift: 1, reason: 'hinted' }, undefined]);
    for (const c of step!.candidates.slice(0, 2)) EvoCandidateEvidenceSchema.parse(c.evidence?.evotest);
    // JitRL's old fields moved too, beside EvoTest's evidence; other learners' evidence untouched.
    expect(step!.candidates[0]!.evidence?.jitrl).toEqual({ q: null, advantage: null, normAdvantage: null, support: 0, valueKind: 'none' });
    expect(step!.evidence?.tfgrpo).toEqual({ experiences: [] });
  });

  it('loses nothing but the semantic keys (each now implied by the candidate), and leaves its input as it was', () => {
    const input = oldEvotestStep();
    const before = JSON.stringify(input);
    const upgraded = upgradeStoredStep(input, LEARNERS);
    expect(JSON.stringify(input)).toBe(before);
    const leaves = (v: unknown): string[] => (typeof v === 'object' && v !== null ? Object.values(v).flatMap(leaves) : [JSON.stringify(v)]);
    const without = (xs: string[], gone: string[]) => gone.reduce((left, g) => { const i = left.indexOf(g); return i < 0 ? left : [...left.slice(0, i), ...left.slice(i + 1)]; }, xs);
    expect(leaves(upgraded).sort()).toEqual(without(leaves(input), [JSON.stringify(NEXT), JSON.stringify(ORDERS)]).sort());
    expect(upgradeStoredStep(upgraded, LEARNERS)).toBe(upgraded);
  });

  it('a candidate that already has EvoTest evidence keeps it; a shift for a candidate the step did not store is dropped', () => {
    const step = oldEvotestStep();
    const candidates = step.candidates as Record<string, unknown>[];
    candidates[0] = { ...candidates[0], evidence: { evotest: { shift: -2, reason: 'avoided' } } };
    const evotest = (step.evidence as Record<string, Record<string, unknown>>).evotest!;
    evotest.shifts = [...(evotest.shifts as unknown[]), { semantic: 'click(<button "Gone">)', shift: 1, reason: 'hinted' }];
    const upgraded = EpisodeSchema.shape.steps.element.parse(upgradeStoredStep(step, LEARNERS));
    expect(upgraded.candidates.map((c) => c.evidence?.evotest)).toEqual([{ shift: -2, reason: 'avoided' }, { shift: 1, reason: 'hinted' }, undefined]);
    expect(Object.keys(upgraded.evidence?.evotest as object)).toEqual(['configurationId', 'hinted', 'avoided', 'milestones']);
  });

  it('loads from IndexedDB upgraded', async () => {
    const store = await IdbEpisodeStore.open({ factory: new IDBFactory() });
    await store.put({ ...oldEpisode('evo'), steps: [oldEvotestStep()] } as unknown as Episode);
    const loaded = await store.get('evo');
    expect(loaded!.steps[0]!.candidates.map((c) => c.evidence?.evotest)).toEqual([{ shift: -1.5, reason: 'avoided' }, { shift: 1, reason: 'hinted' }, undefined]);
    expect(store.corruptRowsSkipped).toBe(0);
    store.close();
  });
});
