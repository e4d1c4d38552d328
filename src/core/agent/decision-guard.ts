/**
 * The checks that make an approval mean exactly the action shown, once:
 * - a decision names the step and candidate it answers; anything else is refused;
 * - at act time the element is re-read: same origin, same role and name, and
 *   the same link, form action and method and submit behaviour as when the
 *   person saw it (target-fingerprint.ts), or the action does not run;
 * - one decision at a time per episode (two approvals sent at once run one action);
 * - secrets typed by an action are masked in everything stored, and the real
 *   text lives only in memory until the action runs.
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import type { Action } from '../page/action.ts';
import type { PageObservation } from '../page/observation.ts';
import { maskedAction, redactValues, type TypedSecret } from '../secrets/mask-secrets.ts';
import { secretKindOf } from '../secrets/secret-fields.ts';
import { kindOfMask } from '../secrets/secret-kinds.ts';
import { pageActionOf, type Candidate } from '../learning/candidate.ts';
import type { CandidateRecord, StepRecord } from '../episode/episode.ts';
import { fingerprintChanges, fingerprintOf, type TargetFingerprint } from '../page/target-fingerprint.ts';
import { focusedNode } from '../page/node-acted-on.ts';

/** What a decision says it answers (the UI always sends it; the core's own callers may omit it). */
export interface DecisionTarget {
  step?: number | undefined;
  candidate?: string | undefined;
}

/** Why the decision does not match the pending step, or null when it does. */
export function decisionMismatch(pending: StepRecord, named: DecisionTarget, chosen: CandidateRecord | null): string | null {
  if (named.step !== undefined && named.step !== pending.index) {
    return `this decision was for step ${named.step + 1}, but step ${pending.index + 1} is pending now; look at the new proposal`;
  }
  if (named.candidate !== undefined && chosen !== null && named.candidate !== chosen.semantic) {
    return `the proposal changed since it was shown: it is ${chosen.semantic} now, not ${named.candidate}`;
  }
  if (named.candidate !== undefined && chosen === null) return 'no such candidate';
  return null;
}

const normalized = (s: string): string => s.replace(/\s+/g, ' ').trim();

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Why an action shown on `shownOnUrl` may not run on `nowUrl` (another origin), or null. */
export function originChange(shownOnUrl: string, nowUrl: string): string | null {
  const shownOrigin = originOf(shownOnUrl);
  const nowOrigin = originOf(nowUrl);
  return shownOrigin !== nowOrigin ? `the page is on ${nowOrigin ?? nowUrl} now, not ${shownOrigin ?? shownOnUrl} where the action was shown` : null;
}

/**
 * Re-reads the element an approved action targets on the page as it is now.
 * `semantic` is the form the person saw (`click(<button "Pay">)`); the ref in
 * `action` must still name that role and name, on the same origin, and —
 * when `expected` is known — link to the same URL, sit in a form going to the
 * same place by the same method, and submit or not as it did.
 */
export function targetChanged(action: Action, semantic: string, now: PageObservation, shownOnUrl: string, expected: TargetFingerprint | null = null): string | null {
  const elsewhere = originChange(shownOnUrl, now.url);
  if (elsewhere !== null) return elsewhere;
  if (action.type === 'press' && !action.target) return focusChanged(now, expected);
  if (!('target' in action) || !action.target || action.target.kind !== 'ref') return null;
  const ref = action.target.ref;
  const shown = parseAction(semantic);
  const named = shown.ok && 'target' in shown.action && shown.action.target?.kind === 'semantic' ? shown.action.target : null;
  const node = now.nodes.find((n) => n.ref === ref);
  if (!node) return `[${ref}] is not on the page any more`;
  if (named && (node.role !== named.role || normalized(node.name) !== normalized(named.name))) {
    return `[${ref}] is ${node.role} "${node.name}" now, not ${named.role} "${named.name}" as shown`;
  }
  if (expected) {
    const changes = fingerprintChanges(expected, fingerprintOf(node), 'exact');
    if (changes.length > 0) return `[${ref}] changed since it was shown: ${changes.join('; ')}`;
  }
  return null;
}

/** A press without a target goes to whatever has focus: it must still be the element approved (the page may move focus). */
function focusChanged(now: PageObservation, expected: TargetFingerprint | null): string | null {
  if (!expected) return null;
  const node = focusedNode(now);
  if (!node) return `${expected.role} "${expected.name}" does not have focus any more`;
  const changes = fingerprintChanges(expected, fingerprintOf(node), 'exact');
  return changes.length > 0 ? `the focused element changed since it was shown: ${changes.join('; ')}` : null;
}

