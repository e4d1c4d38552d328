/**
 * Propose(φ_parent, ξ_parent) of Meta-TTL Algorithm 2 (line 5): a proposer
 * model reads the parent strategy and the session it produced and writes a
 * revised strategy. The answer is validated with zod; a malformed one is
 * repaired once or dropped (the iteration then ends without a candidate).
 */
import * as z from 'zod';
import { describeError } from '../../src/core/errors.ts';
import { clip } from '../../src/learners/metattl/core/episode-log.ts';
import { MAX_STRATEGY_CHARS, META_PROMPT_HEADER } from '../../src/learners/metattl/core/meta-prompt.ts';
import { parseModelJson } from '../../src/core/llm/parse-model-json.ts';
import type { ChatMessage, ChatModel } from '../../src/core/ports.ts';
import type { SessionResult } from './meta-train-session.ts';

export const ProposalSchema = z.object({
  analysis: z.string().describe('Why the meta-agent helped or failed to help across these attempts.'),
  strategy: z.string().min(1).max(MAX_STRATEGY_CHARS).describe('The complete revised strategy section of the meta-prompt.'),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export type ProposalResult = { ok: true; proposal: Proposal; repaired: boolean } | { ok: false; error: string };

const PROPOSER_SYSTEM = `You improve the adaptation strategy of a meta-agent. The meta-agent coaches a web agent across repeated attempts at the same task: after each attempt it reads the attempt's log and rewrites the agent's guide. Its instructions have a fixed part, shown below for reference, and a strategy section, which is what you revise.

The fixed part the meta-agent always receives:
"""
${META_PROMPT_HEADER}
"""

You are shown the current strategy and one session: every attempt's log, the guide the meta-agent wrote after it, and the attempt's score (1 = task done). A good strategy makes scores rise from one attempt to the next and stay up; later attempts count more (W-AUC weights attempt k by k).

Rules for the revised strategy:
- It must work on websites and tasks nobody has seen: teach the meta-agent how to diagnose and how to write guides, never facts about this particular site, its pages or its values.
- Change what the session shows went wrong (a vague guide, a missed cause of failure, a guide that dropped what worked, advice that led to a loop), and keep what worked.
- Write the complete strategy section, not a list of edits. Keep it under ${MAX_STRATEGY_CHARS} characters.

Answer with one JSON object and nothing else, following this JSON Schema: ${JSON.stringify(z.toJSONSchema(ProposalSchema))}`;

export function renderSessionForProposer(session: SessionResult, attemptChars = 3_000): string {
  const lines = [`Task: ${session.taskId}`, `W-AUC: ${session.padded.toFixed(3)} (padded to K), ${session.unpadded.toFixed(3)} (attempts that ran)`];
  for (const a of session.attempts) {
    lines.push('', `=== Attempt ${a.attempt}: score ${a.score === null ? 'did not run' : a.score.toFixed(2)} ===`, clip(a.log, attemptChars));
    lines.push(a.guideAfter ? `--- Guide the meta-agent wrote after attempt ${a.attempt} ---\n${clip(a.guideAfter, 2_000)}` : `--- No guide written after attempt ${a.attempt} ---`);
  }
  return lines.join('\n');
}

export function buildProposerMessages(parentStrategy: string, session: SessionResult): ChatMessage[] {
  return [
    { role: 'system', content: PROPOSER_SYSTEM },
    {
      role: 'user',
      content: `Current strategy:\n"""\n${parentStrategy.trim() || '(empty: the meta-agent had no strategy)'}\n"""\n\nSession:\n${renderSessionForProposer(session)}\n\nWrite the analysis and the complete revised strategy as the JSON object described above.`,
    },
  ];
}

export async function proposeStrategy(model: ChatModel, parentStrategy: string, session: SessionResult, signal?: AbortSignal): Promise<ProposalResult> {
  const messages = buildProposerMessages(parentStrategy, session);
  let lastError = '';
  for (let tries = 0; tries < 2; tries++) {
    let text: string;
    try {
      text = (await model.chat({ messages, temperature: 0.7, maxTokens: 3_000, logprobs: false, topLogprobs: 0, json: true }, signal)).text;
    } catch (err) {
      return { ok: false, error: `the proposer call failed: ${describeError(err)}` };
    }
    const parsed = parseModelJson(text, ProposalSchema);
    if (parsed.ok && /[\p{L}\p{N}]/u.test(parsed.value.strategy)) {
      return { ok: true, proposal: { analysis: parsed.value.analysis, strategy: parsed.value.strategy.trim() }, repaired: parsed.repaired };
    }
    lastError = parsed.ok ? 'the strategy is empty' : parsed.error;
    messages.push(
      { role: 'assistant', content: text.slice(0, 4_000) },
      { role: 'user', content: `That answer could not be used: ${lastError}. Answer again with only the JSON object {"analysis": "…", "strategy": "…"}.` },
    );
  }
  return { ok: false, error: `the proposer's answer was unusable twice (${lastError})` };
}
