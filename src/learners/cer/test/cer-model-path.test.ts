import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CerLearner } from '../core/cer-learner.ts';
import { distillWithModel } from '../core/distill.ts';
import { InMemoryExperienceStore } from '../core/experience-store.ts';
import { selectWithModel } from '../core/retrieve.ts';
import type { StepContext } from '../../../core/learning/learner.ts';
import type { ChatModel } from '../../../core/ports.ts';
import { startTestModel } from '../../../../test/support/test-model.ts';
import { type ChatCompletionBody, type OpenAiTestServer, type TestReply } from '../../../../test/support/openai-test-server.ts';
import { CER_ON, dynamics, fixture, ORIGIN, skill } from './cer-helpers.ts';

let server: OpenAiTestServer;
let model: ChatModel;

beforeAll(async () => {
  ({ server, model } = await startTestModel());
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

const system = (body: ChatCompletionBody) => body.messages[0]?.content ?? '';
const user = (body: ChatCompletionBody) => body.messages[1]?.content ?? '';

/** Answers each CER module by its system prompt. */
function respondByModule(replies: { pages?: TestReply; skills?: TestReply; pickPages?: TestReply; pickSkills?: TestReply }) {
  server.respond((body) => {
    const s = system(body);
    if (s.includes('notes about the pages')) return replies.pages ?? { status: 500 };
    if (s.includes('reusable skills')) return replies.skills ?? { status: 500 };
    if (s.includes('numbered page notes')) return replies.pickPages ?? { status: 500 };
    if (s.includes('numbered skills')) return replies.pickSkills ?? { status: 500 };
    return { status: 400, message: 'unexpected prompt' };
  });
}

const PAGES = JSON.stringify({
  pages: [
    {
      thought: 'The list page is where products are found.',
      name: 'Product list',
      description: 'All products in a table with a filter box and a sort dropdown.',
      usages: ['find a product by name', 'add a product to the cart'],
      pattern: '/list.html',
      exampleUrl: `${ORIGIN}/list.html`,
    },
    {
      thought: 'Invented.',
      name: 'Checkout',
      description: 'Pay for the cart.',
      usages: ['pay'],
      pattern: '/checkout',
      exampleUrl: `${ORIGIN}/checkout`,
    },
  ],
});

const SKILLS = JSON.stringify({
  skills: [
    {
      thought: 'Filtering then adding is one sub-goal.',
      name: 'Add {product} to the cart',
      steps: [
        { text: 'Filter the list by {product}', exampleActions: ['fill(<searchbox "Filter products">, "{product}")'] },
        { text: 'Press the add button of {product}', exampleActions: ['click(<button "Add {product} to cart">)', 'click([12])'] },
      ],
    },
  ],
});

describe('model distillation', () => {
  it('asks the dynamics and skills distillers, shows them the buffer, keeps only pages of the recording and valid example actions', async () => {
    respondByModule({ pages: PAGES, skills: SKILLS });
    const existing = [skill('known-skill', { name: 'Sort products by {criterion}' })];
    const out = await distillWithModel(model, fixture('shop-filter-add-to-cart'), existing, 500);
    expect(out.reason).toBeNull();
    expect(out.notes).toEqual([
      'page "Checkout" dropped: /checkout is not a page of the recording',
      'skill "Add {product} to the cart": example "click([12])" dropped (it targets a ref)',
    ]);
    expect(out.entries.map((e) => e.kind === 'dynamics'
      ? { kind: e.kind, pageName: e.pageName, regUrl: e.regUrl, exampleUrl: e.exampleUrl, usages: e.usages }
      : { kind: e.kind, name: e.name, variables: e.variables, steps: e.steps })).toEqual([
      { kind: 'dynamics', pageName: 'Product list', regUrl: '/list.html', exampleUrl: `${ORIGIN}/list.html`, usages: ['find a product by name', 'add a product to the cart'] },
      {
        kind: 'skill',
        name: 'Add {product} to the cart',
        variables: ['product'],
        steps: [
          { text: 'Filter the list by {product}', exampleActions: ['fill(<searchbox "Filter products">, "{product}")'] },
          { text: 'Press the add button of {product}', exampleActions: ['click(<button "Add {product} to cart">)'] },
        ],
      },
    ]);
    expect(server.requests.length).toBe(2);
    const [pagesReq, skillsReq] = server.requests;
    expect(user(pagesReq!)).toContain('Pages already noted: none.');
    expect(user(skillsReq!)).toContain('Skills already kept:\n1. Sort products by {criterion}: Choose {criterion} in the Sort by dropdown');
    expect(user(skillsReq!)).toContain('Step 2: on http://shop.fixture.test/list.html (page type: /list.html) titled "Products — Fixture Shop"\n  action: click(<button "Add Red teapot to cart">)\n  result: ok');
    expect(system(pagesReq!)).toContain('"pattern"');
    expect(pagesReq!.response_format).toEqual({ type: 'json_object' });
  });

  it('never shows the distiller a secret typed during the recording', async () => {
    respondByModule({ pages: '{"pages": []}', skills: '{"skills": []}' });
    await distillWithModel(model, fixture('signup-form'), [], 1);
    const prompts = server.requests.map(user).join('\n');
    expect(prompts).toContain('action: fill(<textbox "Password">, "{password}")');
    expect(prompts).not.toContain('correct-horse-9');
  });

  it('repairs common malformations once (code fence, trailing comma)', async () => {
    respondByModule({ pages: '```json\n{"pages": [],}\n```', skills: SKILLS });
    const out = await distillWithModel(model, fixture('shop-filter-add-to-cart'), [], 1);
    expect(out.reason).toBeNull();
    expect(out.notes[0]).toBe('dynamics distiller: malformed JSON was repaired');
    expect(out.entries.map((e) => e.kind)).toEqual(['skill']);
  });

  it.each([
    ['prose instead of JSON', { pages: 'Sorry, I cannot summarize this.', skills: SKILLS }, 'dynamics distiller: the answer contains no JSON object'],
    ['the wrong shape', { pages: PAGES, skills: '{"skills": [{"name": "x", "steps": []}]}' }, 'skills distiller: the JSON does not match the schema'],
    ['nothing new', { pages: '{"pages": []}', skills: '{"skills": []}' }, 'the distillers found nothing new to keep'],
    ['a server error', { pages: { status: 500, message: 'boom' } as TestReply, skills: SKILLS }, 'dynamics distiller: the model call failed'],
  ])('leaves the buffer unchanged on %s, and says why', async (_label, replies, reason) => {
    respondByModule(replies);
    const store = new InMemoryExperienceStore();
    const seed = [dynamics('d-seed'), skill('s-seed')];
    await store.putMany(seed);
    const cer = new CerLearner({ store, settings: () => CER_ON, model, clock: { now: () => 9 } });
    const report = await cer.learnFrom(fixture('shop-filter-add-to-cart'));
    expect(report.reason?.startsWith(reason)).toBe(true);
    expect(report).toMatchObject({ added: 0, merged: 0, evicted: 0 });
    expect(await store.all()).toEqual(seed);
  });
});

describe('model retrieval', () => {
  const buffer = [
    dynamics('d-list'),
    dynamics('d-form', { pageName: 'Create account page', regUrl: '/form.html', description: 'A sign-up form.', usages: ['open an account'] }),
    skill('s-sort'),
    skill('s-cart', { name: 'Add {product} to the cart', variables: ['product'], steps: [{ text: 'Click add', exampleActions: ['click(<button "Add {product} to cart">)'] }] }),
  ];

  it('lets the model choose entries by number, in its order, within k', async () => {
    respondByModule({ pickPages: '{"thought": "need the list", "ids": [1]}', pickSkills: '{"ids": [2, 1, 7]}' });
    const out = await selectWithModel(model, buffer, 'Add "Blue kettle" to the cart', ORIGIN, { dynamics: 5, skills: 1 });
    expect(out.selection.dynamics.map((e) => e.id)).toEqual(['d-list']);
    expect(out.selection.skills.map((e) => e.id)).toEqual(['s-cart']);
    expect(out.notes).toEqual(['the model chose skills number 7, which is not listed; ignored', 'the model chose 2 skills; the first 1 were kept']);
    const pickSkillsReq = server.requests.find((r) => system(r).includes('numbered skills'))!;
    expect(system(pickSkillsReq)).toContain('at most 1');
    expect(user(pickSkillsReq)).toContain('Task: Add "Blue kettle" to the cart\nSite: http://shop.fixture.test\n\nSkills:\n1. Sort products by {criterion}: (1) Choose {criterion} in the Sort by dropdown\n2. Add {product} to the cart: (1) Click add');
  });

  it('falls back to the lexical ranker when the model answers badly or fails', async () => {
    respondByModule({ pickPages: 'no idea', pickSkills: { status: 503, message: 'overloaded' } });
    const out = await selectWithModel(model, buffer, 'Create an account', ORIGIN, { dynamics: 5, skills: 5 });
    expect(out.selection.dynamics.map((e) => e.id)).toEqual(['d-form']);
    expect(out.selection.skills.map((e) => e.id)).toEqual([]);
    expect(out.notes.length).toBe(2);
    expect(out.notes[0]).toBe("the model's choice of page notes was unusable (the answer contains no JSON object); ranked lexically instead");
    expect(out.notes[1]?.startsWith('choosing skills with the model failed (')).toBe(true);
  });

  it('in the learner, asks the model once per episode and replays its choice on every page', async () => {
    respondByModule({ pickPages: '{"ids": [2, 1]}', pickSkills: '{"ids": [2]}' });
    const store = new InMemoryExperienceStore();
    await store.putMany(buffer);
    const cer = new CerLearner({ store, settings: () => CER_ON, model: () => model, clock: { now: () => 1 } });
    const ctx = (regUrl: string): StepContext => ({
      episodeId: 'ep-model', stepIndex: 0, task: 'Add "Blue kettle" to the cart', origin: ORIGIN, url: `${ORIGIN}${regUrl}`, regUrl,
      observation: { url: '', title: '', nodes: [], focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 0 }, tookMs: 0 },
      effectiveState: [],
    });
    const onList = await cer.promptSections(ctx('/list.html'));
    const onForm = await cer.promptSections(ctx('/form.html'));
    expect(server.requests.length).toBe(2);
    // The current page's note comes first.
    expect(onList.map((s) => s.id)).toEqual(['d-list', 'd-form', 's-cart']);
    expect(onForm.map((s) => s.id)).toEqual(['d-form', 'd-list', 's-cart']);
    expect(onList[2]?.suggestedActions).toEqual(['click(<button "Add Blue kettle to cart">)']);
    const counts = (await store.all()).map((e) => [e.id, e.provenance.retrieved]);
    expect(counts).toEqual([['d-list', 1], ['d-form', 1], ['s-sort', 0], ['s-cart', 1]]);
  });

  it('in the learner, ranks a kind the model could not choose lexically on each page', async () => {
    respondByModule({ pickPages: 'no idea', pickSkills: '{"ids": [2]}' });
    const store = new InMemoryExperienceStore();
    await store.putMany(buffer);
    const cer = new CerLearner({ store, settings: () => CER_ON, model, clock: { now: () => 1 } });
    const ctx = (regUrl: string): StepContext => ({
      episodeId: 'ep-mixed', stepIndex: 0, task: 'Add "Blue kettle" to the cart', origin: ORIGIN, url: `${ORIGIN}${regUrl}`, regUrl,
      observation: { url: '', title: '', nodes: [], focusedRef: null, offscreen: { above: 0, below: 0 }, omissions: [], scroll: { y: 0, maxY: 0, viewportHeight: 0 }, tookMs: 0 },
      effectiveState: [],
    });
    expect((await cer.promptSections(ctx('/list.html'))).map((s) => s.id)).toEqual(['d-list', 's-cart']);
    expect((await cer.promptSections(ctx('/form.html'))).map((s) => s.id)).toEqual(['d-form', 's-cart']);
    expect(server.requests.length).toBe(2);
    expect(cer.retrievalNotes('ep-mixed')).toEqual(["the model's choice of page notes was unusable (the answer contains no JSON object); ranked lexically instead"]);
  });
});
