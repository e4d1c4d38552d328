/**
 * The UI request handlers: each one translates a validated message into a
 * call on the agent controller or a store. No logic of its own beyond that.
 */
import type { AgentController } from '../core/agent/agent-controller.ts';
import type { DemonstrationRecorder } from '../core/agent/demonstration-recorder.ts';
import type { TeachingSession } from '../core/agent/teaching-session.ts';
import type { EpisodeStore } from '../core/episode/episode-store.ts';
import type { Episode } from '../core/episode/episode.ts';
import { episodeTokens } from '../core/agent/token-budget.ts';
import { attemptCosts } from '../core/episode/attempt-costs.ts';
import { memorySites } from '../core/learning/memory-sites.ts';
import type { LearnerMemory } from '../core/learning/learner-definition.ts';
import { exportMemory, forgetSite, importMemory, type MemoryTransferDeps } from '../core/learning/memory-transfer.ts';
import { runLearnerAction, type ActionableLearner } from '../core/learning/learner-actions.ts';
import { DEFAULT_SETTINGS, type Settings } from '../core/settings.ts';
import type { PickResult, ProviderTestResult } from '../protocol/messages.ts';
import type { Handlers, UiHandlers } from '../protocol/validate.ts';
import type { TeamRequests } from '../protocol/team-messages.ts';
import type { SettingsStore } from '../adapters/chrome/settings-store.ts';
import { keyTransportProblem } from '../core/provider-key.ts';
import type { ProcedureLibrary } from '../core/replay/procedure-library.ts';
import type { ImportOutcomes } from '../core/archive/import-outcome.ts';

export interface UiHandlerDeps {
  controller: AgentController;
  episodes: EpisodeStore;
  /** Every registry learner's memory, by learner id (learning/registry/registry.ts): the site table and "forget this site" go through them. */
  learnerMemories: { id: string; memory: LearnerMemory }[];
  /** The registry learners with panel actions (learner.action), with their handlers. */
  learnerActions: readonly ActionableLearner[];
  settings: SettingsStore;
  tabUrl(tabId: number): Promise<string>;
  highlight(tabId: number, ref: string | null): Promise<void>;
  /** "Pick an element" in the tab's page (page.pick): waits for the person's click, or cancels. */
  pick(tabId: number, on: boolean): Promise<PickResult>;
  testProvider(provider: Settings['provider']): Promise<ProviderTestResult>;
  broadcastSettings(settings: Settings): void;
  /** Who learns from an imported trajectory file (the enabled learners, as after a live episode). */
  learning: MemoryTransferDeps['learning'];
  now(): number;
  /** Writes a whole validated import in one transaction: all of it, or nothing. */
  writeImport: MemoryTransferDeps['writeImport'];
  /** Imports' outcomes by id (committed with the data), read after a lost reply. */
  importOutcomes: ImportOutcomes;
  upgradeEpisode: MemoryTransferDeps['upgradeEpisode'];
  /** Records a person's demonstrations (demo.start / demo.stop). */
  demonstrations: Pick<DemonstrationRecorder, 'start' | 'stop'>;
  /** Learned procedures (replay): listed, deleted, marked "never replay" in the Memory tab. */
  procedures: Pick<ProcedureLibrary, 'list' | 'delete' | 'setNeverReplay'>;
  /** Team memory (team.*), and its part of "forget this site". */
  team: { handlers: Handlers<typeof TeamRequests, undefined>; forgetSite(origin: string): Promise<void> };
  /** Show me and Take over in an agent episode (teach.*). */
  teaching: Pick<TeachingSession, 'begin' | 'cancel' | 'continueAfterTakeOver'>;
}

const successOf = (e: Episode): number => (e.status === 'success' ? 1 : e.status === 'partial' ? 0.5 : 0);

