/**
 * Background service worker: builds the adapters, injects them into the core
 * agent controller, and registers listeners. Wiring only.
 *
 * Every listener is registered synchronously at the top level (MV3 requires
 * it for events that wake the worker); the async set-up is awaited inside.
 */
import { ProcedureLibrary } from '../core/replay/procedure-library.ts';
import * as z from 'zod';
import browser from 'webextension-polyfill';
import { AgentController } from '../core/agent/agent-controller.ts';
import { silentLogger, systemClock, type Logger } from '../core/ports.ts';
import { seededRandom } from '../core/random.ts';
import { buildLearners, enabledLearners, learnerMemories, procedureKnowledge } from '../core/learning/registry/registry-factories.ts';
import { LEARNERS } from '../core/learning/registry/registry.ts';
import { upgradeStoredEpisode } from '../core/learning/stored-step-upgrade.ts';
import { actionableLearners } from '../core/learning/learner-definition.ts';
import type { LearnerPorts } from '../core/learning/learner-definition.ts';
import type { Learner } from '../core/learning/learner.ts';
import type { Episode } from '../core/episode/episode.ts';
import type { CandidatePolicy } from '../core/policy/policy.ts';
import { createOfflinePolicy } from '../core/policy/offline-policy.ts';
import { createLlmPolicy } from '../core/policy/llm-policy.ts';
import { evaluateSteps } from '../core/llm/evaluator.ts';
import { createOpenAiChatModel, testProvider } from '../adapters/openai/openai-chat-model.ts';
import { retryingChatModel } from '../core/llm/retrying-model.ts';
import { createKeepAlive, keptAliveModel } from '../adapters/chrome/keep-alive.ts';
import { contextTokensFor, presetInfo } from '../adapters/openai/provider-presets.ts';
import { builtInLanguageModel, createPromptApiChatModel, testBuiltInModel } from '../adapters/chrome-ai/prompt-api-model.ts';
import type { ChatModel } from '../core/ports.ts';
import type { ProviderSettings } from '../core/settings.ts';
import { openApprenticeDb } from '../adapters/idb/open-database.ts';
import { IdbEpisodeStore } from '../adapters/idb/idb-episode-store.ts';
import { idbImportOutcomes, writeImportAtomically } from '../adapters/idb/idb-archive-import.ts';
import { idbLearnerStores } from '../adapters/idb/idb-learner-stores.ts';
import { createTabPageDriver } from '../adapters/chrome/tab-page-driver.ts';
import { formKeyLoader } from '../adapters/chrome/form-key.ts';
import { NewTabTracker } from '../adapters/chrome/new-tab-tracker.ts';
import { historyDepth } from '../core/page/history-depth.ts';
import { SettingsStore } from '../adapters/chrome/settings-store.ts';
import { RECORDING_PORT_NAME, UI_PORT_NAME, type UiEvent } from '../protocol/messages.ts';
import { createPageClient, dispatchUiRequest, isUiRequestType } from '../protocol/validate.ts';
import { createUiHandlers, type UiHandlerDeps } from './ui-handlers.ts';
import { createTeamMemory, registerTeamAlarm } from './team-alarm.ts';
import { DemonstrationRecorder } from '../core/agent/demonstration-recorder.ts';
import { createTabDemonstrationPage, registerDemonstrationListeners } from './demonstrations.ts';
import { createTeaching, registerTeachingListeners } from './teaching.ts';
import { budgetExceeded, tokensSpentOnSite } from '../core/agent/token-budget.ts';
import { createEpisodeFrames } from './episode-frame.ts';

z.config({ jitless: true });

const logger: Logger = {
  ...silentLogger,
  info: (m, d) => console.info(`[apprentice] ${m}`, d ?? ''),
  warn: (m, d) => console.warn(`[apprentice] ${m}`, d ?? ''),
  error: (m, d) => console.error(`[apprentice] ${m}`, d ?? ''),
};

const uiPorts = new Set<chrome.runtime.Port>();
const episodeFrames = createEpisodeFrames(async (tabId, on) => {
  await chrome.tabs.sendMessage(tabId, { type: 'page.frame', on }).catch(() => undefined);
});
const broadcast = (event: UiEvent) => {
  if (event.type === 'episode.updated') episodeFrames.update(event.episode);
  for (const port of uiPorts) {
    try {
      port.postMessage(event);
    } catch {
      uiPorts.delete(port);
    }
  }
};

const keepAlive = createKeepAlive({
  ping: () => chrome.runtime.getPlatformInfo(),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
});

const contentScriptFiles = chrome.runtime.getManifest().content_scripts?.[0]?.js ?? [];

// Tabs opened by pages (target=_blank, window.open), so an episode can follow its action there.
const newTabs = new NewTabTracker();
newTabs.listen(chrome.tabs.onCreated);

async function openStores() {
  const db = await openApprenticeDb();
  return {
    db,
    episodes: new IdbEpisodeStore(db),
    learners: idbLearnerStores(db, logger),
  };
}
type Stores = Awaited<ReturnType<typeof openStores>>;

