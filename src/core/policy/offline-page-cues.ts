/**
 * The offline policy's cues beyond single elements (offline-policy.ts): the
 * answer to a question the page shows, actions learners suggest or advise
 * against, scrolling and going back, and the step history (not repeating what
 * just ran or failed).
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { FINISH_ACTION } from '../page/action.ts';
import { isSettingAction } from '../page/action-vocabulary.ts';
import { resolveSemanticAction } from '../page/semantic-action.ts';
import type { PromptSection } from './policy.ts';
import { terms } from './task-intents.ts';
import { OFFLINE_WEIGHTS } from './offline-weights.ts';
import { extractAnswer, overlap } from './offline-cues.ts';
import type { OfflineReading, ScoreBoard } from './offline-reading.ts';

/**
 * The answer, when the task asks a question the page shows. A line counts by
 * its own words mostly, and by its heading / label context a little (a price
 * under the product's heading and a "Price" label).
 */
export function scoreAnswer(r: OfflineReading, board: ScoreBoard): void {
  const { intents, obs, context } = r;
  if (!intents.question || intents.question.focus.size === 0) return;
  const q = intents.question;
  let best: { text: string; score: number; order: number } | null = null;
  obs.nodes.forEach((n, order) => {
    const line = n.value && n.value !== n.name ? `${n.name}: ${n.value}` : n.name;
    const own = terms(line);
    const combined = new Set([...own, ...(context[order] ?? [])]);
    const coverage = overlap(q.focus, combined) / q.focus.size;
    if (coverage < 0.5) return;
    const answer = extractAnswer(line, q.kind);
    if (!answer) return;
    const score =
      OFFLINE_WEIGHTS.answer * (0.7 * (overlap(q.focus, own) / q.focus.size) + 0.3 * coverage) + (n.kind === 'interactive' ? -0.5 : 0);
    if (!best || score > best.score) best = { text: answer, score, order };
  });
  const found = best as { text: string; score: number; order: number } | null;
  if (found) board.put({ type: 'send_msg_to_user', text: found.text }, found.score, 'the page shows the answer', found.order);
}

/** Replayed experience: suggested actions that resolve on this page. */
export function addSuggested(r: OfflineReading, board: ScoreBoard, sections: readonly PromptSection[]): void {
  const { obs } = r;
  for (const section of sections) {
    for (const text of section.suggestedActions ?? []) {
      const parsed = parseAction(text);
      if (!parsed.ok) continue;
      const resolved = resolveSemanticAction(parsed.action, obs, { remembered: true });
      if (!resolved.ok) continue;
      const key = formatAction(resolved.action);
      const prev = board.scored.get(key);
      const reason = `suggested by ${section.id}`;
      if (prev) {
        prev.score += OFFLINE_WEIGHTS.suggested;
        prev.reasons.push(reason);
      } else {
        board.scored.set(key, { action: resolved.action, score: OFFLINE_WEIGHTS.suggested, reasons: [reason], order: obs.nodes.length });
      }
    }
  }
}

/** Learned contrasts (a library's rules): actions failed attempts took here and successful ones did not. */
export function addDiscouraged(r: OfflineReading, board: ScoreBoard, sections: readonly PromptSection[]): void {
  for (const section of sections) {
    for (const text of section.discouragedActions ?? []) {
      const parsed = parseAction(text);
      if (!parsed.ok) continue;
      const resolved = resolveSemanticAction(parsed.action, r.obs);
      if (!resolved.ok) continue;
      const prev = board.scored.get(formatAction(resolved.action));
      if (prev) {
        prev.score += OFFLINE_WEIGHTS.discouraged;
        prev.reasons.push(`advised against by ${section.id}`);
      }
    }
  }
}

/**
 * The finish candidate: "the task is done", always offered, below every
 * control, so the person can end the task with one approval and memory can
 * raise it where the person ended a task before (the value estimate adds it back
 * where it was taught). Once something ran, never before.
 */
export function addFinish(r: OfflineReading, board: ScoreBoard): void {
  if (r.history.some((h) => h.outcome === 'ok')) board.put(FINISH_ACTION, OFFLINE_WEIGHTS.finish, 'the task may be done', r.obs.nodes.length + 3);
}

/** Scrolling when more lies below, and going back once anything ran. */
export function addPageMoves(r: OfflineReading, board: ScoreBoard): void {
  const { obs } = r;
  if (obs.offscreen.below > 0) {
    board.put({ type: 'scroll', dx: 0, dy: Math.round(obs.scroll.viewportHeight * 0.8) || 600 }, OFFLINE_WEIGHTS.scroll, 'more content below', obs.nodes.length + 1);
  }
  if (r.history.length > 0) board.put({ type: 'go_back' }, OFFLINE_WEIGHTS.goBack, 'return to the previous page', obs.nodes.length + 2);
}

/** History: do not repeat what just ran or what failed. */
export function penalizeRepeats(r: OfflineReading, board: ScoreBoard): void {
  for (const s of board.scored.values()) {
    const key = r.keyOf(s.action);
    if (key === r.lastAction) {
      s.score += OFFLINE_WEIGHTS.repeatLast;
      s.reasons.push('just done');
    } else if (r.failed.has(key)) {
      s.score += OFFLINE_WEIGHTS.failedBefore;
      s.reasons.push('failed before');
    }
    const obscured = r.obscuredHere.get(key) ?? 0;
    if (obscured > 0) {
      s.score += OFFLINE_WEIGHTS.obscuredHere * obscured;
      s.reasons.push(`covered when clicked here ${obscured === 1 ? 'once' : `${obscured} times`}`);
    } else if (r.doneHere.has(key) || (isSettingAction(s.action) && r.doneBefore.has(key))) {
      s.score += OFFLINE_WEIGHTS.repeatHere;
      s.reasons.push('done before without finishing the task');
    }
  }
}
