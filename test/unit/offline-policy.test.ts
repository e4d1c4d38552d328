import { describe, expect, it } from 'vitest';
import { formatAction } from '../../src/core/page/action-grammar.ts';
import type { PageObservation, SnapshotNode } from '../../src/core/page/observation.ts';
import { OFFLINE_WEIGHTS, scoreOfflineActions, createOfflinePolicy } from '../../src/core/policy/offline-policy.ts';
import type { PolicyInput, PromptSection, StepHistoryItem } from '../../src/core/policy/policy.ts';
import { createSimulatedPolicy } from '../../src/core/policy/simulated-policy.ts';
import { analyzeTask } from '../../src/core/policy/task-intents.ts';
import { seededRandom } from '../../src/core/random.ts';

const node = (ref: string | null, role: string, name: string, extra: Partial<SnapshotNode> = {}): SnapshotNode => ({
  ref,
  kind: ref !== null ? 'interactive' : role === 'heading' ? 'heading' : 'text',
  role,
  name,
  states: {},
  depth: 1,
  inViewport: true,
  ...extra,
});
const page = (url: string, nodes: SnapshotNode[], below = 0): PageObservation => ({
  url,
  title: 'Page',
  nodes,
  focusedRef: null,
  offscreen: { above: 0, below },
  omissions: [],
  scroll: { y: 0, maxY: below ? 2000 : 0, viewportHeight: 800 },
  tookMs: 1,
});
const input = (task: string, observation: PageObservation, history: StepHistoryItem[] = [], sections: PromptSection[] = [], n = 3): PolicyInput => ({
  task,
  observation,
  renderedObservation: '',
  history,
  sections,
  numCandidates: n,
  temperature: 0.8,
});
const ranked = async (i: PolicyInput) => (await createOfflinePolicy().propose(i)).candidates.map((c) => formatAction(c.action));

const LOGIN_TASK = 'Sign in as ada@example.com with password hunter2';
const loginPage = (email = '', password = '') =>
  page('http://shop.test/login', [
    node(null, 'heading', 'Sign in', { level: 1 }),
    node('1', 'textbox', 'Email', { inputType: 'email', value: email }),
    node('2', 'textbox', 'Password', { inputType: 'password', value: password }),
    node('3', 'checkbox', 'Remember me', { states: { checked: false } }),
    node('4', 'button', 'Sign in'),
    node('5', 'link', 'Forgot password?', { href: 'http://shop.test/forgot' }),
    node('6', 'link', 'Create account', { href: 'http://shop.test/signup' }),
  ]);
const homePage = (query = '') =>
  page('http://shop.test/', [
    node('1', 'link', 'Home', { href: 'http://shop.test/' }),
    node('2', 'link', 'Kitchen', { href: 'http://shop.test/c/kitchen' }),
    node('3', 'link', 'Sign in', { href: 'http://shop.test/login' }),
    node('4', 'searchbox', 'Search products', { value: query }),
    node('5', 'button', 'Search'),
    node(null, 'heading', 'Featured', { level: 2 }),
    node('6', 'link', 'Wireless keyboard', { href: 'http://shop.test/p/1' }),
    node('7', 'button', 'Add to cart'),
  ]);

describe('task intents', () => {
  it('reads field values, a search query, checkbox and question intents from the wording', () => {
    const login = analyzeTask(LOGIN_TASK);
    expect(login.fields.map((f) => [[...f.field], f.value, f.shape])).toEqual([
      [['password'], 'hunter2', 'text'],
      [['email'], 'ada@example.com', 'email'],
    ]);
    expect(analyzeTask('Create a post titled "Hello world" with body "First post"').fields.map((f) => f.value)).toEqual(['First post', 'Hello world']);
    expect(analyzeTask('Set the display name to Ada Lovelace').fields.map((f) => [[...f.field], f.value])).toEqual([[['display', 'name'], 'Ada Lovelace']]);
    expect(analyzeTask('Search for wireless mouse and add the cheapest one to the cart').searchQuery).toBe('wireless mouse');
    expect(analyzeTask('Sort the products by price low to high').fields).toEqual([]);
    expect(analyzeTask('Unsubscribe from the newsletter').checkbox).toBe('off');
    expect(analyzeTask('How many open orders are there?').question).toEqual({ kind: 'count', focus: new Set(['open', 'order']) });
  });
});

