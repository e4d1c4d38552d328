/**
 * The rows of `npm run bench -- --ablate` for JitRL (issue 23 item 8): the
 * paper's Algorithm 1 with none of our additions, then each addition switched
 * on alone, then all of them (the shipped defaults), then the shipped set with
 * each one left out. Published in docs/learning-ablation.md.
 */
import type { AblationRow } from '../../../core/learning/learner-definition.ts';
import { DEFAULT_JITRL, type JitrlSettings } from './settings.ts';

type Switches = Pick<JitrlSettings, 'bars' | 'exploitSettled' | 'widenPool' | 'loopBars' | 'advantageFloor' | 'preferSameUrl'>;

/** Algorithm 1 alone: every addition off; Eq. 25's divisor without a floor; the page type's neighbours only. */
export const PAPER_ONLY: Switches = { bars: false, exploitSettled: false, widenPool: false, loopBars: false, advantageFloor: 0, preferSameUrl: false };

const SHIPPED: Switches = {
  bars: DEFAULT_JITRL.bars, exploitSettled: DEFAULT_JITRL.exploitSettled, widenPool: DEFAULT_JITRL.widenPool,
  loopBars: DEFAULT_JITRL.loopBars, advantageFloor: DEFAULT_JITRL.advantageFloor, preferSameUrl: DEFAULT_JITRL.preferSameUrl,
};

export const ABLATION_ROWS: readonly (AblationRow & { settings: Switches })[] = [
  { name: 'paper only (Algorithm 1)', settings: PAPER_ONLY },
  { name: '+ bars (rejected / blamed here)', settings: { ...PAPER_ONLY, bars: true } },
  { name: '+ settled exploitation', settings: { ...PAPER_ONLY, exploitSettled: true } },
  { name: '+ pool widening', settings: { ...PAPER_ONLY, widenPool: true } },
  { name: '+ loop bars', settings: { ...PAPER_ONLY, loopBars: true } },
  { name: '+ advantage floor (1)', settings: { ...PAPER_ONLY, advantageFloor: SHIPPED.advantageFloor } },
  { name: '+ same-URL backoff', settings: { ...PAPER_ONLY, preferSameUrl: true } },
  { name: 'all additions (shipped)', settings: SHIPPED },
];

/** Each addition left out of the shipped set: what it adds given the others (interactions show here). */
export const LEAVE_ONE_OUT_ROWS: readonly (AblationRow & { settings: Switches })[] = [
  { name: 'shipped − bars', settings: { ...SHIPPED, bars: false } },
  { name: 'shipped − settled exploitation', settings: { ...SHIPPED, exploitSettled: false } },
  { name: 'shipped − pool widening', settings: { ...SHIPPED, widenPool: false } },
  { name: 'shipped − loop bars', settings: { ...SHIPPED, loopBars: false } },
  { name: 'shipped − advantage floor', settings: { ...SHIPPED, advantageFloor: 0 } },
  { name: 'shipped − same-URL backoff', settings: { ...SHIPPED, preferSameUrl: false } },
];