/** A per-key queue: work for the same episode runs one at a time, in call order. */
export class EpisodeLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

/** Proposed candidates with their typed secrets masked, and what was hidden. */
export interface MaskedProposal {
  candidates: Candidate[];
  /** The real action (ref form) by the masked candidate's semantic form, for the moment the person approves it. */
  real: Map<string, string>;
  typed: TypedSecret[];
}

/**
 * The candidates as learners may see them: text typed into a secret field is
 * its mask (two candidates that differ only in the secret become one, with
 * the better logit). The real actions wait in memory until approved.
 */
export function maskProposedSecrets(candidates: readonly Candidate[], observation: PageObservation): MaskedProposal {
  const out: Candidate[] = [];
  const at = new Map<string, number>();
  const real = new Map<string, string>();
  const typed: TypedSecret[] = [];
  for (const c of candidates) {
    const masked = maskedAction(c.action, observation);
    if (!masked) {
      out.push(c);
      continue;
    }
    typed.push(masked.secret);
    const maskedCandidate: Candidate = { ...c, ...pageActionOf(masked.action, observation) };
    const seen = at.get(maskedCandidate.semantic);
    if (seen !== undefined && out[seen]!.baseLogit >= c.baseLogit) continue;
    real.set(maskedCandidate.semantic, formatAction(c.action));
    if (seen !== undefined) out[seen] = maskedCandidate;
    else {
      at.set(maskedCandidate.semantic, out.length);
      out.push(maskedCandidate);
    }
  }
  return { candidates: out, real, typed };
}

/**
 * The step as it may be stored, with every candidate that types a secret
 * masked, and the real actions (by candidate semantic form, masked) kept
 * aside for the moment the person approves one. `hidden`: values masked
 * earlier (maskProposedSecrets), masked too wherever notes or evidence quote them.
 */
export function maskStepSecrets(step: StepRecord, observation: PageObservation, hidden: readonly TypedSecret[] = []): { step: StepRecord; secrets: Map<string, string> } {
  const secrets = new Map<string, string>();
  const typed: TypedSecret[] = [...hidden];
  const candidates = step.candidates.map((c) => {
    const parsed = parseAction(c.action);
    const masked = parsed.ok ? maskedAction(parsed.action, observation) : null;
    if (!masked) return c;
    typed.push(masked.secret);
    const semantic = maskedSemantic(c.semantic, observation) ?? c.semantic;
    secrets.set(semantic, c.action);
    return { ...c, action: formatAction(masked.action), semantic };
  });
  if (typed.length === 0) return { step, secrets };
  // Learners' evidence and notes may quote the candidates: the values go there too (as they appear inside JSON).
  const inJson = typed.map((t) => ({ ...t, value: JSON.stringify(t.value).slice(1, -1) }));
  const redact = <T>(value: T): T => JSON.parse(redactValues(JSON.stringify(value), inJson)) as T;
  return {
    step: {
      ...step,
      candidates,
      learningNotes: redact(step.learningNotes),
      ...(step.evidence !== undefined ? { evidence: redact(step.evidence) } : {}),
    },
    secrets,
  };
}

/** The semantic form with a typed secret masked, or null when it types none. */
function maskedSemantic(semantic: string, observation: PageObservation): string | null {
  const parsed = parseAction(semantic);
  const masked = parsed.ok ? maskedAction(parsed.action, observation) : null;
  return masked ? formatAction(masked.action) : null;
}

/** An edited action typed by the person: what to store (masked) and what to run. */
export function maskEdited(action: Action, semantic: string, observation: PageObservation): { stored: { action: string; semantic: string }; run: Action } {
  const masked = maskedAction(action, observation);
  if (!masked) return { stored: { action: formatAction(action), semantic }, run: action };
  const stored = formatAction(masked.action);
  return { stored: { action: stored, semantic: maskedSemantic(semantic, observation) ?? stored }, run: action };
}

/** The candidate types a mask into a field that holds that kind of secret (by its role, name and input type): only there does a secret from the task go. */
export function typesTaskSecret(candidate: CandidateRecord): boolean {
  const parsed = parseAction(candidate.semantic);
  if (!parsed.ok || parsed.action.type !== 'fill' || parsed.action.target.kind !== 'semantic') return false;
  const { role, name } = parsed.action.target;
  const kind = secretKindOf({ role, name, inputType: candidate.target?.inputType }, true);
  return kind !== null && kindOfMask(parsed.action.text) === kind;
}
