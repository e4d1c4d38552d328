/**
 * The honest path without a model. From a group with mixed outcomes it
 * derives what can be read off the attempts themselves: on each page type
 * that winners and losers both reached, the actions every winner took there
 * and no loser did, and the actions most losers took there and no winner did.
 * Each contrast becomes one experience with a structured hint the offline
 * policy reads (prefer / avoid on that page type). It uses only the
 * attempts' own actions and the person's verdicts — never a reward or an
 * answer the person would not have. Values the task names are abstracted to
 * {variables} so a contrast learned on one instance of a template applies to
 * the next.
 */
import { parseAction, formatAction } from '../../../core/page/action-grammar.ts';
import type { Action } from '../../../core/page/action.ts';
import { isTerminalAction } from '../../../core/page/action-vocabulary.ts';
import { pageNameFromUrl } from '../../../core/learning/shared/page-name.ts';
import { regularizeUrl } from '../../../core/page/regularize-url.ts';
import { abstractActions } from '../../../core/learning/shared/skill-variables.ts';
import { secretFieldOf } from '../../../core/secrets/secret-fields.ts';
import { MAX_EXPERIENCE_CHARS, type ExperienceHint, type GroupRef } from './experience.ts';
import type { GroupAttempt, GroupSplit } from './group.ts';
import type { LibraryOperation } from './operations.ts';

/** Contrasts kept per group (the paper distils 2–3 principles per group). */
export const MAX_RULES_PER_GROUP = 3;
const MAX_ACTIONS_PER_SIDE = 3;

interface PageActions {
  /** Abstract semantic actions taken on each page type. */
  byPage: Map<string, Set<string>>;
  /** Page types in order of first visit. */
  order: string[];
  titles: Map<string, string | null>;
  pattern: string;
}

function usable(a: Action): boolean {
  if (isTerminalAction(a)) return false; // answers belong to the instance, not the recipe
  if ('target' in a && a.target?.kind === 'ref') return false; // refs mean nothing on another visit
  if (a.type === 'fill' && secretFieldOf(a) !== null) return false;
  return true;
}

/**
 * A step's page type as the site's library keys it: the regularized URL on the
 * site itself, qualified by its origin on another site (a path means nothing
 * across sites, so such a contrast never matches a page of this one).
 */
function pageTypeOf(step: GroupAttempt['steps'][number], siteOrigin: string): string {
  const { origin } = regularizeUrl(step.url);
  return origin === '' || origin === siteOrigin ? step.regUrl : `${origin}${step.regUrl}`;
}

/** Winners count only actions that worked; losers count everything they tried. */
function actionsOf(attempt: GroupAttempt, okOnly: boolean): PageActions {
  const steps = attempt.steps.flatMap((s) => {
    if (okOnly && !s.ok) return [];
    const parsed = parseAction(s.action);
    return parsed.ok && usable(parsed.action) ? [{ step: s, action: parsed.action }] : [];
  });
  const abstraction = abstractActions(attempt.task, steps.map((s) => s.action));
  const byPage = new Map<string, Set<string>>();
  const order: string[] = [];
  const titles = new Map<string, string | null>();
  for (const s of attempt.steps) {
    const pageType = pageTypeOf(s, attempt.origin);
    if (!titles.has(pageType)) titles.set(pageType, s.title);
    if (!order.includes(pageType)) order.push(pageType);
  }
  steps.forEach((s, i) => {
    const pageType = pageTypeOf(s.step, attempt.origin);
    const set = byPage.get(pageType) ?? new Set<string>();
    set.add(formatAction(abstraction.actions[i]!));
    byPage.set(pageType, set);
  });
  return { byPage, order, titles, pattern: abstraction.name };
}

/** A page's name: its title when every attempt saw the same one there, else one read from the URL pattern. */
function pageName(pageType: string, all: readonly PageActions[]): string {
  const titles = new Set(all.filter((a) => a.titles.has(pageType)).map((a) => a.titles.get(pageType) ?? null));
  const [only] = [...titles];
  if (titles.size === 1 && only) return `the page "${only}"`;
  const fromUrl = pageNameFromUrl(pageType).replace(/ page$/, '');
  return `${fromUrl.charAt(0).toLowerCase()}${fromUrl.slice(1)} pages (${pageType})`;
}

const listed = (xs: readonly string[]): string => xs.slice(0, MAX_ACTIONS_PER_SIDE).join(', ');

function experienceText(name: string, prefer: readonly string[], avoid: readonly string[]): string {
  const text = prefer.length > 0
    ? `On ${name}: the successful attempts did ${listed(prefer)}${avoid.length > 0 ? ` where the failed ones did ${listed(avoid)}` : ''}.`
    : `On ${name}: the failed attempts did ${listed(avoid)}, which no successful attempt did.`;
  return text.length <= MAX_EXPERIENCE_CHARS ? text : `${text.slice(0, MAX_EXPERIENCE_CHARS - 1)}…`;
}

export interface RuleDerivation {
  operations: LibraryOperation[];
  /** Why nothing could be derived, when nothing could. */
  reason: string | null;
}

export function deriveRules(split: GroupSplit, group: GroupRef): RuleDerivation {
  if (split.verdict !== 'mixed') return { operations: [], reason: 'the group has no contrast between winners and losers' };
  const winners = split.winners.map((a) => actionsOf(a, true));
  const losers = split.losers.map((a) => actionsOf(a, false));
  const all = [...winners, ...losers];
  const pages: string[] = [];
  for (const a of all) for (const p of a.order) if (!pages.includes(p)) pages.push(p);

  const operations: LibraryOperation[] = [];
  for (const pageType of pages) {
    if (operations.length >= MAX_RULES_PER_GROUP) break;
    const w = winners.filter((a) => a.order.includes(pageType)).map((a) => a.byPage.get(pageType) ?? new Set<string>());
    const l = losers.filter((a) => a.order.includes(pageType)).map((a) => a.byPage.get(pageType) ?? new Set<string>());
    if (w.length === 0 || l.length === 0) continue;
    const anyLoser = new Set(l.flatMap((s) => [...s]));
    const anyWinner = new Set(w.flatMap((s) => [...s]));
    const prefer = [...w[0]!].filter((x) => w.every((s) => s.has(x)) && !anyLoser.has(x));
    const majority = Math.ceil(l.length / 2);
    const avoid = [...anyLoser].filter((x) => !anyWinner.has(x) && l.filter((s) => s.has(x)).length >= majority);
    if (prefer.length === 0 && avoid.length === 0) continue;
    const hint: ExperienceHint = {
      pageType,
      taskPattern: (winners[0] ?? losers[0])!.pattern,
      prefer: prefer.slice(0, MAX_ACTIONS_PER_SIDE),
      avoid: avoid.slice(0, MAX_ACTIONS_PER_SIDE),
    };
    operations.push({ op: 'ADD', text: experienceText(pageName(pageType, all), hint.prefer, hint.avoid), hint, group });
  }
  return operations.length > 0
    ? { operations, reason: null }
    : { operations, reason: 'the successful and failed attempts took the same actions on every page they shared: no rule can be read off them without a model' };
}
