/**
 * Older stored episodes (IndexedDB rows, export archives) kept a learner's
 * evidence as fields of the step and of each candidate, or as a list in its
 * step evidence with one entry per candidate. A learner's definition names
 * those fields (`formerFields`); on load they move under `evidence[learnerId]`
 * of the step or of the candidate, values unchanged, before the record is
 * validated with EpisodeSchema. Records already in the current format pass
 * through.
 */
import type { LearnerDefinition } from './learner-definition.ts';

type Former = Pick<LearnerDefinition, 'id' | 'formerFields'>;
type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Moves `fields` of `row` (those present) under `row.evidence[id]`; the row itself when it has none of them. */
function moveUnder(row: Row, id: string, fields: readonly string[]): Row {
  const present = fields.filter((f) => f in row);
  if (present.length === 0) return row;
  const out: Row = { ...row };
  const moved: Row = {};
  for (const f of present) {
    moved[f] = out[f];
    delete out[f];
  }
  const evidence = isRow(out.evidence) ? out.evidence : {};
  // A record that already has this learner's evidence keeps it; the former fields then add nothing new.
  out.evidence = id in evidence ? evidence : { ...evidence, [id]: moved };
  return out;
}

/**
 * Moves each `{ semantic, ...rest }` entry of the lists `fields` in the
 * step's `evidence[id]` to `evidence[id]` of the candidate with that semantic
 * form (its id within the step), as `rest`. A candidate that already has this
 * learner's evidence keeps it. An entry for a candidate the step did not
 * store has nowhere to go and is dropped (no record writes one: the lists
 * were made over the stored candidates).
 */
function spreadToCandidates(step: Row, id: string, fields: readonly string[]): Row {
  const evidence = isRow(step.evidence) ? step.evidence : null;
  const own = evidence && isRow(evidence[id]) ? evidence[id] : null;
  const present = own ? fields.filter((f) => Array.isArray(own[f])) : [];
  if (!evidence || !own || present.length === 0) return step;
  const remaining: Row = { ...own };
  const bySemantic = new Map<string, Row>();
  for (const f of present) {
    for (const entry of own[f] as unknown[]) {
      if (!isRow(entry) || typeof entry.semantic !== 'string') continue;
      const { semantic, ...rest } = entry;
      bySemantic.set(semantic, { ...bySemantic.get(semantic), ...rest });
    }
    delete remaining[f];
  }
  const candidates = Array.isArray(step.candidates)
    ? step.candidates.map((c) => {
      const moved = isRow(c) && typeof c.semantic === 'string' ? bySemantic.get(c.semantic) : undefined;
      if (!isRow(c) || moved === undefined) return c;
      const has = isRow(c.evidence) ? c.evidence : {};
      return id in has ? c : { ...c, evidence: { ...has, [id]: moved } };
    })
    : step.candidates;
  return { ...step, evidence: { ...evidence, [id]: remaining }, candidates };
}

/** One stored step in the current format (anything that is not a step object is returned as it is, for the schema to reject). */
export function upgradeStoredStep(step: unknown, learners: readonly Former[]): unknown {
  if (!isRow(step)) return step;
  let out = step;
  for (const { id, formerFields } of learners) {
    if (!formerFields) continue;
    out = moveUnder(out, id, formerFields.step ?? []);
    if (Array.isArray(out.candidates)) {
      const candidates = out.candidates.map((c) => (isRow(c) ? moveUnder(c, id, formerFields.candidate ?? []) : c));
      if (candidates.some((c, i) => c !== (out.candidates as unknown[])[i])) out = { ...out, candidates };
    }
    out = spreadToCandidates(out, id, formerFields.perCandidate ?? []);
  }
  return out;
}

/** One stored episode with every step in the current format. */
export function upgradeStoredEpisode(episode: unknown, learners: readonly Former[]): unknown {
  if (!isRow(episode) || !Array.isArray(episode.steps)) return episode;
  const steps = episode.steps.map((s) => upgradeStoredStep(s, learners));
  return steps.some((s, i) => s !== (episode.steps as unknown[])[i]) ? { ...episode, steps } : episode;
}