describe('offline policy', () => {
  it('login form: fields top to bottom, then the form button', async () => {
    expect(await ranked(input(LOGIN_TASK, loginPage()))).toEqual(['fill([1], "ada@example.com")', 'fill([2], "hunter2")', 'click([5])']);
    const afterEmail = [{ action: 'fill(<textbox "Email">, "ada@example.com")', outcome: 'ok', url: 'http://shop.test/login' }];
    expect(await ranked(input(LOGIN_TASK, loginPage('ada@example.com'), afterEmail))).toEqual(['fill([2], "hunter2")', 'click([5])', 'click([4])']);
    // The password field shows a mask once filled.
    const afterPassword = [...afterEmail, { action: 'fill(<textbox "Password">, "hunter2")', outcome: 'ok', url: 'http://shop.test/login' }];
    const out = await createOfflinePolicy().propose(input(LOGIN_TASK, loginPage('ada@example.com', '{password}'), afterPassword));
    expect(out.candidates.map((c) => formatAction(c.action))).toEqual(['click([4])', 'click([5])', 'click([6])']);
    expect(out.logitSource).toBe('offline');
    expect(out.usage).toEqual({ calls: 0, promptTokens: 0, completionTokens: 0 });
    expect(out.candidates[0]?.rationale).toContain('the fields are filled');
  });

  it('a secret field that shows its mask is filled, by its mask (not only an input of type password)', async () => {
    // A text input named "Password" (no type=password): the one detector masks it by name.
    const signIn = (password: string) => page('http://bank.test/login', [
      node('1', 'textbox', 'Password', { value: password }),
      node('2', 'button', 'Sign in', { submits: true }),
    ]);
    const task = 'Sign in with password hunter2';
    expect((await ranked(input(task, signIn(''))))[0]).toBe('fill([1], "hunter2")');
    // Typed once, the page shows only the mask: the next step is the button.
    expect((await ranked(input(task, signIn('{password}'))))[0]).toBe('click([2])');
  });

  it('search box: type the query, then press the search button (not another button)', async () => {
    const task = 'Search for wireless mouse and add the cheapest one to the cart';
    expect(await ranked(input(task, homePage()))).toEqual(['fill([4], "wireless mouse")', 'click([7])', 'click([6])']);
    const done = [{ action: 'fill(<searchbox "Search products">, "wireless mouse")', outcome: 'ok', url: 'http://shop.test/' }];
    expect(await ranked(input(task, homePage('wireless mouse'), done))).toEqual(['click([5])', 'click([7])', 'click([6])']);
  });

  it('sort select: the option whose words appear in order in the task', async () => {
    const results = page('http://shop.test/search?q=mouse', [
      node('1', 'combobox', 'Sort by', { value: 'Relevance', options: ['Relevance', 'Price: high to low', 'Price: low to high', 'Newest'] }),
      node(null, 'heading', 'Results', { level: 2 }),
      node('2', 'link', 'Basic mouse', { href: 'http://shop.test/p/2' }),
      node('3', 'link', 'Pro mouse', { href: 'http://shop.test/p/3' }),
    ]);
    const out = await createOfflinePolicy().propose(input('Sort the products by price low to high', results));
    expect(out.candidates.map((c) => formatAction(c.action))).toEqual(['select_option([1], "Price: low to high")', 'click([2])', 'click([3])']);
    // select: 0.1 prior + 1.5 + 3 option terms × 1.2 + 2 phrase + name "Sort by" (1.2 + 0.8) = 9.2; a link: 0.2.
    expect(out.candidates[0]!.logit - out.candidates[1]!.logit).toBeCloseTo(9, 10);
    const total = out.candidates.reduce((s, c) => s + Math.exp(c.logit), 0);
    expect(total).toBeLessThanOrEqual(1 + 1e-12);
  });

  it('question answering: answers from page text when it shows the asked value, else navigates', async () => {
    const task = 'How many open orders are there?';
    const orders = page('http://shop.test/orders', [
      node(null, 'heading', 'Orders', { level: 1 }),
      node(null, 'text', 'Open orders: 4'),
      node(null, 'text', 'Closed orders: 12'),
      node('1', 'link', 'Orders', { href: 'http://shop.test/orders' }),
      node('2', 'link', 'Help', { href: 'http://shop.test/help' }),
    ]);
    expect(await ranked(input(task, orders))).toEqual(['send_msg_to_user("4")', 'click([1])', 'click([2])']);
    const home = page('http://shop.test/', [
      node('1', 'link', 'Help', { href: 'http://shop.test/help' }),
      node('2', 'link', 'Orders', { href: 'http://shop.test/orders' }),
      node('3', 'link', 'Products', { href: 'http://shop.test/p' }),
    ]);
    expect(await ranked(input(task, home))).toEqual(['click([2])', 'click([1])', 'click([3])']);
    const price = page('http://shop.test/p/9', [node(null, 'heading', 'Blue kettle', { level: 1 }), node(null, 'text', 'Price'), node(null, 'text', '$24.50')]);
    expect(await ranked(input('What is the price of the blue kettle?', price))).toEqual(['send_msg_to_user("$24.50")']);
  });

  it('checkbox intent, history penalties, scrolling and replayed suggestions', async () => {
    const settings = page('http://shop.test/settings', [
      node('1', 'checkbox', 'Subscribe to newsletter', { states: { checked: false } }),
      node('2', 'checkbox', 'Dark mode', { states: { checked: false } }),
      node('3', 'button', 'Save'),
    ], 5);
    expect(await ranked(input('Subscribe to the newsletter', settings))).toEqual(['check([1])', 'scroll(0, 640)', 'click([3])']);
    // The just-executed action is not proposed first again.
    const nav = page('http://shop.test/', [node('1', 'link', 'Orders', { href: 'http://shop.test/orders' }), node('2', 'link', 'Help', { href: 'http://shop.test/help' })]);
    const last = [{ action: 'click(<link "Orders">)', outcome: 'ok', url: 'http://shop.test/' }];
    expect(await ranked(input('Open my orders', nav, last))).toEqual(['click([2])', 'go_back()', 'click([1])']);
    // Loops: an action already done on this page earlier in the episode (A → B → A) is pushed down too.
    const pingPong = [
      { action: 'click(<link "Help">)', outcome: 'ok', url: 'http://shop.test/' },
      { action: 'click(<link "Shop">)', outcome: 'ok', url: 'http://shop.test/help' },
    ];
    const scores = scoreOfflineActions(input('Open my orders help', nav, pingPong));
    const help = scores.find((x) => formatAction(x.action) === 'click([2])')!;
    expect(help.reasons).toContain('done before without finishing the task');
    expect(scores[0] && formatAction(scores[0].action)).toBe('click([1])');
    // A replayed skill's suggested action gets its bonus when it resolves here; one that does not is ignored.
    const skill: PromptSection = { id: 'skill:3', title: 'Recover a password', text: '…', suggestedActions: ['click(<link "Create account">)', 'click(<button "Nowhere">)'] };
    const withSkill = await createOfflinePolicy().propose(input(LOGIN_TASK, loginPage(), [], [skill]));
    expect(withSkill.candidates.map((c) => formatAction(c.action))).toEqual(['fill([1], "ada@example.com")', 'fill([2], "hunter2")', 'click([6])']);
    expect(withSkill.candidates[2]?.rationale).toContain('suggested by skill:3');
  });

  it('gives a suggestion\'s bonus only to the very element it names, never to a near name', () => {
    const list = page('http://crm.test/people', [node('1', 'link', 'Edit'), node('2', 'link', 'Basket (3)'), node('3', 'link', 'Reports')]);
    const base = scoreOfflineActions(input('Tidy up the records', list));
    const skill: PromptSection = { id: 'skill:9', title: 'Earlier', text: '…', suggestedActions: ['click(<link "Edit person">)', 'click(<link "Basket">)'] };
    const replayed = scoreOfflineActions(input('Tidy up the records', list, [], [skill]));
    const score = (xs: typeof base, ref: string) => xs.find((x) => formatAction(x.action) === `click([${ref}])`)!.score;
    // "Edit person" is not the list's "Edit": no bonus.
    expect(score(replayed, '1')).toBe(score(base, '1'));
    // "Basket" is not "Basket (3)" either: a remembered name resolves exactly or not at all.
    expect(score(replayed, '2')).toBe(score(base, '2'));
    const exact: PromptSection = { ...skill, suggestedActions: ['click(<link "Basket (3)">)'] };
    expect(score(scoreOfflineActions(input('Tidy up the records', list, [], [exact])), '2')).toBeCloseTo(score(base, '2') + OFFLINE_WEIGHTS.suggested, 10);
  });

  it('pushes down an action a learned contrast advises against, by exactly the discouraged weight', () => {
    const base = scoreOfflineActions(input(LOGIN_TASK, loginPage()));
    const rule: PromptSection = { id: 'x-rule', title: 'Experience 1', text: '…', discouragedActions: ['fill(<textbox "Email">, "ada@example.com")', 'click(<button "Nowhere">)', 'click(<link "Create account now">)'] };
    const advised = scoreOfflineActions(input(LOGIN_TASK, loginPage(), [], [rule]));
    const email = (xs: typeof base) => xs.find((x) => formatAction(x.action) === 'fill([1], "ada@example.com")')!;
    expect(email(advised).score).toBeCloseTo(email(base).score + OFFLINE_WEIGHTS.discouraged, 10);
    expect(email(advised).reasons).toContain('advised against by x-rule');
    expect(advised.length).toBe(base.length); // an action that does not resolve here adds nothing
    // A near match is not the element advised against: "Create account" keeps its score.
    const create = (xs: typeof base) => xs.find((x) => formatAction(x.action) === 'click([6])')!;
    expect(create(advised).score).toBe(create(base).score);
  });

  it('sets each box the way its own clause says, reads "stop" as off, and saves a changed setting', async () => {
    // A photo-sharing app's alert preferences, written for this test.
    const prefs = page('http://photos.test/preferences', [
      node('1', 'checkbox', 'Comment alerts', { states: { checked: false } }),
      node('2', 'checkbox', 'Emails when someone follows me', { states: { checked: true } }),
      node('3', 'checkbox', 'Monthly photo digest', { states: { checked: true } }),
      node('4', 'button', 'Restore original preferences'),
      node('5', 'button', 'Apply'),
    ]);
    const two = await ranked(input('Switch on comment alerts and switch off emails when someone follows me', prefs));
    expect(two.slice(0, 2).sort()).toEqual(['check([1])', 'uncheck([2])']);
    expect((await ranked(input('Stop the monthly photo digest', prefs)))[0]).toBe('uncheck([3])');
    const after = [{ action: 'uncheck(<checkbox "Monthly photo digest">)', outcome: 'ok', url: 'http://photos.test/preferences' }];
    const unticked = page('http://photos.test/preferences', prefs.nodes.map((n) => (n.ref === '3' ? { ...n, states: { checked: false } } : n)));
    expect((await ranked(input('Stop the monthly photo digest', unticked, after)))[0]).toBe('click([5])');
  });

  it('weighs a word shared only through a synonym less, and does not count a card title\'s own heading as its context', () => {
    // "bag" is a synonym of "basket" (both fold to "cart"), so the related item's
    // title used to match the task as well as the button and win on its heading too.
    const task = 'Add the camping stove to my basket.';
    const productPage = page('http://outdoors.test/item/7', [
      node(null, 'heading', 'Camping stove', { level: 1 }),
      node(null, 'text', 'Price: $40'),
      node('1', 'button', 'Add to basket'),
      node(null, 'heading', 'Camping stove bag', { level: 3 }),
      node('2', 'link', 'Camping stove bag', { href: 'http://outdoors.test/item/8' }),
    ]);
    const scores = new Map(scoreOfflineActions(input(task, productPage)).map((s) => [formatAction(s.action), s.score]));
    const w = OFFLINE_WEIGHTS;
    // add + basket in its own name (2 of 2 words), camping + stove in its heading, button prior 0.3.
    expect(scores.get('click([1])')).toBeCloseTo(2 * w.nameMatch + w.nameCoverage * (2 / 2) + 2 * w.contextMatch + 0.3, 10);
    expect(scores.get('click([1])')).toBeCloseTo(4.5, 10);
    // camping + stove shared, bag only through its synonym, 3 of 3 words covered, link prior 0.2; no context.
    expect(scores.get('click([2])')).toBeCloseTo(2 * w.nameMatch + w.synonymMatch + w.nameCoverage * (3 / 3) + 0.2, 10);
    expect(scores.get('click([2])')).toBeCloseTo(4.0, 10);
  });

  it('proposes report_infeasible on an empty page', async () => {
    expect(await ranked(input('Do anything', page('http://shop.test/empty', [])))).toEqual(['report_infeasible("Nothing on this page can be acted on.")']);
  });
});

