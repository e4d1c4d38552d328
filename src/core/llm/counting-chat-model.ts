/**
 * Model calls counted where they happen: at the model port. Every caller —
 * the policy and every learner (distillation, rewrites) —
 * goes through the one ChatModel it was given, so wrapping that port counts
 * all of them, and a figure of "0 model calls" cannot leave a learner out.
 * A call counts when it is made, whether it succeeds or throws.
 */
import type { ChatModel, ChatRequest, ChatResponse } from '../ports.ts';

export interface CountingChatModel extends ChatModel {
  /** Calls made through this port so far. */
  readonly calls: number;
}

export function countingChatModel(inner: ChatModel): CountingChatModel {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      calls++;
      return inner.chat(request, signal);
    },
  };
}
