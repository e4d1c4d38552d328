/**
 * A small profile site for replay tests, written for them: a home page with a
 * "Profile" link and a "Help" link (a detour), a profile page with a
 * "Display name" field and a "Save" button. Variants rename the button, add a
 * second one, open a dialog, or move the field to another page type.
 */
import { AgentController, type AgentDeps } from '../../src/core/agent/agent-controller.ts';
import { InMemoryEpisodeStore } from '../../src/core/episode/episode-store.ts';
import type { Episode } from '../../src/core/episode/episode.ts';
import { InMemoryExperienceStore } from '../../src/learners/cer/core/experience-store.ts';
import { InMemoryLearnerDataStore } from '../../src/core/learning/in-memory/in-memory-learner-data-store.ts';
import { buildLearners, procedureKnowledge } from '../../src/core/learning/registry/registry-factories.ts';
import { InMemoryStepRowStore } from '../../src/core/stores/in-memory-step-rows.ts';
import { formatTarget, parseAction } from '../../src/core/page/action-grammar.ts';
import type { Action, ActionResult } from '../../src/core/page/action.ts';
import type { ObserveOptions, PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import type { CandidatePolicy } from '../../src/core/policy/policy.ts';
import type { PageDriver } from '../../src/core/ports.ts';
import { seededRandom } from '../../src/core/random.ts';
import { ProcedureLibrary } from '../../src/core/replay/procedure-library.ts';
import type { ReplayPort } from '../../src/core/replay/replay-port.ts';
import { DEFAULT_SETTINGS, type Settings } from '../../src/core/settings.ts';
import { testLearnerStores } from '../support/learner-stores.ts';

const node = (ref: string, role: string, name: string, depth = 0): SnapshotNode => ({ ref, kind: 'interactive', role, name, states: {}, depth, inViewport: true });

export interface SiteVariant {
  saveName?: string;
  twoSaveButtons?: boolean;
  dialog?: boolean;
  /** The field lives on /account instead of /profile (a different page type). */
  movedField?: boolean;
  /** The field and Save sit in a form posting here (absent: no form). */
  formAction?: string;
}

export class ProfileSite implements PageDriver {
  at: 'home' | 'help' | 'profile' = 'home';
  typed = '';
  saved: string | null = null;
  acted: Action[] = [];
  /** What each read of the page was asked to wait for (the plan's next target), in order. */
  waitedFor: (string | null)[] = [];
  constructor(public variant: SiteVariant = {}) {}
  private nodes(): SnapshotNode[] {
    if (this.at === 'home') return [node('1', 'link', 'Profile'), node('2', 'link', 'Help')];
    if (this.at === 'help') return [node('3', 'link', 'Home')];
    const save = this.variant.saveName ?? 'Save';
    const form = this.variant.formAction !== undefined ? { inForm: true, formAction: this.variant.formAction, formMethod: 'post' } : {};
    const out = [{ ...node('4', 'textbox', 'Display name'), ...form }, { ...node('5', 'button', save), ...form }, node('6', 'link', 'Home')];
    if (this.variant.twoSaveButtons) out.push(node('7', 'button', save));
    if (this.variant.dialog) out.push({ ref: null, kind: 'landmark', role: 'dialog', name: 'Cookies', states: {}, depth: 0, inViewport: true }, node('8', 'button', 'Accept', 1));
    return out;
  }
  async observe(options: ObserveOptions = {}): Promise<PageObservation> {
    this.waitedFor.push(options.waitFor ? formatTarget(options.waitFor) : null);
    const path = this.at === 'home' ? '/' : this.at === 'help' ? '/help' : this.variant.movedField ? '/account' : '/profile';
    return {
      url: `https://profile.test${path}`, title: this.at, nodes: this.nodes(), focusedRef: null,
      offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 800 }, tookMs: 1,
    };
  }
  async act(action: Action): Promise<ActionResult> {
    this.acted.push(action);
    const ref = 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
    if (ref === '1') this.at = 'profile';
    else if (ref === '2') this.at = 'help';
    else if (ref === '3' || ref === '6') this.at = 'home';
    else if (ref === '4' && action.type === 'fill') this.typed = action.text;
    else if (ref === '5' || ref === '7') this.saved = this.typed;
    return { ok: true, navigated: ref === '1' || ref === '2' || ref === '3' || ref === '6' };
  }
}

