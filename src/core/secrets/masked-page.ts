/**
 * A page driver whose observations have their secret fields masked: the
 * controller reads every page through it, so no stage, learner or prompt sees
 * a field's secret whatever the driver under it does (the tab driver and the
 * page layer mask too; a benchmark's or a test's driver may not).
 */
import type { PageDriver } from '../ports.ts';
import { maskObservation } from './mask-secrets.ts';

export function maskedPage(page: PageDriver): PageDriver {
  return {
    observe: async (options, signal) => maskObservation(await page.observe(options, signal)),
    act: (action, signal, expect) => page.act(action, signal, expect),
  };
}
