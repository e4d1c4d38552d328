import { describe, expect, it } from 'vitest';
import { UiRequests } from '../../src/protocol/messages.ts';

const DecisionInputSchema = UiRequests['episode.decide'].req.shape.decision;

describe('a decision names its step and candidate at the UI → background boundary', () => {
  it('refuses approve, pick and reject without the step index and candidate id, and edit without the step', () => {
    expect(DecisionInputSchema.safeParse({ kind: 'approve' }).success).toBe(false);
    expect(DecisionInputSchema.safeParse({ kind: 'pick', index: 1 }).success).toBe(false);
    expect(DecisionInputSchema.safeParse({ kind: 'reject', index: 1, step: 2 }).success).toBe(false);
    expect(DecisionInputSchema.safeParse({ kind: 'edit', action: 'click([1])' }).success).toBe(false);
  });
  it('accepts them when named', () => {
    expect(DecisionInputSchema.safeParse({ kind: 'approve', step: 0, candidate: 'click(<button "Go">)' }).success).toBe(true);
    expect(DecisionInputSchema.safeParse({ kind: 'edit', action: 'click([1])', step: 3 }).success).toBe(true);
  });
});
