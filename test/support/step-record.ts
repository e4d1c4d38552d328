/** A step record with nothing in it but what the caller gives: the shared base of the tests' step builders. */
import type { StepRecord } from '../../src/core/episode/episode.ts';

export function blankStep(over: Partial<StepRecord> & Pick<StepRecord, 'index' | 'url' | 'regUrl'>): StepRecord {
  return {
    effectiveState: [],
    logitSource: 'offline',
    candidates: [],
    replayed: [],
    learningNotes: [],
    chosen: null,
    rejected: [],
    result: null,
    reward: null,
    decisionLatencyMs: 0,
    modelCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    startedAt: 0,
    ...over,
  };
}
