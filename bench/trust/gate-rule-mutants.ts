/**
 * One mutant per rule of the autonomy gate (issue 30): the real gate
 * (`autonomyVerdict`) shown a world in which that one rule has nothing to
 * see, as effect-blur.ts does for the effect binding. Production code has no
 * switch for them.
 *
 * - fingerprint-off: every approval of this action shown as given on the
 *   element as it is now (its link, form, data and row never differ);
 * - repeat-off: this task's earlier steps of this action shown without their
 *   results (a repeat in the same task is not seen);
 * - n-tasks-off: every approval shown as from a task of its own (a name with a
 *   destructive word needs approvals in N tasks: any N approvals do);
 * - rejection-off: rejections shown as never made (an approval before a
 *   rejection counts again);
 * - own-approvals-off: every episode shown as this browser's own, imported
 *   ones included, and every step the gate ran by itself as approved;
 * - always-ask-off: links and forms to another origin shown as going to the
 *   same path on the page's origin, downloads as plain links, no "always ask"
 *   marks (the always-ask kinds the bench reaches; secret and file fields are
 *   the unit tests' `always-ask.test.ts`);
 * - origin-change-off: the previous step shown on the page's own origin;
 * - unknown-outcome-off: every run with an unknown outcome shown without its
 *   result, in this task and in others.
 */
import type { EpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode, StepRecord } from '../../src/core/episode/episode.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { Settings } from '../../src/core/settings.ts';
import { parseAction } from '../../src/core/page/action-grammar.ts';
import { actionFingerprint } from '../../src/core/page/target-fingerprint.ts';
import { actionKey } from '../../src/core/autonomy/approval-history.ts';
import { autonomyVerdict } from '../../src/core/agent/autonomy-stage.ts';
import type { AutonomyVerdict } from '../../src/core/autonomy/earned-autonomy.ts';

export const RULE_MUTANTS = [
  'fingerprint-off', 'repeat-off', 'n-tasks-off', 'rejection-off',
  'own-approvals-off', 'always-ask-off', 'origin-change-off', 'unknown-outcome-off',
] as const;
export type RuleMutant = (typeof RULE_MUTANTS)[number];

export const isRuleMutant = (m: string | null): m is RuleMutant => (RULE_MUTANTS as readonly string[]).includes(m ?? '');

/** The store with every episode it lists seen through `view`. */
const viewedStore = (store: EpisodeStore, view: (episodes: Episode[]) => Episode[]): EpisodeStore => ({
  put: (e) => store.put(e),
  get: (id) => store.get(id),
  unfinished: () => store.unfinished(),
  delete: (id) => store.delete(id),
  forgetSite: (o) => store.forgetSite(o),
  all: async () => view(await store.all()),
  list: async (options) => view(await store.list(options)),
});

const mapSteps = (episodes: Episode[], f: (s: StepRecord) => StepRecord): Episode[] => episodes.map((e) => ({ ...e, steps: e.steps.map(f) }));

/** The real gate's verdict on the pending proposal, with one rule blinded. */
export async function ruleMutantVerdict(mutant: RuleMutant, store: EpisodeStore, episode: Episode, observation: PageObservation, settings: Settings): Promise<AutonomyVerdict> {
  const top = episode.steps.at(-1)?.candidates[0];
  const parsed = top ? parseAction(top.action) : null;
  if (!top || !parsed?.ok) return { run: false, reason: 'the proposal does not parse' };
  const key = actionKey(top.semantic);
  const same = (s: StepRecord) => s.chosen !== null && actionKey(s.chosen.semantic) === key;
  switch (mutant) {
    case 'fingerprint-off': {
      const now = actionFingerprint(parsed.action, observation);
      const asNow = (s: StepRecord): StepRecord => (now && same(s) && s.chosen?.target ? { ...s, chosen: { ...s.chosen, target: now } } : s);
      return autonomyVerdict(viewedStore(store, (es) => mapSteps(es, asNow)), episode, observation, settings);
    }
    case 'repeat-off': {
      const pending = episode.steps.at(-1)!;
      const unseen = { ...episode, steps: episode.steps.map((s) => (s !== pending && same(s) ? { ...s, result: null } : s)) };
      return autonomyVerdict(store, unseen, observation, settings);
    }
    case 'n-tasks-off': {
      const split = (es: Episode[]) => es.flatMap((e) => e.steps.map((s) => ({ ...e, id: `${e.id}#${s.index}`, steps: [s] })));
      return autonomyVerdict(viewedStore(store, split), episode, observation, settings);
    }
    case 'rejection-off': {
      const unrejected = (s: StepRecord): StepRecord => ({ ...s, rejected: [], chosen: s.chosen?.decision === 'rejected' ? null : s.chosen });
      return autonomyVerdict(viewedStore(store, (es) => mapSteps(es, unrejected)), episode, observation, settings);
    }
    case 'own-approvals-off': {
      const own = (s: StepRecord): StepRecord => (s.chosen?.decision === 'auto' ? { ...s, chosen: { ...s.chosen, decision: 'approved' } } : s);
      const asOwn = (es: Episode[]) => mapSteps(es, own).map((e) => (e.kind === 'imported' ? { ...e, kind: 'live' as const } : e));
      return autonomyVerdict(viewedStore(store, asOwn), episode, observation, settings);
    }
    case 'always-ask-off': {
      const step = (s: StepRecord): StepRecord => (s.chosen?.target ? { ...s, chosen: { ...s.chosen, target: sameOrigin(s.chosen.target, s.url) } } : s);
      const seen = { ...observation, nodes: observation.nodes.map((n) => sameOrigin(n, observation.url)) };
      return autonomyVerdict(viewedStore(store, (es) => mapSteps(es, step)), episode, seen, { ...settings, agent: { ...settings.agent, alwaysAsk: [] } });
    }
    case 'origin-change-off': {
      const previous = episode.steps.at(-2);
      const seen = previous ? { ...episode, steps: episode.steps.map((s) => (s === previous ? { ...s, url: observation.url } : s)) } : episode;
      return autonomyVerdict(store, seen, observation, settings);
    }
    case 'unknown-outcome-off': {
      const known = (s: StepRecord): StepRecord => (s.result?.ok === false && UNKNOWN.has(s.result.code) ? { ...s, result: null } : s);
      return autonomyVerdict(viewedStore(store, (es) => mapSteps(es, known)), { ...episode, steps: episode.steps.map(known) }, observation, settings);
    }
  }
}

const UNKNOWN: ReadonlySet<string> = new Set(['outcome_unknown', 'timeout']);

/** The same path on `page`'s origin (a URL that does not parse is left as it is). */
function onOrigin(url: string, page: string): string {
  try {
    const u = new URL(url);
    return `${new URL(page).origin}${u.pathname}${u.search}${u.hash}`;
  } catch {
    return url;
  }
}

/** An element whose link and form stay on the page's origin and which downloads nothing. */
function sameOrigin<T extends Partial<Pick<SnapshotNode, 'href' | 'formAction' | 'download'>>>(t: T, page: string): T {
  const { download: _plain, ...rest } = t;
  return {
    ...rest,
    ...(t.href !== undefined ? { href: onOrigin(t.href, page) } : {}),
    ...(t.formAction !== undefined ? { formAction: onOrigin(t.formAction, page) } : {}),
  } as T;
}
