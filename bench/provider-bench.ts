/**
 * `npm run bench:providers`: the model path against each provider shape of the
 * local test server (no model is reachable here), printing what a user of each
 * would see: the logit mode detected, the requests the first and the next
 * step cost (refusals included), and, with a small context window, how far
 * the page listing of a long page was shrunk to fit.
 */
import { markdownTable } from 'markdown-table';
import { createOpenAiChatModel } from '../src/adapters/openai/openai-chat-model.ts';
import { presetInfo } from '../src/adapters/openai/provider-presets.ts';
import { createLlmPolicy } from '../src/core/policy/llm-policy.ts';
import type { ProviderPreset } from '../src/core/settings.ts';
import { candidateAnswer, longPage, policyInput, THREE } from '../test/support/llm-fixtures.ts';
import { countPromptTokens, startOpenAiTestServer } from '../test/support/openai-test-server.ts';
import { providerShape, type ShapeName } from '../test/support/provider-shapes.ts';
import { helpIfAsked } from './cli.ts';

helpIfAsked('npm run bench:providers: the model path against each provider shape of the local test server (logit mode, requests per step, how far a long page is shrunk to fit a small window). It takes no flags.', {});

const CASES: [ShapeName, string, ProviderPreset][] = [
  ['openai', 'gpt-4o-mini', 'openai'],
  ['openai', 'o3-mini', 'openai'],
  ['openrouter', 'openai/gpt-4o-mini', 'openrouter'],
  ['openrouter', 'meta-llama/llama-3.1-405b-instruct', 'openrouter'],
  ['ollama', 'llama3.1:8b', 'ollama'],
  ['lmstudio', 'qwen2.5-7b-instruct', 'lmstudio'],
  ['vllm', 'Qwen/Qwen2.5-7B-Instruct', 'vllm'],
  ['llamacpp', 'model.gguf', 'llamacpp'],
];
const WINDOW = 3000;
const page = longPage(200);

const rows: string[][] = [];
for (const [name, model, preset] of CASES) {
  const server = await startOpenAiTestServer({ shape: providerShape(name, { contextTokens: WINDOW }) });
  let truncated = false;
  server.respond((_body, _i, info) => {
    truncated ||= info.truncated;
    return candidateAnswer(THREE);
  });
  const provider = { preset, baseUrl: server.baseUrl, apiKey: 'sk', model, logitMode: 'auto' as const, timeoutMs: 10_000 };
  const info = presetInfo(preset);
  // As the extension wires it: the preset's window (Ollama, LM Studio) and token ratio.
  const policy = createLlmPolicy(createOpenAiChatModel(provider), {
    logitMode: 'auto',
    charsPerToken: info.charsPerToken,
    ...(info.contextTokens > 0 ? { contextTokens: Math.min(info.contextTokens, WINDOW) } : {}),
  });
  const small = await policy.propose(policyInput());
  const firstRequests = server.requests.length;
  await policy.propose(policyInput());
  const nextRequests = server.requests.length - firstRequests;
  const before = server.requests.length;
  const long = await policy.propose(policyInput(3, page));
  const longRequests = server.requests.slice(before);
  const full = policyInput(3, page).renderedObservation.length;
  const shrink = long.notes.find((n) => n.includes('shrunk'));
  const shrunkTo = shrink ? Number(/to (\d+) characters/.exec(shrink)?.[1]) : full;
  rows.push([
    `${name} ${model}`,
    small.logitSource,
    String(firstRequests),
    String(nextRequests),
    String(countPromptTokens(longRequests[0]!.messages)),
    String(longRequests.length),
    `${full} → ${shrunkTo}`,
    String(countPromptTokens(longRequests.at(-1)!.messages)),
    truncated ? 'yes' : 'no',
  ]);
  await server.close();
}

console.log(`Provider conformance (local test server shapes; long page: ${page.nodes.length} elements; window ${WINDOW} tokens)\n`);
console.log(
  markdownTable([
    ['provider / model', 'logits', 'requests, 1st step', 'requests, next step', 'long page: 1st prompt tokens', 'requests', 'listing chars', 'prompt tokens sent', 'silently cut'],
    ...rows,
  ]),
);
