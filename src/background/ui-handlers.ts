/**
 * The UI request handlers: each one translates a validated message into a
 * call on the agent controller or a store. No logic of its own beyond that.
 */
import type { AgentController } from '../core/agent/agent-controller.ts';
import type { DemonstrationRecorder } from '../core/agent/demonstration-recorder.ts';
import type { EpisodeStore } from '../core/agent/episode-store.ts';
import type { Episode } from '../core/agent/episode.ts';
import { episodeTokens } from '../core/agent/token-budget.ts';
import type { MemoryStore } from '../core/memory/memory-store.ts';
import type { ExperienceStore } from '../core/learning/cer/experience-store.ts';
import type { LearnerMemory } from '../core/learning/learner-definition.ts';
import { ExperienceEntrySchema } from '../core/learning/cer/experience.ts';
import { importTrajectories } from '../core/learning/cer/trajectory-import.ts';
import type { DistillInput } from '../core/learning/cer/distill.ts';
import { buildArchive, parseArchive, ImportError } from '../core/memory/memory-archive.ts';
import { DEFAULT_SETTINGS, type Settings } from '../core/settings.ts';
import type { ProviderTestResult } from '../protocol/messages.ts';
import type { UiHandlers } from '../protocol/validate.ts';
import type { SettingsStore } from '../adapters/chrome/settings-store.ts';
import type { TfgrpoLearner } from '../core/learning/tfgrpo/tfgrpo-learner.ts';
import { TfgrpoExperienceSchema } from '../core/learning/tfgrpo/experience.ts';

export interface UiHandlerDeps {
  controller: AgentController;
  episodes: EpisodeStore;
  memory: MemoryStore;
  experiences: ExperienceStore;
  /** Every registry learner's memory, by learner id (learning/registry.ts): "forget this site" goes through them. */
  learnerMemories: { id: string; memory: LearnerMemory }[];
  /** Training-Free GRPO: its library in the Memory tab (list, edit, delete, undo). */
  tfgrpo: Pick<TfgrpoLearner, 'view' | 'edit' | 'remove' | 'undoLastUpdate' | 'exportAll' | 'importAll'>;
  settings: SettingsStore;
  tabUrl(tabId: number): Promise<string>;
  highlight(tabId: number, ref: string | null): Promise<void>;
  testProvider(provider: Settings['provider']): Promise<ProviderTestResult>;
  broadcastSettings(settings: Settings): void;
  /** Learns from imported trajectories / demonstrations (CER distils them, JitRL stores them). */
  learnFromImported(inputs: DistillInput[]): Promise<{ experiences: number }>;
  now(): number;
  /** Records a person's demonstrations (demo.start / demo.stop). */
  demonstrations: Pick<DemonstrationRecorder, 'start' | 'stop'>;
}

