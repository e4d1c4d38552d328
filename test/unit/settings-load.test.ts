/**
 * Stored settings from before JitRL and CER became ordinary registry learners
 * (their own top-level groups, the policy's temperature and candidate count
 * inside JitRL's) load into today's shape with the same values; bad stored
 * values fall back to their defaults with a note, never a throw.
 */
import { describe, expect, it } from 'vitest';
import { SettingsStore, type StorageAreaSlice } from '../../src/adapters/chrome/settings-store.ts';
import { cerDefinition } from '../../src/learners/cer/definition.ts';
import { DEFAULT_CER } from '../../src/learners/cer/core/settings.ts';
import { jitrlDefinition } from '../../src/learners/jitrl/definition.ts';
import { DEFAULT_JITRL } from '../../src/learners/jitrl/core/settings.ts';
import { learnerSettingsProblems, loadSettings } from '../../src/core/settings-load.ts';
import { DEFAULT_SETTINGS, SettingsSchema } from '../../src/core/settings.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';

/** Exactly what the previous version wrote to chrome.storage (every value changed from its default). */
const OLD_STORED = {
  provider: { preset: 'ollama', baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'qwen2.5:7b', logitMode: 'verbalized', timeoutMs: 30_000, contextTokens: 8192 },
  jitrl: {
    gamma: 0.3, k: 7, useTopK: false, threshold: 0.75, thresholdFloor: 0.7, thresholdDecaySteps: 12, taskFloor: 0.2,
    stateWeight: 0.6, taskWeight: 0.4, lambda: 0.1, alpha: 1, beta: 1.5, preferSameUrl: false, normalization: 'max-positive',
    advantageFloor: 0, temperature: 0.5, numCandidates: 5, bars: false, exploitSettled: false, widenPool: false, loopBars: false,
    learnCorrections: false, enabled: false,
  },
  rewards: { approve: 0.1, reject: -0.5, success: 2, failure: -2, partial: 0.4, evaluatorWeight: 0.25 },
  cer: { enabled: false, successOnly: true, topDynamics: 3, topSkills: 2, maxEntriesPerSite: 50 },
  agent: {
    maxSteps: 9, askModes: { 'https://shop.test': 'unapproved-only' }, approvalsNeeded: 3, alwaysAsk: [{ origin: 'https://shop.test', action: 'click "Pay"' }],
    observationChars: 8000, seed: 4, selection: 'argmax', samplingTemperature: 0.5, tokenBudgetPerSite: 10_000,
  },
  learners: { tfgrpo: { enabled: false, groupSize: 4, closeWhenMixed: false, rolloutTemperature: 0.6, maxPerSite: 20, inPrompt: 6, maxDeleteFraction: 0.5, ruleHints: false } },
  replay: { enabled: false },
};

