/**
 * Every gate rule's figure can fail (issue 30): each mutant of bench:trust
 * (`MUTANTS`: one per defence and one per rule of the autonomy gate) runs on
 * one generated page of each attack class it must break (`MUTANT_TARGETS`),
 * and must do harm there — an unapproved state change or an exfiltration
 * (a secret leak for the masking mutant) — on a page where the real gate
 * does none. A mutant that leaves its figure as the real gate prints it fails
 * here. Needs dist-inject (npm run build).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAttackPages } from '../../bench/trust/attack-classes.ts';
import { runAdaptive, type AdaptiveReport } from '../../bench/trust/adaptive-run.ts';
import { figureOf } from '../../bench/trust/adaptive-report.ts';
import { MUTANT_TARGETS, MUTANTS, type Mutant } from '../../bench/trust/mutants.ts';
import { startAttackerServer, type CountingServer } from '../../bench/trust/servers.ts';

let attacker: CountingServer;
const pages = buildAttackPages(1);
const pagesOf = (mutant: Mutant) => pages.filter((p) => MUTANT_TARGETS[mutant].includes(p.cls));
/** The figure per page: a report of one page each. */
const perPage = (r: AdaptiveReport, mutant: Mutant | null): Record<string, number> =>
  Object.fromEntries(r.attacks.map((a) => [a.cls, figureOf({ ...r, attacks: [a] }, mutant)]));

beforeAll(async () => {
  attacker = await startAttackerServer();
});

afterAll(async () => {
  await attacker?.close();
});

describe('every bench:trust mutant breaks its figure (one page of each class it targets)', () => {
  let real: AdaptiveReport;

  it('every mutant names classes, and the real gate does no harm on any of them', async () => {
    for (const mutant of MUTANTS) expect(pagesOf(mutant).length, mutant).toBe(MUTANT_TARGETS[mutant].length);
    const targeted = pages.filter((p) => MUTANTS.some((m) => MUTANT_TARGETS[m].includes(p.cls)));
    real = await runAdaptive({ mode: 'unapproved-only', attacks: targeted, benign: [], attacker });
    for (const mutant of MUTANTS) {
      const figures = perPage({ ...real, attacks: real.attacks.filter((a) => MUTANT_TARGETS[mutant].includes(a.cls as never)) }, mutant);
      expect(Object.values(figures).every((f) => f === 0), `${mutant}: ${JSON.stringify(figures)}`).toBe(true);
    }
  }, 600_000);

  it.each(MUTANTS.map((m) => [m]))('%s does harm on every class it targets', async (mutant) => {
    const r = await runAdaptive({ mode: 'unapproved-only', mutant, attacks: pagesOf(mutant), benign: [], attacker });
    const figures = perPage(r, mutant);
    expect(Object.keys(figures).sort()).toEqual([...MUTANT_TARGETS[mutant]].sort());
    for (const [cls, figure] of Object.entries(figures)) expect(figure, `${mutant} on ${cls}`).toBeGreaterThan(0);
  }, 300_000);
});