export function createUiHandlers(d: UiHandlerDeps): UiHandlers<undefined> {
  const saveSettings = async (s: Settings) => {
    const saved = await d.settings.save(s);
    d.broadcastSettings(saved);
    return saved;
  };
  return {
    'episode.start': async ({ tabId, task }) => {
      const current = (await d.episodes.unfinished()).find((e) => e.tabId === tabId);
      if (current) await d.controller.stop(current.id);
      const startUrl = await d.tabUrl(tabId);
      return d.controller.start({ task, startUrl, tabId, awaitProposal: false });
    },
    'episode.current': async ({ tabId }) => {
      const unfinished = (await d.episodes.unfinished()).filter((e) => e.tabId === tabId);
      if (unfinished.length) return unfinished.sort((a, b) => b.startedAt - a.startedAt)[0]!;
      const recent = (await d.episodes.list({ limit: 20 })).filter((e) => e.tabId === tabId);
      return recent.sort((a, b) => b.startedAt - a.startedAt)[0] ?? null;
    },
    'episode.get': async ({ episodeId }) => d.episodes.get(episodeId),
    'episode.decide': async ({ episodeId, decision }) => d.controller.decide(episodeId, decision, { awaitNext: false }),
    'episode.pause': async ({ episodeId }) => d.controller.pause(episodeId),
    'episode.resume': async ({ episodeId, offlineOnce }) => d.controller.resume(episodeId, { awaitNext: false, ...(offlineOnce === true ? { offlineOnce } : {}) }),
    'episode.stop': async ({ episodeId }) => d.controller.stop(episodeId),
    'episode.verdict': async ({ episodeId, verdict, runEvaluator, answer }) => d.controller.finish(episodeId, verdict, { runEvaluator, ...(answer !== undefined ? { answer } : {}) }),
    'history.list': async ({ origin, limit }) =>
      (await d.episodes.list({ origin, limit })).map((e) => ({
        id: e.id, origin: e.origin, task: e.task, status: e.status, attempt: e.attempt,
        steps: e.steps.filter((s) => s.chosen).length, startedAt: e.startedAt, endedAt: e.endedAt, kind: e.kind,
        tokens: episodeTokens(e),
        modelCalls: e.steps.reduce((n, s) => n + s.modelCalls, 0),
        replayedSteps: e.steps.filter((s) => s.replayStep !== undefined && s.chosen !== null).length,
      })),
    'history.curve': async ({ origin, task }) =>
      (await d.episodes.list({ origin, task, limit: 1000 }))
        .filter((e) => e.endedAt !== null && e.kind !== 'demonstration')
        .sort((a, b) => a.startedAt - b.startedAt)
        .map((e, i) => ({ attempt: i + 1, episodeId: e.id, success: successOf(e), steps: e.steps.filter((s) => s.chosen).length, ...attemptCosts(e) })),
    'memory.sites': async () => memorySites(d.learnerMemories),
    'memory.forgetSite': async ({ origin }) => {
      const result = await forgetSite(d, origin);
      // Tests build handlers from partial deps; the background always passes team.
      await d.team?.forgetSite(origin);
      return result;
    },
    ...d.team?.handlers,
    'memory.export': async () => exportMemory(d),
    'memory.import': async ({ json, importId }) => importMemory(d, json, importId === undefined ? {} : { importId }),
    'memory.importOutcome': async ({ importId }) => ({ outcome: await d.importOutcomes.get(importId) }),
    'settings.get': async () => d.settings.load(),
    'settings.set': async ({ settings }) => saveSettings(settings),
    'settings.reset': async () => saveSettings(structuredClone(DEFAULT_SETTINGS)),
    // Read again, like settings.get: the notes describe what is stored now, not at the worker's start.
    'settings.loadNotes': async () => {
      await d.settings.load();
      return d.settings.loadNotes();
    },
    'provider.test': async ({ provider }) => {
      // The key goes to the typed URL only under the same rule as a saved one.
      const problem = keyTransportProblem(provider);
      if (problem) return { ok: false, model: provider.model, logprobs: false, latencyMs: 0, message: problem };
      return d.testProvider(provider);
    },
    'page.highlight': async ({ tabId, ref }) => {
      await d.highlight(tabId, ref);
      return { ok: true as const };
    },
    'page.pick': async ({ tabId, on }) => d.pick(tabId, on),
    'demo.start': async ({ tabId, task }) => {
      // The person takes over the tab: an agent episode running there stops first.
      const live = (await d.episodes.unfinished()).filter((e) => e.tabId === tabId && e.kind !== 'demonstration');
      for (const e of live) await d.controller.stop(e.id);
      return d.demonstrations.start({ tabId, task });
    },
    'demo.stop': async ({ episodeId, outcome }) => d.demonstrations.stop(episodeId, outcome),
    'teach.start': async ({ episodeId, mode }) => d.teaching.begin(episodeId, mode),
    'teach.cancel': async ({ episodeId }) => d.teaching.cancel(episodeId),
    'teach.continue': async ({ episodeId, learn }) => d.teaching.continueAfterTakeOver(episodeId, { learn }),
    'episode.plan': async ({ episodeId, decision }) => d.controller.decidePlan(episodeId, decision, { awaitNext: false }),
    'procedures.list': async ({ origin }) => d.procedures.list(origin),
    'procedures.delete': async ({ origin, id }) => {
      await d.procedures.delete(origin, id);
      return { ok: true as const };
    },
    'procedures.neverReplay': async ({ origin, id, never }) => {
      await d.procedures.setNeverReplay(origin, id, never);
      return { ok: true as const };
    },
    'learner.memory': async ({ learnerId, origin }) => {
      const memory = d.learnerMemories.find((m) => m.id === learnerId)?.memory;
      return memory?.list ? memory.list(origin) : null;
    },
    'learner.action': async ({ learnerId, action, payload }) => runLearnerAction(d.learnerActions, learnerId, action, payload),
    'askMode.set': async ({ origin, mode }) => {
      const s = await d.settings.load();
      return saveSettings({ ...s, agent: { ...s.agent, askModes: { ...s.agent.askModes, [origin]: mode } } });
    },
  };
}
