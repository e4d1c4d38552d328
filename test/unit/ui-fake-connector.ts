/**
 * A fake background for component tests: the real typed client and the real
 * request validation (dispatchUiRequest), answering from plain handlers, and
 * a hand-fired event stream. Records every request the UI sends.
 */
import type { CandidateRecord, Episode, StepRecord } from '../../src/core/episode/episode.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { UiEventSchema, type UiEvent, type UiRequestType } from '../../src/protocol/messages.ts';
import { createUiClient, dispatchUiRequest, type UiHandlers } from '../../src/protocol/validate.ts';
import type { BackgroundConnector } from '../../src/ui/connector.ts';
import { blankStep } from '../support/step-record.ts';
import { LEARNERS } from '../../src/core/learning/registry/registry.ts';
import { runLearnerAction, type AnyActionHandlers } from '../../src/core/learning/learner-actions.ts';

export interface Call { type: UiRequestType; payload: Record<string, unknown> }

export function fakeConnector(handlers: Partial<UiHandlers<null>>) {
  const calls: Call[] = [];
  const listeners = new Set<(e: UiEvent) => void>();
  const client = createUiClient(async (raw) => {
    const { type, ...payload } = raw as { type: UiRequestType } & Record<string, unknown>;
    calls.push({ type, payload });
    return dispatchUiRequest(handlers as UiHandlers<null>, raw, null);
  });
  const connector: BackgroundConnector = {
    client,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    connector,
    calls,
    callsOf: (type: UiRequestType) => calls.filter((c) => c.type === type).map((c) => c.payload),
    /** The payloads of one learner action (learner.action) the UI sent. */
    actionCalls: (learnerId: string, action: string) =>
      calls.filter((c) => c.type === 'learner.action' && c.payload['learnerId'] === learnerId && c.payload['action'] === action).map((c) => c.payload['payload']),
    emit(event: UiEvent) {
      const parsed = UiEventSchema.parse(event);
      for (const l of [...listeners]) l(parsed);
    },
    listenerCount: () => listeners.size,
  };
}

/**
 * A `learner.action` handler answering each registry learner's actions from
 * plain functions, checked with the learner's own schemas as the background does.
 */
export function learnerActions(byLearner: Record<string, Record<string, (payload: never) => Promise<unknown>>>): UiHandlers<null>['learner.action'] {
  const actionable = LEARNERS.flatMap((d) => (d.actions && byLearner[d.id]
    ? [{ id: d.id, label: d.label, actions: d.actions, handlers: byLearner[d.id] as unknown as AnyActionHandlers }]
    : []));
  return async ({ learnerId, action, payload }) => runLearnerAction(actionable, learnerId, action, payload);
}

export function candidate(over: Partial<CandidateRecord> = {}): CandidateRecord {
  return {
    action: 'click([1])',
    semantic: 'click(<button "One">)',
    origin: 'model',
    baseLogit: -1,
    adjustedLogit: -1,
    baseProb: 0.3,
    adjustedProb: 0.3,
    ...over,
  };
}

export function step(over: Partial<StepRecord> = {}): StepRecord {
  return blankStep({
    index: 0,
    url: 'http://127.0.0.1:9/form.html',
    regUrl: '127.0.0.1/form.html',
    modelCalls: 1,
    startedAt: 1_700_000_000_000,
    ...over,
  });
}

export function episode(over: Partial<Episode> = {}): Episode {
  return {
    id: 'ep-1',
    origin: 'http://127.0.0.1:9',
    task: 'Sign up as Ada',
    startUrl: 'http://127.0.0.1:9/form.html',
    tabId: 7,
    status: 'awaiting_approval',
    steps: [],
    answer: null,
    error: null,
    learners: ['jitrl'],
    attempt: 1,
    kind: 'live',
    startedAt: 1_700_000_000_000,
    endedAt: null,
    ...over,
  };
}

export const settings = (over: Partial<Settings['agent']> = {}): Settings => ({
  ...DEFAULT_SETTINGS,
  agent: { ...DEFAULT_SETTINGS.agent, ...over },
});

/** A tabs slice with one active tab. */
export const fakeTabs = (id = 7, url = 'http://127.0.0.1:9/form.html') => ({
  query: async () => [{ id, url }],
  get: async (tabId: number) => ({ id: tabId, url }),
});