/** One model for a provider configuration: the built-in one, an OpenAI-compatible endpoint, or none (offline). */
function modelFor(provider: ProviderSettings): ChatModel | null {
  if (provider.preset === 'chrome-ai') {
    // Where this context has no Prompt API the model reports the device as unsupported, in the panel.
    return createPromptApiChatModel(builtInLanguageModel(), {
      onDownloadProgress: (loaded) => logger.info('built-in model download', { loaded }),
    });
  }
  // Transient failures are retried with backoff; every call keeps the worker alive while it runs.
  return provider.preset === 'offline' || !provider.baseUrl
    ? null
    : keptAliveModel(retryingChatModel(createOpenAiChatModel(provider, { origin: `chrome-extension://${chrome.runtime.id}` })), keepAlive);
}

/**
 * One model and one policy per provider configuration, so what they detect
 * (no logprobs, unsupported parameters, the context window) is remembered across steps.
 */
function providerModels(provider: () => ProviderSettings) {
  let cached: { key: string; model: ChatModel | null; policy: CandidatePolicy } | null = null;
  return () => {
    const current = provider();
    const key = JSON.stringify(current);
    if (cached?.key !== key) {
      const model = modelFor(current);
      const contextTokens = contextTokensFor(current);
      const policy = model
        ? createLlmPolicy(model, { logitMode: current.logitMode, charsPerToken: presetInfo(current.preset).charsPerToken, ...(contextTokens > 0 ? { contextTokens } : {}) })
        : createOfflinePolicy();
      cached = { key, model, policy };
    }
    return cached;
  };
}

const formKey = formKeyLoader(chrome.storage.local);

/** The page driver of an episode's tab; the episode follows a tab its action opened. */
function pageDriverFor(episodes: Stores['episodes']) {
  return (episode: Episode) => {
    if (episode.tabId === null) throw new Error('this episode has no tab');
    return createTabPageDriver({
      tabId: episode.tabId,
      tabs: chrome.tabs,
      scripting: chrome.scripting,
      contentScriptFiles,
      formKey,
      backDepth: (currentUrl) => historyDepth(episode.steps, currentUrl),
      openedSince: (tabId, since) => newTabs.openedSince(tabId, since),
      // The episode moves to the new tab; showing it makes the panel (which follows the active tab) follow too.
      follow: async (tab) => {
        const latest = await episodes.get(episode.id);
        if (latest !== null) {
          const moved = { ...latest, tabId: tab.tabId };
          await episodes.put(moved);
          broadcast({ type: 'episode.updated', episode: moved });
        }
        await chrome.tabs.update(tab.tabId, { active: true }).catch(() => undefined);
      },
    });
  };
}

function createController(stores: Stores, settings: SettingsStore, models: ReturnType<typeof providerModels>, learners: () => Learner[], replay: ProcedureLibrary) {
  const { episodes } = stores;
  return new AgentController({
    replay,
    episodes,
    pageFor: pageDriverFor(episodes),
    policy: () => models().policy,
    offlinePolicy: () => createOfflinePolicy(),
    learners,
    evaluator: () => {
      const model = models().model;
      return model ? (input, signal) => evaluateSteps(model, input, signal) : null;
    },
    settings: () => settings.current(),
    clock: systemClock,
    logger,
    newId: () => crypto.randomUUID(),
    onUpdate: (episode) => broadcast({ type: 'episode.updated', episode }),
    tokenBudget: async (episode) => {
      const budget = settings.current().agent.tokenBudgetPerSite;
      if (budget <= 0) return null;
      return budgetExceeded(tokensSpentOnSite(await episodes.list({ origin: episode.origin, limit: 1000 }), episode.origin, Date.now()), budget, episode.origin);
    },
  });
}

/** What the UI handlers reach, beyond the agent and the learners. */
function browserDeps(db: Stores['db']): Pick<UiHandlerDeps, 'now' | 'tabUrl' | 'highlight' | 'pick' | 'testProvider' | 'writeImport' | 'importOutcomes' | 'upgradeEpisode' | 'broadcastSettings'> {
  return {
    now: () => Date.now(),
    tabUrl: async (tabId) => {
      const tab = await chrome.tabs.get(tabId);
      // Nothing from an incognito window is ever stored, so Apprentice does not run there.
      if (tab.incognito) throw new Error('Apprentice does not run in incognito windows, so nothing from them is stored.');
      if (!tab.url || !/^https?:/.test(tab.url)) throw new Error('Apprentice works on http(s) pages; this tab shows something else.');
      return tab.url;
    },
    highlight: async (tabId, ref) => {
      await chrome.tabs.sendMessage(tabId, { type: 'page.highlight', ref }).catch(() => undefined);
    },
    // The page's own reply, validated; a tab without the content script (not http(s), still loading) fails with its message.
    pick: (tabId, on) => createPageClient((message) => chrome.tabs.sendMessage(tabId, message)).request('page.pick', { on }),
    testProvider: (provider) =>
      provider.preset === 'chrome-ai'
        ? testBuiltInModel(createPromptApiChatModel(builtInLanguageModel()))
        : testProvider(provider, { origin: `chrome-extension://${chrome.runtime.id}` }),
    writeImport: (rows) => writeImportAtomically(db, rows),
    importOutcomes: idbImportOutcomes(db),
    upgradeEpisode: (raw) => upgradeStoredEpisode(raw, LEARNERS),
    broadcastSettings: (s) => broadcast({ type: 'settings.updated', settings: s }),
  };
}

