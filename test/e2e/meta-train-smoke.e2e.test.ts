/**
 * Meta-training smoke run on two shipped tasks (forum.upvote.2 to train,
 * forum.upvote.10 to validate) in headless Chromium, with every model — actor,
 * meta-agent, proposer — played by the local OpenAI-compatible test server:
 * - the actor presses the button a guide names (`Click the button "…"`), and
 *   otherwise gives up at once;
 * - the meta-agent names the button only when its strategy tells it to
 *   (the marker NAME-THE-BUTTON), picking the page's button that shares the
 *   most words with the task;
 * - the proposer adds that instruction.
 * So the seed strategy scores 0, the proposed one learns within a session, and
 * the run must validate it, make it the expert and write it to an importable
 * file. Needs dist-inject/page-agent.js (`npm run build`).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiChatModel } from '../../src/adapters/openai/openai-chat-model.ts';
import { parseMetaPromptFile } from '../../src/learners/metattl/core/meta-prompt-file.ts';
import { DEFAULT_SETTINGS } from '../../src/core/settings.ts';
import { runMetaTraining } from '../../bench/metattl/meta-train-run.ts';
import { createChromiumSessions } from '../../bench/metattl/meta-train-sessions.ts';
import apprenticeSites from '../../bench/suites/apprentice-sites/index.ts';
import { startOpenAiTestServer, type ChatCompletionBody, type OpenAiTestServer } from '../support/openai-test-server.ts';

const MARKER = 'NAME-THE-BUTTON';
let server: OpenAiTestServer;

const words = (s: string) => new Set(s.toLowerCase().match(/[a-z0-9]+/g) ?? []);
const overlap = (a: Set<string>, b: Set<string>) => [...a].filter((w) => b.has(w)).length;
const all = (body: ChatCompletionBody) => body.messages.map((m) => m.content).join('\n');

function actor(body: ChatCompletionBody): string {
  const text = all(body);
  const named = /Click the button "([^"\n]+)"/.exec(text)?.[1];
  const line = named ? [...text.matchAll(/\[(\w+)\] button ("(?:[^"\\]|\\.)*")/g)].find((m) => JSON.parse(m[2]!) === named) : undefined;
  const candidates = line
    ? [{ option: 1, action: `click([${line[1]}])`, confidence: 90, why: 'The guide names this button.' }]
    : [{ option: 1, action: 'send_msg_to_user("I do not know what to press.")', confidence: 50, why: 'No guide.' }];
  return JSON.stringify({ candidates, best: 1 });
}

function metaAgent(body: ChatCompletionBody): string {
  if (!body.messages[0]!.content.includes(MARKER)) return JSON.stringify({ diagnosis: 'It gave up.', guide: 'Look around the page and try harder.' });
  const last = body.messages.at(-1)!.content;
  const task = words(/\[TASK\] (.*)/.exec(last)?.[1] ?? '');
  const buttons = [...last.matchAll(/\[\w+\] button ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string);
  const best = buttons.sort((a, b) => overlap(words(b), task) - overlap(words(a), task))[0];
  return JSON.stringify({ diagnosis: 'It never pressed anything.', guide: best ? `Click the button "${best}" and nothing else.` : 'Look around.' });
}

beforeAll(async () => {
  server = await startOpenAiTestServer();
  server.respond((body) => {
    const system = body.messages[0]!.content;
    // The proposer's prompt quotes the meta-agent's header, so it is recognised first.
    if (system.includes('You improve the adaptation strategy')) {
      return JSON.stringify({ analysis: 'The guides were vague.', strategy: `Write guides that name the exact control to use (${MARKER}).` });
    }
    if (system.includes('You operate a web browser')) return actor(body);
    if (system.includes('You coach a web agent')) return metaAgent(body);
    return { status: 400, message: 'unexpected prompt' };
  });
});
afterAll(async () => {
  await server.close();
});

describe('npm run meta-train, smoke run', () => {
  it('finds, validates and writes a better strategy on two shipped tasks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meta-train-smoke-'));
    const provider = { ...DEFAULT_SETTINGS.provider, preset: 'custom' as const, baseUrl: server.baseUrl, model: 'test-model', timeoutMs: 10_000 };
    const started = Date.now();
    const result = await runMetaTraining({
      suite: apprenticeSites, train: ['forum.upvote.2'], val: ['forum.upvote.10'], budget: 4, attempts: 2, seed: 0, selection: 'mean',
      seedStrategy: 'Analyse the attempt.', provider, proposerModel: null, earlyStop: false,
      out: join(dir, 'meta-prompt.json'), checkpoint: join(dir, 'checkpoint.json'), fresh: false, progress: false,
      createSessions: createChromiumSessions, createModel: createOpenAiChatModel,
    });
    const { state } = result.outcome;
    console.log(result.report);
    // Seed on the validation task, then one iteration: parent, local validation, global validation.
    expect(state.evaluations).toBe(4);
    expect(state.history).toEqual([expect.objectContaining({ iteration: 1, taskId: 'forum.upvote.2', parentScore: 0, candidateScore: 2 / 3, outcome: 'validated', won: ['forum.upvote.10'] })]);
    expect(state.pool).toEqual({ 'forum.upvote.10': { candidateId: 'c1', score: 2 / 3 } });
    const file = parseMetaPromptFile(readFileSync(join(dir, 'meta-prompt.json'), 'utf8'));
    expect(file.ok).toBe(true);
    if (!file.ok) return;
    expect(file.file.strategy).toContain(MARKER);
    expect(file.file.training).toMatchObject({ train: ['forum.upvote.2'], val: ['forum.upvote.10'], evaluations: 4, validation: { 'forum.upvote.10': 2 / 3 }, seedValidation: { 'forum.upvote.10': 0 } });
    expect(result.report).toContain('Selected: c1');
    console.log(`meta-train smoke: ${((Date.now() - started) / 1000).toFixed(1)} s for ${state.evaluations} evaluations`);
  }, 180_000);
});
