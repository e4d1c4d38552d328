/**
 * The built-in offline policy: a deterministic scorer over the observation
 * and the task, with no network and no key. It proposes candidates from
 * lexical overlap of task terms with element names and their nearby headings,
 * role priors, form-field intents (values the task gives), checkbox intents,
 * navigation cues, searching for the thing the task names when the page shows
 * no trace of it, submitting once the fields are filled, avoiding the
 * just-executed or failed action, answering a question from what the page
 * shows, and the actions suggested by replayed experience (CER). It does not
 * know any site; it reads only the task's words and the page.
 *
 * Scores are in nats: each cue adds a fixed amount, and the logits returned
 * are log-softmax(scores) over every action it considered, so they are
 * log-probabilities on the same scale as the model's token logprobs.
 */
import { formatAction, parseAction } from '../page/action-grammar.ts';
import { isSettingAction, type Action } from '../page/action.ts';
import type { PageObservation, SnapshotNode } from '../page/observation.ts';
import { resolveSemanticAction, semanticKey } from '../page/semantic-action.ts';
import type { CandidatePolicy, PolicyInput, PolicyProposal, ProposedCandidate } from './policy.ts';
import { analyzeTask, ownTerms, rawWords, terms, type FieldIntent, type TaskIntents } from './task-intents.ts';
import { CHECK_ROLES, CLICK_ROLES, OFFLINE_WEIGHTS, ROLE_PRIOR, SUBMIT_WORDS, TEXT_ROLES } from './offline-weights.ts';
import { contextTerms, extractAnswer, intentForField, isSearchField, overlap, sameBarNumbers, showsNamedThing, targetName } from './offline-cues.ts';
import { samePage } from '../page/same-page.ts';

export { OFFLINE_WEIGHTS } from './offline-weights.ts';

interface Scored {
  action: Action;
  score: number;
  reasons: string[];
  /** Document order, for deterministic ties. */
  order: number;
}

/** No options yet; the object keeps the signature stable as cues become settings. */
export type OfflinePolicyOptions = Record<string, never>;