describe('loading stored settings', () => {
  it('an old-shaped object loads into the new shape with the same values, and says nothing', () => {
    const { settings, notes } = loadSettings(structuredClone(OLD_STORED), LEARNERS);
    expect(notes).toEqual([]);
    expect(settings).toEqual({
      provider: OLD_STORED.provider,
      policy: { temperature: 0.5, numCandidates: 5 },
      rewards: OLD_STORED.rewards,
      agent: OLD_STORED.agent,
      learners: {
        tfgrpo: OLD_STORED.learners.tfgrpo,
        jitrl: {
          enabled: false, gamma: 0.3, k: 7, useTopK: false, threshold: 0.75, thresholdFloor: 0.7, thresholdDecaySteps: 12, taskFloor: 0.2,
          stateWeight: 0.6, taskWeight: 0.4, lambda: 0.1, alpha: 1, beta: 1.5, preferSameUrl: false, normalization: 'max-positive',
          advantageFloor: 0, bars: false, exploitSettled: false, widenPool: false, loopBars: false, learnCorrections: false,
        },
        cer: { enabled: false, successOnly: true, topDynamics: 3, topSkills: 2, maxEntriesPerSite: 50 },
      },
      replay: { enabled: false },
      revision: 2,
    });
    expect(SettingsSchema.safeParse(settings).success).toBe(true);
    // Read through the learners' definitions, as the learners read them.
    expect(jitrlDefinition.settings.read(settings).beta).toBe(1.5);
    expect(jitrlDefinition.enabled(settings)).toBe(false);
    expect(cerDefinition.settings.read(settings).topSkills).toBe(2);
    expect(cerDefinition.enabled(settings)).toBe(false);
  });

  it('today\'s shape loads unchanged; nothing stored gives the defaults', () => {
    const today = loadSettings(structuredClone(OLD_STORED), LEARNERS).settings;
    expect(loadSettings(structuredClone(today), LEARNERS)).toEqual({ settings: today, notes: [] });
    expect(loadSettings(undefined, LEARNERS)).toEqual({ settings: DEFAULT_SETTINGS, notes: [] });
    expect(jitrlDefinition.settings.read(DEFAULT_SETTINGS)).toEqual(DEFAULT_JITRL);
    expect(cerDefinition.settings.read(DEFAULT_SETTINGS)).toEqual(DEFAULT_CER);
  });

  it('a value already under learners[id] wins over the old group; a policy group wins over the old keys', () => {
    const { settings } = loadSettings({ jitrl: { beta: 1, temperature: 0.2 }, learners: { jitrl: { beta: 3 } }, policy: { temperature: 1.1 } }, LEARNERS);
    expect(settings.learners).toEqual({ jitrl: { ...DEFAULT_JITRL, beta: 3 } });
    expect(settings.policy).toEqual({ temperature: 1.1, numCandidates: 3 });
  });

  it('bad stored values fall back to their defaults, each with a note; nothing throws', () => {
    const { settings, notes } = loadSettings({
      jitrl: { gamma: 7, k: 'ten', beta: 1.25, temperature: -1 },
      cer: 'corrupt',
      rewards: { approve: 0.3, bonus: 2 },
      agent: { maxSteps: -3, seed: 2 },
      provider: { apiKey: 42, model: 'm' },
      learners: { tfgrpo: { groupSize: 99 } },
      legacyThing: true,
    }, LEARNERS);
    expect(settings.learners).toEqual({
      jitrl: { ...DEFAULT_JITRL, beta: 1.25 },
      tfgrpo: { enabled: true, groupSize: 3, closeWhenMixed: true, rolloutTemperature: 0.7, maxPerSite: 40, inPrompt: 12, maxDeleteFraction: 0.25, ruleHints: true },
    });
    expect(settings.policy).toEqual(DEFAULT_SETTINGS.policy);
    expect(settings.rewards).toEqual({ ...DEFAULT_SETTINGS.rewards, approve: 0.3 });
    expect(settings.agent).toEqual({ ...DEFAULT_SETTINGS.agent, seed: 2 });
    expect(settings.provider).toEqual({ ...DEFAULT_SETTINGS.provider, model: 'm' });
    expect(notes).toEqual([
      'cer: the stored value (a string) is not valid; CER uses its defaults',
      'provider.apiKey: the stored value 42 is not valid (Invalid input: expected string, received number); using its default',
      'policy.temperature: the stored value -1 is not valid (Too small: expected number to be >=0); using the default 0.8',
      'rewards.bonus: not a setting any more; dropped',
      'agent.maxSteps: the stored value -3 is not valid (Too small: expected number to be >0); using the default 15',
      'learners.tfgrpo.groupSize: the stored value 99 is not valid (Too big: expected number to be <=8); using the default 3',
      'learners.jitrl.gamma: the stored value 7 is not valid (Too big: expected number to be <=1); using the default 0.1',
      'learners.jitrl.k: the stored value (a string) is not valid (Invalid input: expected number, received string); using the default 10',
      'legacyThing: not a setting any more; dropped',
    ]);
    expect(loadSettings('garbage', LEARNERS)).toEqual({ settings: DEFAULT_SETTINGS, notes: ['the stored settings (a string) are not valid; using the defaults'] });
  });

  it('saving refuses learner settings their own schema refuses, naming the field', () => {
    expect(learnerSettingsProblems({ ...DEFAULT_SETTINGS, learners: { jitrl: { k: 0 }, cer: { enabled: true } } }, LEARNERS)).toEqual([
      'learners.jitrl.k: Too small: expected number to be >0',
    ]);
  });
});

function memoryArea(initial: Record<string, unknown>) {
  const data: Record<string, unknown> = structuredClone(initial);
  const area: StorageAreaSlice = {
    async get(key) { return key in data ? { [key]: structuredClone(data[key]) } : {}; },
    async set(items) { Object.assign(data, structuredClone(items)); },
  };
  return { area, data };
}

describe('SettingsStore with an old-shaped entry', () => {
  it('loads it in the new shape, and the next save writes only the new shape', async () => {
    const { area, data } = memoryArea({ 'apprentice.settings': OLD_STORED });
    const store = new SettingsStore(area);
    const loaded = await store.load();
    expect(loaded.policy).toEqual({ temperature: 0.5, numCandidates: 5 });
    expect(jitrlDefinition.settings.read(loaded).k).toBe(7);
    expect(store.loadNotes()).toEqual([]);
    await store.save(loaded);
    const written = data['apprentice.settings'] as Record<string, unknown>;
    expect(Object.keys(written).sort()).toEqual(['agent', 'learners', 'policy', 'provider', 'replay', 'revision', 'rewards']);
    expect((written['learners'] as Record<string, unknown>)['cer']).toEqual(OLD_STORED.cer);
  });

  it('keeps a note for each bad value it replaced, and refuses to save a bad learner value', async () => {
    const store = new SettingsStore(memoryArea({ 'apprentice.settings': { agent: { maxSteps: 0 } } }).area);
    await store.load();
    expect(store.loadNotes()).toEqual(['agent.maxSteps: the stored value 0 is not valid (Too small: expected number to be >0); using the default 15']);
    await expect(store.save({ ...DEFAULT_SETTINGS, learners: { cer: { topSkills: -1 } } })).rejects.toThrow(
      'Not saved: learners.cer.topSkills: Too small: expected number to be >=0',
    );
  });
});
