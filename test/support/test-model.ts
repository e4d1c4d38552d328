/** A local OpenAI-compatible test server and a chat model pointed at it (test-only). */
import { createOpenAiChatModel } from '../../src/adapters/openai/openai-chat-model.ts';
import type { ChatModel } from '../../src/core/ports.ts';
import { startOpenAiTestServer, type OpenAiTestServer } from './openai-test-server.ts';

export async function startTestModel(): Promise<{ server: OpenAiTestServer; model: ChatModel }> {
  const server = await startOpenAiTestServer();
  const model = createOpenAiChatModel({ preset: 'custom', baseUrl: server.baseUrl, apiKey: '', model: 'test-model', logitMode: 'auto', timeoutMs: 5000 });
  return { server, model };
}