describe('simulated policy', () => {
  const base = createOfflinePolicy();
  const run = async (seed: number, noise: number) =>
    (await createSimulatedPolicy({ base, random: seededRandom(seed), noise }).propose(input(LOGIN_TASK, loginPage(), [], [], 3))).candidates.map((c) => [
      formatAction(c.action),
      c.logit,
    ]);

  it('is reproducible by seed and differs across seeds', async () => {
    expect(await run(7, 1.5)).toEqual(await run(7, 1.5));
    expect(await run(7, 1.5)).not.toEqual(await run(8, 1.5));
  });

  it('with zero noise equals the base policy', async () => {
    const sim = await createSimulatedPolicy({ base, random: seededRandom(1), noise: 0 }).propose(input(LOGIN_TASK, loginPage()));
    const plain = await base.propose(input(LOGIN_TASK, loginPage()));
    expect(sim.logitSource).toBe('simulated');
    expect(sim.candidates).toEqual(plain.candidates);
  });

  it('re-ranks by noisy logits drawn from the seeded source', async () => {
    const wide = await base.propose(input(LOGIN_TASK, loginPage(), [], [], 8));
    const random = seededRandom(3);
    const u = Array.from({ length: 2 * wide.candidates.length }, () => random.next());
    const noisy = wide.candidates.map((c, i) => c.logit + 2 * Math.sqrt(-2 * Math.log(1 - u[2 * i]!)) * Math.cos(2 * Math.PI * u[2 * i + 1]!));
    const expected = noisy
      .map((logit, i) => ({ logit, i }))
      .sort((a, b) => b.logit - a.logit || a.i - b.i)
      .slice(0, 3)
      .map(({ logit, i }) => [formatAction(wide.candidates[i]!.action), logit]);
    expect(await run(3, 2)).toEqual(expected);
  });
});