async function setUp() {
  const stores = await openStores();
  const { episodes } = stores;
  const { learnerData } = stores.learners;
  const settings = new SettingsStore(chrome.storage.local);
  await settings.load();
  for (const note of settings.loadNotes()) logger.warn('stored setting not kept', { note });
  const models = providerModels(() => settings.current().provider);
  // Every learner of the registry, built once; the settings say which run.
  const ports: LearnerPorts = {
    stores: stores.learners, settings: () => settings.current(), model: () => models().model, clock: systemClock,
    random: seededRandom(settings.current().agent.seed ^ Date.now()),
  };
  const built = buildLearners(ports);
  const learners = () => enabledLearners(built, settings.current());
  // Learned procedures, on the stores the learners keep (src/core/replay): offered to the person as a plan.
  const procedures = new ProcedureLibrary({ knowledge: procedureKnowledge(ports), episodes, learnerData }, systemClock);
  const controller = createController(stores, settings, models, learners, procedures);
  const demonstrationPage = () => createTabDemonstrationPage({ tabs: chrome.tabs, scripting: chrome.scripting, contentScriptFiles });
  // Demonstrations reach the enabled learners by the live episodes' learn(trajectory).
  const demonstrations = new DemonstrationRecorder({
    episodes, page: demonstrationPage(), learners, settings: () => settings.current(), clock: systemClock, logger,
    newId: () => crypto.randomUUID(), onUpdate: (episode) => broadcast({ type: 'episode.updated', episode }),
  });
  const teaching = createTeaching({ controller, episodes, logger, demonstrationPage: demonstrationPage() });
  // Team memory merges through the same import path as a file import (the handler deps below).
  let transferDeps: UiHandlerDeps | null = null;
  const team = createTeamMemory({
    transfer: () => {
      if (!transferDeps) throw new Error('team memory used before the background was set up');
      return transferDeps;
    },
    stores: { learnerData },
  });
  const handlerDeps: UiHandlerDeps = {
    ...browserDeps(stores.db),
    team: { handlers: team.handlers(), forgetSite: (origin) => team.forgetSite(origin) },
    procedures, demonstrations, teaching: teaching.session, controller, episodes, settings,
    learnerActions: actionableLearners(built, ports),
    learnerMemories: learnerMemories(ports),
    // Imported trajectories reach the enabled learners by the live episodes' learn(trajectory).
    learning: { learners, rewards: () => settings.current().rewards, logger },
  };
  transferDeps = handlerDeps;
  // An episode caught mid-proposal when the worker died is proposed again.
  await controller.resumeUnfinished();
  return { handlers: createUiHandlers(handlerDeps), team, demonstrations, teaching };
}

const ready = setUp();
ready.catch((err: unknown) => logger.error('set-up failed', { error: String(err) }));
// Team memory syncs by itself only when the person chose "live" (team-alarm.ts); the listener is registered at the top level.
registerTeamAlarm(() => ready.then((r) => r.team));

registerDemonstrationListeners(
  () => ready.then((r) => r.demonstrations),
  (message, data) => logger.warn(message, data),
  () => ready.then((r) => r.teaching.router),
);
registerTeachingListeners(() => ready.then((r) => r.teaching), (message, data) => logger.warn(message, data));

const extensionOrigin = `chrome-extension://${chrome.runtime.id}/`;

browser.runtime.onMessage.addListener((message: unknown, sender: browser.Runtime.MessageSender) => {
  if (typeof message !== 'object' || message === null || !isUiRequestType((message as { type?: unknown }).type)) return undefined;
  // UI requests come only from our own extension pages, never from content scripts or other extensions.
  if (sender.id !== chrome.runtime.id || sender.tab?.url?.startsWith('http') || !(sender.url ?? '').startsWith(extensionOrigin)) {
    return Promise.resolve({ ok: false, error: { name: 'ForbiddenSender', message: 'not an Apprentice page' } });
  }
  return ready.then(({ handlers }) => dispatchUiRequest(handlers, message, undefined));
});

chrome.runtime.onConnect.addListener((port) => {
  if (port.name === RECORDING_PORT_NAME) return; // demonstrations.ts owns it
  if (port.name !== UI_PORT_NAME || port.sender?.id !== chrome.runtime.id || !(port.sender.url ?? '').startsWith(extensionOrigin)) {
    port.disconnect();
    return;
  }
  uiPorts.add(port);
  port.onDisconnect.addListener(() => uiPorts.delete(port));
});

chrome.commands.onCommand.addListener((command, tab) => {
  if (command === 'open-side-panel' && tab?.windowId !== undefined) {
    void chrome.sidePanel.open({ windowId: tab.windowId }).catch((err: unknown) => logger.warn('side panel did not open', { error: String(err) }));
  }
});

// The toolbar button opens the popup; the side panel opens from the command or the popup's button.
void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: false }).catch(() => undefined);
