/**
 * Meta-TTL Algorithm 2, evolutionary meta-training of the adaptation
 * strategy, written against two ports (run a TTL session; propose a revised
 * strategy) and a checkpoint. Budget counts evaluations, one per TTL session
 * of K attempts. An iteration starts only when the budget can pay for all of
 * it (parent session, local validation, global validation), so a candidate is
 * never half-validated.
 */
import { seededRandom } from '../../src/core/random.ts';
import { CheckpointError, type CheckpointStore, type IterationRecord, type MetaTrainConfig, type MetaTrainState } from './meta-train-checkpoint.ts';
import { initialPool, sampleParent, selectExpert, updatePool, type MetaCandidate, type Selection } from './meta-train-pool.ts';
import type { ProposalResult } from './meta-train-propose.ts';
import type { RunSession, SessionResult } from './meta-train-session.ts';

export type Propose = (input: { parent: MetaCandidate; session: SessionResult; iteration: number }) => Promise<ProposalResult>;

export type MetaTrainEvent =
  | { kind: 'session'; label: string; taskId: string; result: SessionResult }
  | { kind: 'iteration'; record: IterationRecord };

export interface MetaTrainDeps {
  config: MetaTrainConfig;
  runSession: RunSession;
  propose: Propose;
  checkpoint: CheckpointStore;
  /** Continue from the checkpoint (default), or start over. */
  fresh?: boolean;
  onEvent?: (event: MetaTrainEvent, state: MetaTrainState) => void;
}

export interface MetaTrainOutcome {
  state: MetaTrainState;
  selection: Selection;
  selected: MetaCandidate;
  seed: MetaCandidate;
}

/** Evaluations one iteration may need. */
export const iterationCost = (config: MetaTrainConfig): number => 2 + config.val.length;

function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function checkBudget(config: MetaTrainConfig): void {
  if (config.budget < config.val.length + iterationCost(config)) {
    throw new CheckpointError(
      `--budget ${config.budget} is too small: scoring the seed on the ${config.val.length} validation task(s) takes ${config.val.length} evaluations and one iteration up to ${iterationCost(config)} more (at least ${config.val.length + iterationCost(config)})`,
    );
  }
}

function sameConfig(a: MetaTrainConfig, b: MetaTrainConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function newState(config: MetaTrainConfig): MetaTrainState {
  return {
    version: 1, config, evaluations: 0, iteration: 0, seeded: false,
    candidates: [{ id: 'seed', strategy: config.seedStrategy, parentId: null, iteration: 0, val: null, valUnpadded: null }],
    pool: {}, inFlight: null, history: [], done: false,
  };
}

export async function metaTrain(deps: MetaTrainDeps): Promise<MetaTrainOutcome> {
  const { config } = deps;
  checkBudget(config);
  let state = deps.fresh ? null : await deps.checkpoint.load();
  if (state && !sameConfig(state.config, config)) {
    throw new CheckpointError('the checkpoint was written for other settings (suite, tasks, budget, attempts, seed, selection, seed strategy or model); pass --fresh to start over, or --checkpoint another path');
  }
  const s: MetaTrainState = state ?? newState(config);
  const save = () => deps.checkpoint.save(s);
  const byId = (id: string): MetaCandidate => {
    const c = s.candidates.find((x) => x.id === id);
    if (!c) throw new CheckpointError(`the checkpoint names an unknown candidate ${id}`);
    return c;
  };

  /** One evaluation, reused when the checkpoint already holds it. */
  const session = async (label: string, strategy: string, taskId: string): Promise<SessionResult> => {
    const flight = s.inFlight!;
    const done = flight.sessions[label];
    if (done) return done;
    const result = await deps.runSession({ strategy, taskId, label });
    flight.sessions[label] = result;
    s.evaluations++;
    await save();
    deps.onEvent?.({ kind: 'session', label, taskId, result }, s);
    return result;
  };

  // Line 1: the pool starts from the seed φ0 scored on every validation task.
  if (!s.seeded) {
    s.inFlight ??= { iteration: 0, sessions: {}, proposal: null };
    const seed = byId('seed');
    const val: Record<string, number> = {};
    const unpadded: Record<string, number> = {};
    for (const h of config.val) {
      const r = await session(`init:${h}`, seed.strategy, h);
      val[h] = r.padded;
      unpadded[h] = r.unpadded;
    }
    seed.val = val;
    seed.valUnpadded = unpadded;
    s.pool = initialPool(seed, config.val);
    s.seeded = true;
    s.inFlight = null;
    await save();
  }

  while (s.inFlight !== null || s.evaluations + iterationCost(config) <= config.budget) {
    const t = s.inFlight?.iteration ?? s.iteration + 1;
    s.inFlight ??= { iteration: t, sessions: {}, proposal: null };
    // Line 3: the same draws on resume, because they depend on (seed, t) only.
    const random = seededRandom(fnv(`${config.seed}:${t}`));
    const parent = byId(sampleParent(s.pool, config.val, random.next()));
    const g = config.train[Math.min(config.train.length - 1, Math.floor(random.next() * config.train.length))]!;
    const record: IterationRecord = { iteration: t, parentId: parent.id, taskId: g, parentScore: 0, candidateId: null, candidateScore: null, outcome: 'proposal-dropped', won: [], note: '' };

    const parentRun = await session('parent', parent.strategy, g); // line 4
    record.parentScore = parentRun.padded;
    if (s.inFlight.proposal === null) {
      const proposed = await deps.propose({ parent, session: parentRun, iteration: t }); // line 5
      // A dropped proposal keeps only its reason: nothing of the answer is stored.
      s.inFlight.proposal = proposed.ok ? { strategy: proposed.proposal.strategy, analysis: proposed.proposal.analysis } : { dropped: proposed.error };
      await save();
    }
    const proposal = s.inFlight.proposal;
    if ('strategy' in proposal) {
      const candidate: MetaCandidate = { id: `c${t}`, strategy: proposal.strategy, parentId: parent.id, iteration: t, val: null, valUnpadded: null };
      record.candidateId = candidate.id;
      const local = await session('candidate', candidate.strategy, g); // line 6
      record.candidateScore = local.padded;
      if (local.padded <= parentRun.padded) {
        record.outcome = 'no-local-improvement'; // lines 8–9
        record.note = `W-AUC on ${g}: ${local.padded.toFixed(3)} ≤ parent ${parentRun.padded.toFixed(3)}`;
      } else {
        const val: Record<string, number> = {};
        const unpadded: Record<string, number> = {};
        for (const h of config.val) {
          const r = await session(`val:${h}`, candidate.strategy, h); // lines 11–13
          val[h] = r.padded;
          unpadded[h] = r.unpadded;
        }
        candidate.val = val;
        candidate.valUnpadded = unpadded;
        const updated = updatePool(s.pool, candidate); // lines 14–16
        s.pool = updated.pool;
        record.won = updated.won;
        record.outcome = 'validated';
        s.candidates.push(candidate);
      }
    } else {
      record.note = proposal.dropped;
    }
    s.history.push(record);
    s.iteration = t;
    s.inFlight = null;
    await save();
    deps.onEvent?.({ kind: 'iteration', record }, s);
  }

  const selection = selectExpert(s.pool, s.candidates, config.val, config.selection); // line 19
  s.done = true;
  await save();
  return { state: s, selection, selected: byId(selection.selectedId), seed: byId('seed') };
}
