/**
 * The offline policy's weights (in nats) and the role and word sets its cues
 * read. Kept apart from the scorer so every number is in one place, where
 * tests cite it.
 */

/** Every weight of the scorer, in nats. */
export const OFFLINE_WEIGHTS = {
  /** Per task term found in the element's name (or chosen option). */
  nameMatch: 1.2,
  /** Per term the name shares with the task only through a synonym ("bag" for "cart"): weaker evidence. */
  synonymMatch: 0.6,
  /** Times the fraction of the name's terms that the task covers (prefers specific names). */
  nameCoverage: 0.8,
  /** Per task term found in the nearest heading / label text before the element. */
  contextMatch: 0.5,
  /** Filling a field with a value the task gives for it. */
  fillIntent: 4,
  /** Per earlier pending field: fill forms top to bottom. */
  fieldOrder: -0.2,
  /** The field already holds the value (or was filled earlier): nothing left to do. */
  alreadyDone: -4,
  /** Typing the task's search query into a search field. */
  searchFill: 3.5,
  /** Searching for the thing the task names when the page shows no trace of it (the task did not say "search"). */
  searchUnseen: 3,
  /** Choosing a dropdown option the task names. */
  selectOption: 1.5,
  /** The option's words appear, in order, in the task. */
  optionPhrase: 2,
  /** Ticking / unticking a checkbox the task asks for. */
  checkboxIntent: 3,
  /** A submit-like button once every field the task fills here is filled. */
  submitReady: 3,
  /** A submit-like button while fields the task gives are still empty. */
  submitPending: -1,
  /** Pressing Enter in a filled search field that has no search button. */
  pressEnter: 3,
  /** Times coverage of the question's terms by a page line that shows an answer. */
  answer: 6,
  /** Actions suggested by replayed experience. */
  suggested: 2.5,
  /** Actions a learned contrast advises against (failed attempts did them on this page type). */
  discouraged: -2.5,
  /** Repeating the action just executed. */
  repeatLast: -3,
  /** An action that already failed in this episode. */
  failedBefore: -2.5,
  /**
   * Repeating, on the same page, an action already done there in this
   * episode (or re-applying a setting — fill, select, check — done anywhere):
   * coming back to it means it did not get the task done, and repeating it is
   * how a greedy policy falls into loops (A → B → A …).
   */
  repeatHere: -2.5,
  /** A link to the page we are on. */
  selfLink: -2,
  /** An element something else covers at every point a pointer could land (the snapshot's `coveredBy`). */
  covered: -3,
  /** Per time the action was refused as `obscured` on this page, on top of failedBefore: a repeat lowers it again. */
  obscuredHere: -2.5,
  /** Elements outside the viewport. */
  offscreen: -0.2,
  /** Scrolling down when content lies below. */
  scroll: 0.5,
  goBack: 0.1,
  /**
   * The finish candidate: below every control and every repeated one, so that sampling (the
   * benchmark's T = 1) almost never ends a task on it by chance; it leads only where memory or
   * the person raise it.
   */
  finish: -4,
} as const;

export const ROLE_PRIOR: Record<string, number> = {
  button: 0.3, link: 0.2, menuitem: 0.2, tab: 0.1, textbox: 0.2, searchbox: 0.2, combobox: 0.1,
};

/** Roles the scorer fills with a value the task gives (a slider takes its number the same way). */
export const TEXT_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);
export const CHECK_ROLES = new Set(['checkbox', 'switch', 'menuitemcheckbox']);
/**
 * Roles the scorer clicks. `clickable` is the snapshot's role for an element
 * without an ARIA role that listens for clicks (a <span> or <div> control):
 * a person clicks it like any button.
 */
export const CLICK_ROLES = new Set(['button', 'link', 'menuitem', 'tab', 'radio', 'treeitem', 'option', 'gridcell', 'menuitemradio', 'clickable']);
export const SUBMIT_WORDS = new Set([
  'submit', 'save', 'login', 'signup', 'search', 'go', 'apply', 'next', 'confirm', 'send', 'post', 'create',
  'place', 'checkout', 'ok', 'done', 'update', 'edit', 'add', 'filter', 'publish', 'finish', 'pay',
]);