/** A file that is not our archive but looks like trajectories (has "steps" or "trajectories"). */
function asTrajectoryFile(json: string, now: number) {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof raw === 'object' && raw !== null && 'format' in raw) return null;
  const looksLike = (v: unknown) => typeof v === 'object' && v !== null && ('steps' in v || 'trajectories' in v);
  if (!(Array.isArray(raw) ? raw.length > 0 && raw.every(looksLike) : looksLike(raw))) return null;
  return importTrajectories(raw, { now, kind: 'imported' });
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
    'episode.resume': async ({ episodeId }) => d.controller.resume(episodeId, { awaitNext: false }),
    'episode.stop': async ({ episodeId }) => d.controller.stop(episodeId),
    'episode.verdict': async ({ episodeId, verdict, runEvaluator }) => d.controller.finish(episodeId, verdict, { runEvaluator }),
    'history.list': async ({ origin, limit }) =>
      (await d.episodes.list({ origin, limit })).map((e) => ({
        id: e.id, origin: e.origin, task: e.task, status: e.status, attempt: e.attempt,
        steps: e.steps.filter((s) => s.chosen).length, startedAt: e.startedAt, endedAt: e.endedAt, kind: e.kind,
        tokens: episodeTokens(e),
      })),
    'history.curve': async ({ origin, task }) =>
      (await d.episodes.list({ origin, task, limit: 1000 }))
        .filter((e) => e.endedAt !== null && e.kind !== 'demonstration')
        .sort((a, b) => a.startedAt - b.startedAt)
        .map((e, i) => ({ attempt: i + 1, episodeId: e.id, success: successOf(e), steps: e.steps.filter((s) => s.chosen).length })),
    'memory.sites': async () => d.memory.sites(),
    'memory.list': async ({ origin, query, limit, offset }) => d.memory.bySite(origin, { query, limit, offset }),
    'memory.delete': async ({ ids }) => ({ deleted: await d.memory.deleteTransitions(ids) }),
    'memory.forgetSite': async ({ origin }) => {
      // The answer counts JitRL's transitions, as the Memory tab shows them.
      let deleted = 0;
      for (const { id, memory } of d.learnerMemories) {
        const n = await memory.forgetSite(origin);
        if (id === 'jitrl') deleted = n;
      }
      await d.episodes.forgetSite(origin);
      return { deleted };
    },
    'memory.export': async () => {
      const archive = buildArchive({
        transitions: await d.memory.all(),
        episodes: await d.episodes.all(),
        experiences: await d.experiences.all(),
        learners: { tfgrpo: await d.tfgrpo.exportAll() },
        now: d.now(),
      });
      const day = new Date(d.now()).toISOString().slice(0, 10);
      return { json: JSON.stringify(archive), filename: `apprentice-memory-${day}.json` };
    },
    'memory.import': async ({ json }) => {
      const trajectories = asTrajectoryFile(json, d.now());
      if (trajectories) {
        if (trajectories.errors.length) throw new ImportError(`the trajectory file is invalid: ${trajectories.errors.slice(0, 3).join('; ')}`);
        for (const input of trajectories.inputs) await d.episodes.put(input.episode);
        const { experiences } = await d.learnFromImported(trajectories.inputs);
        return { transitions: 0, episodes: trajectories.inputs.length, experiences };
      }
      const archive = parseArchive(json);
      const experiences = archive.experiences.map((raw, i) => {
        const parsed = ExperienceEntrySchema.safeParse(raw);
        if (!parsed.success) throw new ImportError(`experience #${i} is invalid: ${parsed.error.issues[0]?.message ?? ''}`);
        return parsed.data;
      });
      const tfgrpo = (archive.learners?.['tfgrpo'] ?? []).map((raw, i) => {
        const parsed = TfgrpoExperienceSchema.safeParse(raw);
        if (!parsed.success) throw new ImportError(`Training-Free GRPO experience #${i} is invalid: ${parsed.error.issues[0]?.message ?? ''}`);
        return parsed.data;
      });
      // Everything validated above; now write. Transitions go per episode, each in one transaction.
      const byEpisode = new Map<string, typeof archive.transitions>();
      for (const t of archive.transitions) byEpisode.set(t.episodeId, [...(byEpisode.get(t.episodeId) ?? []), t]);
      for (const [episodeId, rows] of byEpisode) await d.memory.putEpisode(episodeId, rows);
      for (const e of archive.episodes) await d.episodes.put(e);
      await d.experiences.putMany(experiences);
      const learned = await d.tfgrpo.importAll(tfgrpo);
      return { transitions: archive.transitions.length, episodes: archive.episodes.length, experiences: experiences.length + learned };
    },
    'settings.get': async () => d.settings.load(),
    'settings.set': async ({ settings }) => saveSettings(settings),
    'settings.reset': async () => saveSettings(structuredClone(DEFAULT_SETTINGS)),
    'provider.test': async ({ provider }) => d.testProvider(provider),
    'page.highlight': async ({ tabId, ref }) => {
      await d.highlight(tabId, ref);
      return { ok: true as const };
    },
    'demo.start': async ({ tabId, task }) => {
      // The person takes over the tab: an agent episode running there stops first.
      const live = (await d.episodes.unfinished()).filter((e) => e.tabId === tabId && e.kind !== 'demonstration');
      for (const e of live) await d.controller.stop(e.id);
      return d.demonstrations.start({ tabId, task });
    },
    'demo.stop': async ({ episodeId, outcome }) => d.demonstrations.stop(episodeId, outcome),
    'cer.list': async ({ origin }) => d.experiences.list(origin),
    'tfgrpo.library': async ({ origin }) => d.tfgrpo.view(origin),
    'tfgrpo.edit': async ({ origin, id, text }) => ({ ok: await d.tfgrpo.edit(origin, id, text) }),
    'tfgrpo.delete': async ({ origin, ids }) => ({ deleted: await d.tfgrpo.remove(origin, ids) }),
    'tfgrpo.undo': async ({ origin }) => ({ undone: (await d.tfgrpo.undoLastUpdate(origin)) !== null }),
    'autoApprove.set': async ({ origin, enabled }) => {
      const s = await d.settings.load();
      const origins = new Set(s.agent.autoApproveOrigins);
      if (enabled) origins.add(origin);
      else origins.delete(origin);
      return saveSettings({ ...s, agent: { ...s.agent, autoApproveOrigins: [...origins] } });
    },
  };
}
