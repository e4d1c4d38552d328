import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeLog } from '../core/episode-log.ts';
import { renderEpisodeLog } from '../core/episode-log.ts';
import { GuideAdaptation, NEEDS_MODEL } from '../core/guide-adaptation.ts';
import { editGuide, resetGuide } from '../core/guide-record.ts';
import { InMemoryGuideStore } from '../core/guide-store.ts';
import { parseMetaAnswer } from '../core/meta-answer.ts';
import { DEFAULT_METATTL, type MetaTtlSettings } from '../core/metattl-settings.ts';
import type { ChatModel } from '../../../core/ports.ts';
import { startTestModel } from '../../../../test/support/test-model.ts';
import { type OpenAiTestServer } from '../../../../test/support/openai-test-server.ts';

const ORIGIN = 'http://shop.test';
let server: OpenAiTestServer;
let model: ChatModel;
let now = 1_000;
const clock = { now: () => now++ };

beforeAll(async () => {
  ({ server, model } = await startTestModel());
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

function log(task: string, outcome: EpisodeLog['outcome'], guide: string | null, action = 'click(<button "Add to cart">)'): EpisodeLog {
  return {
    attempt: 1, task, guide,
    steps: [{ url: `${ORIGIN}/p/104`, pageTitle: 'Kettle', digest: '[3] button "Add to cart"\n[4] link "Cart"', action, outcome: 'ok' }],
    finalPage: { url: `${ORIGIN}/cart`, title: 'Cart', digest: 'Cart is empty' },
    answer: null, outcome, score: outcome === 'success' ? 1 : 0,
  };
}

function loop(settings: Partial<MetaTtlSettings> = {}, withModel = true) {
  const store = new InMemoryGuideStore();
  const s: MetaTtlSettings = { ...DEFAULT_METATTL, enabled: true, ...settings };
  return { store, adaptation: new GuideAdaptation({ store, model: () => (withModel ? model : null), settings: () => s, clock }) };
}

/** Replies with a guide naming the call number, so each answer is recognisable. */
function numberedGuides() {
  server.respond((_body, i) => JSON.stringify({ diagnosis: `diagnosis ${i}`, guide: `guide number ${i}` }));
}

describe('Meta-TTL inner loop', () => {
  it('replaces the guide after each attempt instead of appending to it', async () => {
    numberedGuides();
    const { adaptation } = loop();
    const task = 'Add the kettle to the cart';
    expect(await adaptation.guideFor(ORIGIN, task)).toBeNull();
    const r1 = await adaptation.afterEpisode(ORIGIN, log(task, 'failure', null));
    expect(r1.changed).toBe(true);
    expect((await adaptation.guideFor(ORIGIN, task))?.guide).toBe('guide number 0');
    await adaptation.afterEpisode(ORIGIN, log(task, 'failure', 'guide number 0'));
    const inForce = await adaptation.guideFor(ORIGIN, task);
    expect(inForce?.guide).toBe('guide number 1');
    expect(inForce?.guide).not.toContain('guide number 0');
    expect(inForce?.record.history.map((h) => [h.guide, h.afterAttempt, h.source])).toEqual([
      ['guide number 0', 1, 'meta-agent'],
      ['guide number 1', 2, 'meta-agent'],
    ]);
    // The second meta call saw the guide the actor followed in attempt 2.
    const second = server.requests[1]!.messages;
    expect(second.at(-1)!.content).toContain('ATTEMPT 2');
    expect(second.at(-1)!.content).toContain('guide number 0');
  });

  it('keeps one message per attempt, capped, and says how many were left out', async () => {
    numberedGuides();
    const { adaptation, store } = loop({ conversationCap: 2 });
    const task = 'Add the kettle to the cart';
    for (let k = 0; k < 4; k++) await adaptation.afterEpisode(ORIGIN, log(task, 'failure', null, `click(<link "Try ${k}">)`));
    const record = (await store.list(ORIGIN))[0]!;
    expect(record.attempts).toBe(4);
    expect(record.conversation).toHaveLength(2);
    expect(record.omitted).toBe(2);
    expect(record.conversation[0]).toContain('ATTEMPT 3');
    expect(record.conversation[1]).toContain('ATTEMPT 4');
    // System prompt + one user message per kept attempt.
    const last = server.requests[3]!.messages;
    expect(last.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(last[1]!.content.startsWith('(2 earlier attempts not shown)')).toBe(true);
    expect(last[2]!.content).toContain('Try 3');
    expect(last.some((m) => m.content.includes('Try 1'))).toBe(false);
  });

  it('puts the strategy between the fixed header and footer of the meta-prompt', async () => {
    numberedGuides();
    const { adaptation } = loop({ strategy: 'ALWAYS LIST THE FIELDS FIRST' });
    await adaptation.afterEpisode(ORIGIN, log('t', 'failure', null));
    const system = server.requests[0]!.messages[0]!.content;
    expect(system.indexOf('coach a web agent')).toBeLessThan(system.indexOf('ALWAYS LIST THE FIELDS FIRST'));
    expect(system.indexOf('ALWAYS LIST THE FIELDS FIRST')).toBeLessThan(system.indexOf('Answer with one JSON object'));
  });

  it('repairs a malformed answer once and stores the repaired guide', async () => {
    server.respond(() => "```json\n{diagnosis: 'went to the wrong page', guide: 'Open the product page, then press Add to cart',}\n```");
    const { adaptation } = loop();
    const r = await adaptation.afterEpisode(ORIGIN, log('t', 'failure', null));
    expect(r.changed).toBe(true);
    expect(r.record?.guide).toBe('Open the product page, then press Add to cart');
    expect(r.notes).toEqual(['Meta-TTL: the JSON was malformed and was repaired.']);
  });

  it('drops an unusable answer after one retry: the old guide stays and nothing of the answer is stored', async () => {
    numberedGuides();
    const { adaptation, store } = loop();
    const task = 'Add the kettle to the cart';
    await adaptation.afterEpisode(ORIGIN, log(task, 'failure', null));
    server.respond(() => 'I think you should INJECTED-TEXT try harder');
    const r = await adaptation.afterEpisode(ORIGIN, log(task, 'failure', 'guide number 0'));
    expect(r.changed).toBe(false);
    expect(r.notes[0]).toMatch(/unusable twice.*guide in force was kept/);
    expect(server.requests).toHaveLength(3); // one good call, then the bad answer and its retry
    const record = (await store.list())[0]!;
    expect(record.guide).toBe('guide number 0');
    expect(record.history).toHaveLength(1);
    expect(JSON.stringify(record)).not.toContain('INJECTED-TEXT');
    // The attempt itself still joined the conversation.
    expect(record.conversation).toHaveLength(2);
  });

  it('without a model says so and changes nothing', async () => {
    const { adaptation, store } = loop({}, false);
    const r = await adaptation.afterEpisode(ORIGIN, log('t', 'failure', null));
    expect(r).toMatchObject({ changed: false, record: null, notes: [NEEDS_MODEL] });
    expect(await store.list()).toEqual([]);
    expect(server.requests).toHaveLength(0);
    expect(adaptation.inactiveReason()).toBe(NEEDS_MODEL);
  });

  it('template scope shares one guide between instances of a task', async () => {
    numberedGuides();
    const { adaptation } = loop({ scope: 'template' });
    await adaptation.afterEpisode(ORIGIN, log('Add product 104 to the cart', 'failure', null));
    expect((await adaptation.guideFor(ORIGIN, 'Add product 202 to the cart'))?.guide).toBe('guide number 0');
    expect(await adaptation.guideFor('http://other.test', 'Add product 202 to the cart')).toBeNull();
  });
});

describe('guide edits by the person', () => {
  it('an edit becomes the guide in force, a reset clears guide and conversation', async () => {
    numberedGuides();
    const { adaptation, store } = loop();
    await adaptation.afterEpisode(ORIGIN, log('t', 'failure', null));
    const record = (await store.list())[0]!;
    const edited = editGuide(record, '  Use the search box first.  ', 5);
    expect(edited).toMatchObject({ guide: 'Use the search box first.', source: 'person' });
    const reset = resetGuide(edited, 6);
    expect(reset).toMatchObject({ guide: null, source: 'reset', conversation: [], omitted: 0 });
    expect(reset.history.map((h) => h.source)).toEqual(['meta-agent', 'person', 'reset']);
    expect(editGuide(record, '   ', 7).guide).toBeNull();
  });
});

describe('parseMetaAnswer', () => {
  it('accepts the authors’ <learn> form as a repair', () => {
    const r = parseMetaAnswer('<think>it looped</think><learn>Click Cart once.</learn>');
    expect(r).toEqual({ ok: true, answer: { diagnosis: 'it looped', guide: 'Click Cart once.' }, repairs: ['the answer used <learn> tags instead of JSON'] });
  });
  it('rejects an empty guide and prose without JSON', () => {
    expect(parseMetaAnswer('{"diagnosis": "x", "guide": " ... "}')).toEqual({ ok: false, error: 'the guide is empty' });
    expect(parseMetaAnswer('no json here').ok).toBe(false);
  });
  it('cuts an over-long guide to the cap', () => {
    const r = parseMetaAnswer(JSON.stringify({ diagnosis: '', guide: 'a'.repeat(5_000) }));
    expect(r.ok && r.answer.guide.length).toBe(4_000);
    expect(r.ok && r.repairs).toEqual(['the guide was cut to 4000 characters']);
  });
});

describe('renderEpisodeLog', () => {
  it('shows guide, task, steps with page digests and actions, final page and outcome', () => {
    const text = renderEpisodeLog({ ...log('Add the kettle', 'failure', 'Go to Cart'), attempt: 3 });
    expect(text).toBe([
      'ATTEMPT 3',
      '[GUIDE USED] ',
      '    Go to Cart',
      '[TASK] Add the kettle',
      `[STEP 1] Kettle — ${ORIGIN}/p/104`,
      '[OBS]',
      '    [3] button "Add to cart"',
      '    [4] link "Cart"',
      '[ACTION] click(<button "Add to cart">) → ok',
      `[FINAL PAGE] Cart — ${ORIGIN}/cart`,
      '    Cart is empty',
      '[OUTCOME] failure (score 0 of 1)',
    ].join('\n'));
  });
  it('bounds every page digest', () => {
    const long = {
      ...log('t', 'failure', null),
      steps: Array.from({ length: 30 }, () => ({ url: 'u', pageTitle: 'p', digest: 'x'.repeat(5_000), action: 'a', outcome: 'ok' })),
      finalPage: { url: 'u', title: 'end', digest: 'y'.repeat(5_000) },
    };
    const lines = renderEpisodeLog(long, { digestBudget: 3_000, minDigestPerStep: 100, guideChars: 100 }).split('\n');
    // 30 steps + final page (2 shares) → floor(3000/32) = 93 < floor 100 → 99 characters and "…" per step, 200 for the final page.
    const obs = lines.filter((l) => l.startsWith('    x'));
    expect(obs).toHaveLength(30);
    expect(obs.every((l) => l === `    ${'x'.repeat(99)}…`)).toBe(true);
    expect(lines.find((l) => l.startsWith('    y'))).toBe(`    ${'y'.repeat(199)}…`);
  });
});
