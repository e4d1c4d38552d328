/**
 * Issue 11 item 6, through the real browser: the built extension's service
 * worker is stopped (CDP ServiceWorker.stopAllWorkers) once at each step
 * boundary — during the model call, awaiting the person, with the approval
 * saved before the action, inside the action before its effect, after the
 * effect before the result — against a shop that counts its side effects
 * server-side. The CI-sized run of `bench:trust`'s browser-restarts part.
 */
import { describe, expect, it } from 'vitest';
import { runBrowserRestarts } from '../../bench/trust/browser-restarts.ts';

describe('service-worker stops at every step boundary (built extension)', () => {
  it('loses no approval, duplicates no side effect, and says "outcome unknown" when an action may have run', async () => {
    const r = await runBrowserRestarts(5);
    expect(r.crashes).toBe(0);
    expect(r.byBoundary).toEqual({ proposing: 1, awaiting: 1, approved: 1, acting: 1, acted: 1 });
    // Every stop landed where it was aimed (checked against the stored step and the server's counts).
    expect(r.landed).toBe(r.stops);
    expect(r.lostApprovals).toBe(0);
    expect(r.duplicatedEffects).toBe(0);
    expect(r.missingEffects).toBe(0);
    // The two stops inside or right after an action come back to the person as outcome unknown; the others run once.
    expect(r.outcomeUnknown).toBe(2);
  }, 120_000);
});
