import { describe, expect, it } from 'vitest';
import { countingChatModel } from '../../src/core/llm/counting-chat-model.ts';
import type { ChatModel, ChatRequest } from '../../src/core/ports.ts';

describe('model calls counted at the port', () => {
  it('counts every call, failed ones included, whoever makes it', async () => {
    let fail = false;
    const inner: ChatModel = {
      chat: async () => {
        if (fail) throw new Error('down');
        return { content: '{}', usage: { promptTokens: 1, completionTokens: 1 } } as never;
      },
    };
    const port = countingChatModel(inner);
    const request = { messages: [] } as unknown as ChatRequest;
    await port.chat(request); // the policy
    await port.chat(request); // a learner's distillation
    fail = true;
    await expect(port.chat(request)).rejects.toThrow('down');
    expect(port.calls).toBe(3);
  });
});