/** Every action the scorer considers on this page, best first, with scores. */
export function scoreOfflineActions(input: PolicyInput): Scored[] {
  const obs: PageObservation = input.observation;
  const intents: TaskIntents = analyzeTask(input.task);
  const context = contextTerms(obs.nodes);
  const scored = new Map<string, Scored>();
  const put = (action: Action, score: number, reason: string, order: number) => {
    const key = formatAction(action);
    const prev = scored.get(key);
    if (!prev || score > prev.score) scored.set(key, { action, score, reasons: [reason], order });
  };

  // semanticKey looks the ref up with a linear scan; index the nodes once so a big page stays linear.
  const byRef = new Map(obs.nodes.filter((n) => n.ref !== null).map((n) => [n.ref, n]));
  const keyOf = (action: Action): string => {
    const ref = 'target' in action && action.target?.kind === 'ref' ? action.target.ref : null;
    const n = ref === null ? undefined : byRef.get(ref);
    return semanticKey(action, n ? { ...obs, nodes: [n] } : obs);
  };
  const history = input.history;
  const lastAction = history[history.length - 1]?.action;
  const failed = new Set(history.filter((h) => h.outcome !== 'ok').map((h) => h.action));
  const doneBefore = new Set(history.filter((h) => h.outcome === 'ok').map((h) => h.action));
  const doneHere = new Set(history.filter((h) => h.outcome === 'ok' && samePage(h.url, obs.url)).map((h) => h.action));

  // What to type into a search field: the query the task asks for, else the
  // thing it names when this page shows no trace of it (a person searches for it).
  const searchQuery = intents.searchQuery ?? (intents.namedThing !== null && !showsNamedThing(obs.nodes, intents.namedThing) ? intents.namedThing : null);
  const searchGain = intents.searchQuery !== null ? OFFLINE_WEIGHTS.searchFill : OFFLINE_WEIGHTS.searchUnseen;

  // Which of the task's field values are still to be typed on this page.
  let pendingFields = 0;
  let filledFields = 0;
  let lastFieldOrder = -1;
  const fieldPlan = new Map<SnapshotNode, FieldIntent>();
  const pendingRank = new Map<SnapshotNode, number>();
  obs.nodes.forEach((n, order) => {
    if (n.ref === null || !TEXT_ROLES.has(n.role) || n.states.disabled) return;
    const intent = isSearchField(n) && searchQuery ? null : intentForField(n, intents.fields);
    const query = isSearchField(n) ? searchQuery : null;
    const wanted = intent?.value ?? query;
    if (wanted === null || wanted === undefined) return;
    lastFieldOrder = order;
    if (intent) fieldPlan.set(n, intent);
    const fillKey = keyOf({ type: 'fill', target: { kind: 'ref', ref: n.ref }, text: wanted });
    const holds = n.value === wanted || (n.inputType === 'password' && !!n.value) || doneBefore.has(fillKey);
    if (holds) filledFields++;
    else pendingRank.set(n, pendingFields++);
  });
  // The form's submit button: the first submit-like button after the last field the task fills.
  const isSubmitLike = (n: SnapshotNode) => n.ref !== null && n.role === 'button' && !n.states.disabled && [...terms(n.name)].some((t) => SUBMIT_WORDS.has(t));
  // A setting changed on this page (a selected option, a ticked box) also wants saving:
  // then the first submit-like button is the one to press.
  const settingChangedHere = history.some((h) => h.outcome === 'ok' && samePage(h.url, obs.url) && /^(fill|select_option|check|uncheck)\(/.test(h.action));
  const submitIndex = lastFieldOrder < 0
    ? settingChangedHere ? obs.nodes.findIndex((n) => isSubmitLike(n)) : -1
    : obs.nodes.findIndex((n, i) => i > lastFieldOrder && isSubmitLike(n));
  if (lastFieldOrder < 0 && settingChangedHere) filledFields++;

  obs.nodes.forEach((n, order) => {
    if (n.ref === null || n.states.disabled) return;
    const ref = { kind: 'ref' as const, ref: n.ref };
    const name = terms(n.name);
    const matches = overlap(intents.terms, name);
    const synonymOnly = Math.max(0, matches - overlap(intents.ownTerms, ownTerms(n.name)));
    const lexical =
      OFFLINE_WEIGHTS.nameMatch * (matches - synonymOnly) +
      OFFLINE_WEIGHTS.synonymMatch * synonymOnly +
      (name.size > 0 ? OFFLINE_WEIGHTS.nameCoverage * (matches / name.size) : 0) +
      OFFLINE_WEIGHTS.contextMatch * overlap(intents.terms, context[order] ?? new Set());
    const base = (ROLE_PRIOR[n.role] ?? 0) + (n.inViewport ? 0 : OFFLINE_WEIGHTS.offscreen);

    if (TEXT_ROLES.has(n.role) && !(n.role === 'combobox' && n.options?.length)) {
      const intent = fieldPlan.get(n);
      const query = isSearchField(n) ? searchQuery : null;
      const value = intent?.value ?? query;
      if (value) {
        const action: Action = { type: 'fill', target: ref, text: value };
        const done = n.value === value || (n.inputType === 'password' && !!n.value) || doneBefore.has(keyOf(action));
        const gain = intent ? OFFLINE_WEIGHTS.fillIntent : searchGain;
        const rank = OFFLINE_WEIGHTS.fieldOrder * (pendingRank.get(n) ?? 0);
        const why = intent ? 'field value from the task' : intents.searchQuery !== null ? 'the search the task asks for' : 'search for what the task names (not on this page)';
        put(action, base + gain + rank + (done ? OFFLINE_WEIGHTS.alreadyDone : 0), why, order);
      }
      if (query && n.value === query && !obs.nodes.some((b) => b.ref !== null && b.role === 'button' && terms(b.name).has('search'))) {
        put({ type: 'press', target: ref, keys: 'Enter' }, base + OFFLINE_WEIGHTS.pressEnter, 'submit the search', order);
      }
      return;
    }

    if ((n.role === 'combobox' || n.role === 'listbox') && n.options?.length) {
      let best: { option: string; score: number } | null = null;
      for (const option of n.options) {
        if (option === n.value) continue;
        const optTerms = terms(option);
        const phrase = rawWords(option).join(' ');
        let s = OFFLINE_WEIGHTS.nameMatch * overlap(intents.terms, optTerms);
        if (phrase && ` ${intents.normalized} `.includes(` ${phrase} `)) s += OFFLINE_WEIGHTS.optionPhrase;
        if (intents.fields.some((f) => f.value.toLowerCase() === option.toLowerCase())) s += OFFLINE_WEIGHTS.fillIntent;
        if (s > 0 && (!best || s > best.score)) best = { option, score: s };
      }
      if (best) {
        put({ type: 'select_option', target: ref, option: best.option }, base + OFFLINE_WEIGHTS.selectOption + best.score + lexical, 'an option the task names', order);
      }
      return;
    }

    if (CHECK_ROLES.has(n.role)) {
      if (matches === 0) return;
      const checked = n.states.checked === true;
      // The clause naming this box decides on/off; failing that, the whole task.
      let bestClause: { polarity: 'on' | 'off'; overlap: number } | null = null;
      for (const c of intents.checkboxClauses) {
        const o = overlap(c.terms, name);
        if (o > 0 && (!bestClause || o > bestClause.overlap)) bestClause = { polarity: c.polarity, overlap: o };
      }
      const polarity = bestClause?.polarity ?? intents.checkbox;
      if (polarity === 'off' && checked) put({ type: 'uncheck', target: ref }, base + OFFLINE_WEIGHTS.checkboxIntent + lexical, 'the task turns this off', order);
      else if (polarity !== 'off' && !checked) {
        put({ type: 'check', target: ref }, base + (polarity === 'on' ? OFFLINE_WEIGHTS.checkboxIntent : 0) + lexical, 'the task turns this on', order);
      }
      return;
    }

    if (CLICK_ROLES.has(n.role) || n.role === 'button') {
      let score = base + lexical;
      const reasons = [matches > 0 ? 'its name matches the task' : 'a control on the page'];
      const submitLike = isSubmitLike(n);
      if (submitLike && pendingFields > 0) {
        score += OFFLINE_WEIGHTS.submitPending;
        reasons.push('fields are still empty');
      } else if (order === submitIndex && filledFields > 0) {
        score += OFFLINE_WEIGHTS.submitReady;
        reasons.push('the fields are filled');
      }
      if (n.role === 'radio' && intents.fields.some((f) => f.value.toLowerCase() === n.name.trim().toLowerCase())) score += OFFLINE_WEIGHTS.fillIntent;
      if (n.role === 'link' && n.href && samePage(n.href, obs.url)) score += OFFLINE_WEIGHTS.selfLink;
      put({ type: 'click', target: ref }, score, reasons.join('; '), order);
    }
  });

  // The answer, when the task asks a question the page shows. A line counts by
  // its own words mostly, and by its heading / label context a little (a price
  // under the product's heading and a "Price" label).
  if (intents.question && intents.question.focus.size > 0) {
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
    if (found) put({ type: 'send_msg_to_user', text: found.text }, found.score, 'the page shows the answer', found.order);
  }

  // Replayed experience (CER): suggested actions that resolve on this page.
  for (const section of input.sections) {
    for (const text of section.suggestedActions ?? []) {
      const parsed = parseAction(text);
      if (!parsed.ok) continue;
      const resolved = resolveSemanticAction(parsed.action, obs);
      if (!resolved.ok) continue;
      // A loose match counts only when the names differ in numbers alone ("Cart (1)"
      // for "Cart (2)"): "Edit customer" is not the list's "Edit" link.
      if (resolved.match === 'nearest' && !sameBarNumbers(targetName(parsed.action), targetName(resolved.action, byRef))) continue;
      const key = formatAction(resolved.action);
      const prev = scored.get(key);
      const reason = `suggested by ${section.id}`;
      if (prev) {
        prev.score += OFFLINE_WEIGHTS.suggested;
        prev.reasons.push(reason);
      } else {
        scored.set(key, { action: resolved.action, score: OFFLINE_WEIGHTS.suggested, reasons: [reason], order: obs.nodes.length });
      }
    }
  }

  // Learned contrasts (Training-Free GRPO rules): actions failed attempts took here and successful ones did not.
  for (const section of input.sections) {
    for (const text of section.discouragedActions ?? []) {
      const parsed = parseAction(text);
      if (!parsed.ok) continue;
      const resolved = resolveSemanticAction(parsed.action, obs);
      // Only the very element: a near match ("Yoga mat" for "Yoga mat bag") may be the right one.
      if (!resolved.ok || resolved.match === 'nearest') continue;
      const prev = scored.get(formatAction(resolved.action));
      if (prev) {
        prev.score += OFFLINE_WEIGHTS.discouraged;
        prev.reasons.push(`advised against by ${section.id}`);
      }
    }
  }

  if (obs.offscreen.below > 0) {
    put({ type: 'scroll', dx: 0, dy: Math.round(obs.scroll.viewportHeight * 0.8) || 600 }, OFFLINE_WEIGHTS.scroll, 'more content below', obs.nodes.length + 1);
  }
  if (history.length > 0) put({ type: 'go_back' }, OFFLINE_WEIGHTS.goBack, 'return to the previous page', obs.nodes.length + 2);

  // History: do not repeat what just ran or what failed.
  for (const s of scored.values()) {
    const key = keyOf(s.action);
    if (key === lastAction) {
      s.score += OFFLINE_WEIGHTS.repeatLast;
      s.reasons.push('just done');
    } else if (failed.has(key)) {
      s.score += OFFLINE_WEIGHTS.failedBefore;
      s.reasons.push('failed before');
    } else if (doneHere.has(key) || (isSettingAction(s.action) && doneBefore.has(key))) {
      s.score += OFFLINE_WEIGHTS.repeatHere;
      s.reasons.push('done before without finishing the task');
    }
  }

  const list = [...scored.values()];
  if (list.length === 0) {
    list.push({ action: { type: 'report_infeasible', reason: 'Nothing on this page can be acted on.' }, score: 0, reasons: ['no actions'], order: 0 });
  }
  return list.sort((a, b) => b.score - a.score || a.order - b.order || formatAction(a.action).localeCompare(formatAction(b.action)));
}

const logSumExp = (xs: number[]): number => {
  const m = Math.max(...xs);
  return m + Math.log(xs.reduce((s, x) => s + Math.exp(x - m), 0));
};

export function createOfflinePolicy(_options: OfflinePolicyOptions = {}): CandidatePolicy {
  return {
    id: 'offline',
    async propose(input: PolicyInput, signal?: AbortSignal): Promise<PolicyProposal> {
      signal?.throwIfAborted();
      const all = scoreOfflineActions(input);
      const norm = logSumExp(all.map((s) => s.score));
      const candidates: ProposedCandidate[] = all.slice(0, Math.max(1, input.numCandidates)).map((s) => ({
        action: s.action,
        logit: s.score - norm,
        rationale: s.reasons.join('; '),
      }));
      return { candidates, logitSource: 'offline', usage: { calls: 0, promptTokens: 0, completionTokens: 0 }, notes: [] };
    },
  };
}
