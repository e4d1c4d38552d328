/**
 * The carry benchmark with two members, through a real team server
 * (pouchdb-server on loopback): member A is taught the first instance of
 * each template; A's memory goes to the server and into member B's through
 * team sync (the same publish, replicate and merge the extension runs); B
 * then runs the later instances alone. Compared with B learning alone (the
 * same later instances, empty memory) and with A's own later instances
 * alone after its teaching. With `--corrections`, B's later instances are
 * also run with the teacher, counting the corrections B needed.
 *
 * `npm run bench:team -- --carry [--profile full|quick] [--learners <ids>]` (default: the registry's showcase configuration)
 */
import { resolve } from 'node:path';
import { markdownTable } from 'markdown-table';
import { freshSet, runBench, selectTasks, type BenchOptions, type LearnerSet } from './bench-runner.ts';
import type { AttemptRecord } from './metrics.ts';
import { loadSuite, resolveTasks, type Suite } from './suite.ts';
import { startTeamServer } from '../test/support/pouchdb-server.ts';
import { teamProfile } from '../test/support/team-profile.ts';

export interface CarryFigures {
  learners: string;
  templates: number;
  laterInstances: number;
  aOwnLaterSuccess: number;
  bSharedSuccess: number;
  bAloneSuccess: number;
  bSharedCorrections: number | null;
  bAloneCorrections: number | null;
  shared: { published: number; imported: number; refused: number; held: number };
}

const successes = (records: readonly AttemptRecord[]) => records.filter((r) => r.outcome === 'success').length;
const corrections = (records: readonly AttemptRecord[]) => records.reduce((n, r) => n + (r.teaching ? r.teaching.picks + r.teaching.edits : 0), 0);

export async function runTeamCarry(options: { profile: string; learners: string; withCorrections: boolean }): Promise<CarryFigures> {
  const inner = await loadSuite(resolve(import.meta.dirname, 'suites/apprentice-sites/index.ts'));
  const started = await inner.start?.();
  // One set of site servers for every run: the members share the same origins.
  const suite: Suite = { ...inner, start: async () => started, stop: async () => undefined };
  const couch = await startTeamServer();
  try {
    const tasks = selectTasks(suite, resolveTasks(suite, { baseUrl: started?.baseUrl ?? '' }), options.profile, '');
    const seen = new Map<string, number>();
    const instance = new Map(tasks.map((t) => {
      const key = t.template ?? t.id;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      return [t.id, seen.get(key)!];
    }));
    const first = tasks.filter((t) => instance.get(t.id) === 1 && t.template).map((t) => t.id);
    const later = tasks.filter((t) => (instance.get(t.id) ?? 1) > 1).map((t) => t.id);
    const base: Omit<BenchOptions, 'taskIds'> = {
      suite, learners: [options.learners], attempts: 1, policy: 'offline', noise: 1, seed: 0, memory: 'carry',
      profile: options.profile, taskFilter: '', progress: false,
    };
    const run = async (taskIds: string[], set: () => LearnerSet, taught: boolean) =>
      (await runBench({ ...base, taskIds, learnerSet: set, ...(taught ? { teachWhen: () => true } : {}) })).records;

    // A: taught on the first instances; then A's own figure over every instance (taught first, later alone).
    const setA = freshSet();
    await run(first, () => setA, true);
    const aOwn = (await runBench({ ...base, taskIds: tasks.map((t) => t.id), teachWhen: ({ instance: n }) => n === 1 })).records.filter((r) => (r.instance ?? 1) > 1);

    // Through the server: A publishes, B pulls and merges.
    await couch.createDatabase('carry');
    const server = { url: couch.url, database: 'carry', auth: couch.admin };
    const origins = [...new Set(tasks.map((t) => new URL(t.startUrl).origin))];
    const a = teamProfile({ me: { id: 'member-a-0001', name: 'A' }, server, sharedSites: origins, stores: { ...setA.stores, episodes: setA.episodes } });
    const published = await a.sync();
    // A fresh member B each time, merged from the server as the extension merges.
    const memberB = async () => {
      const setB = freshSet();
      const b = teamProfile({ me: { id: 'member-b-0002', name: 'B' }, server, sharedSites: origins, stores: { ...setB.stores, episodes: setB.episodes } });
      return { setB, merged: await b.sync() };
    };
    const { setB, merged } = await memberB();
    const bShared = await run(later, () => setB, false);
    const bAlone = await run(later, freshSet, false);
    const again = options.withCorrections ? (await memberB()).setB : null;
    const bSharedTaught = again ? await run(later, () => again, true) : null;
    const bAloneTaught = options.withCorrections ? await run(later, freshSet, true) : null;
    return {
      learners: options.learners, templates: first.length, laterInstances: later.length,
      aOwnLaterSuccess: successes(aOwn), bSharedSuccess: successes(bShared), bAloneSuccess: successes(bAlone),
      bSharedCorrections: bSharedTaught ? corrections(bSharedTaught) : null, bAloneCorrections: bAloneTaught ? corrections(bAloneTaught) : null,
      shared: { published: published.published.put, imported: merged.merge.imported, refused: merged.merge.refused.length, held: merged.merge.held.length },
    };
  } finally {
    await couch.stop();
    await inner.stop?.();
  }
}

export function carryMarkdown(f: CarryFigures): string {
  const pct = (n: number) => `${n}/${f.laterInstances} (${f.laterInstances ? Math.round((100 * n) / f.laterInstances) : 0}%)`;
  const ratio = f.aOwnLaterSuccess > 0 ? f.bSharedSuccess / f.aOwnLaterSuccess : null;
  return [
    `## Carry with two members (${f.learners}, offline policy): A taught the first instance of ${f.templates} templates; B runs the ${f.laterInstances} later instances alone`,
    '',
    markdownTable([
      ['who', 'later instances alone: success', 'corrections needed (taught run)'],
      ['A, after its own teaching', pct(f.aOwnLaterSuccess), '—'],
      ['B with A\'s shared memory', pct(f.bSharedSuccess), f.bSharedCorrections === null ? 'not run' : String(f.bSharedCorrections)],
      ['B learning alone', pct(f.bAloneSuccess), f.bAloneCorrections === null ? 'not run' : String(f.bAloneCorrections)],
    ]),
    '',
    `Shared through the server: A published ${f.shared.published} documents; B merged ${f.shared.imported}, refused ${f.shared.refused}, held ${f.shared.held} for review.`,
    `Target: B's success with shared memory ≥ 90% of A's own after teaching: ${ratio === null ? 'A solved none (no ratio)' : `${Math.round(ratio * 100)}% — ${ratio >= 0.9 ? 'met' : 'MISSED'}`}.`,
  ].join('\n');
}