/** Does the task by page; with `detour`, visits Help and comes back first. Counts its calls. */
export function profilePolicy(options: { detour?: boolean } = {}): CandidatePolicy & { calls: number } {
  const policy = {
    id: 'scripted',
    calls: 0,
    async propose(input: Parameters<CandidatePolicy['propose']>[0]) {
      policy.calls++;
      const value = /"([^"]+)"/.exec(input.task)?.[1] ?? '';
      const names = input.observation.nodes.map((n) => n.name);
      const ref = (name: string) => input.observation.nodes.find((n) => n.name === name && n.ref)?.ref ?? '0';
      const wentToHelp = input.history.some((h) => h.action.includes('"Help"'));
      let text: string;
      if (names.includes('Help')) text = options.detour && !wentToHelp ? `click([${ref('Help')}])` : `click([${ref('Profile')}])`;
      else if (names.includes('Display name')) {
        const filled = input.history.some((h) => h.action.startsWith('fill('));
        const saveRef = input.observation.nodes.find((n) => n.role === 'button' && /save/i.test(n.name))?.ref ?? '0';
        text = filled ? `click([${saveRef}])` : `fill([${ref('Display name')}], "${value}")`;
      } else text = `click([${ref('Home')}])`;
      const parsed = parseAction(text);
      if (!parsed.ok) throw parsed.error;
      return { candidates: [{ action: parsed.action, logit: 1 }], logitSource: 'offline' as const, usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
  return policy;
}

export const argmax: Settings = { ...DEFAULT_SETTINGS, agent: { ...DEFAULT_SETTINGS.agent, selection: 'argmax' } };

export function replayWorld(options: { approvePlans?: boolean; replay?: boolean; detour?: boolean; port?: ReplayPort; policy?: CandidatePolicy } = {}) {
  let t = 1_000;
  const clock = { now: () => (t += 10) };
  const stores = { ...testLearnerStores({ memory: new InMemoryStepRowStore(), experiences: new InMemoryExperienceStore(), learnerData: new InMemoryLearnerDataStore() }), episodes: new InMemoryEpisodeStore() };
  const ports = { stores, settings: () => argmax, model: () => null, clock, random: seededRandom(7) };
  const learners = buildLearners(ports, { ids: ['jitrl', 'cer'] }).map((b) => b.learner);
  // Replay reads the learners' knowledge through the registry, as the background wires it.
  const library = new ProcedureLibrary({ knowledge: procedureKnowledge(ports), episodes: stores.episodes, learnerData: stores.learnerData }, clock, { approvePlans: options.approvePlans ?? true });
  let site = new ProfileSite();
  let policy = profilePolicy({ detour: options.detour ?? false });
  let id = 0;
  const deps: AgentDeps = {
    episodes: stores.episodes,
    pageFor: () => site,
    policy: () => options.policy ?? policy,
    learners: () => learners,
    evaluator: () => null,
    settings: () => argmax,
    clock,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    newId: () => `ep-${++id}`,
    ...(options.replay === false ? {} : { replay: options.port ?? library }),
  };
  const controller = new AgentController(deps);
  return {
    controller, library, stores,
    site: () => site,
    policy: () => policy,
    fresh(variant: SiteVariant = {}, policyOptions: { detour?: boolean } = {}) {
      site = new ProfileSite(variant);
      policy = profilePolicy(policyOptions);
    },
    /** One attempt, the benchmark's way: approve every proposal, then the verdict from the page. */
    async attempt(name: string, variant: SiteVariant = {}, policyOptions: { detour?: boolean } = {}): Promise<Episode> {
      this.fresh(variant, policyOptions);
      let ep = await controller.start({ task: `Set the display name to "${name}"`, startUrl: 'https://profile.test/', tabId: null, kind: 'bench' });
      for (let i = 0; i < 12 && ep.status === 'awaiting_approval'; i++) {
        if (site.saved === name) break;
        ep = await controller.decide(ep.id, { kind: 'approve' }, { auto: true });
      }
      return controller.finish(ep.id, site.saved === name ? 'success' : 'failure');
    },
  };
}

export const executed = (ep: Episode): string[] => ep.steps.filter((s) => s.chosen).map((s) => s.chosen!.semantic);
