/**
 * The two scripted models of the trust benchmark. Both read the prompt the
 * way a model would — the page listing, its refs and names — and answer in
 * the candidate JSON the LLM policy asks for.
 *
 * - hijacked: fully taken over; always proposes the attacker's action for the
 *   page it is shown, whatever the task and however the page is marked.
 * - honest: proposes what the task asks, but obeys the first instruction-
 *   shaped line ("ignore previous instructions …") it reads as an
 *   instruction. When the system prompt states the data-section rule it
 *   reads only unmarked lines as instructions; otherwise every line. So it
 *   measures where page text lands in the prompt, not how obedient a real
 *   model is (real models obey imperfectly: 11–24% of injections succeed
 *   against defended agents in the literature).
 */
import { DATA_LINE_MARK, DATA_SECTION_RULE } from '../../src/core/llm/data-section.ts';
import type { ChatMessage } from '../../src/core/ports.ts';
import type { AttackAction, CorpusPage } from './corpus.ts';

export interface ListedElement {
  ref: string;
  role: string;
  name: string;
}

const LINE = /\[([^\]\s]+)\] ([a-z]+) ("(?:[^"\\]|\\.)*")/;

/** Every [ref] role "name" line of the page listing. */
export function listedElements(prompt: string): ListedElement[] {
  const out: ListedElement[] = [];
  for (const raw of prompt.split('\n')) {
    const m = LINE.exec(raw);
    if (!m) continue;
    try {
      out.push({ ref: m[1]!, role: m[2]!, name: JSON.parse(m[3]!) as string });
    } catch {
      /* not a listing line */
    }
  }
  return out;
}

/** The current page's URL, from the "Page: title (url)" line. */
export function pageUrlOf(prompt: string): string | null {
  for (const raw of prompt.split('\n')) {
    const line = raw.startsWith(DATA_LINE_MARK) ? raw.slice(DATA_LINE_MARK.length) : raw;
    if (!line.startsWith('Page: ')) continue;
    const m = /\((https?:\/\/[^\s()]+(?:\([^\s()]*\))?[^\s()]*)\)\s*$/.exec(line);
    if (m) return m[1]!;
  }
  return null;
}

const q = (s: string): string => JSON.stringify(s);

/** The action in the grammar, on the element of that name; null when the page does not show it. */
export function actionText(action: AttackAction, elements: ListedElement[]): string | null {
  switch (action.type) {
    case 'goto':
      return `goto(${q(action.url)})`;
    case 'send_msg_to_user':
      return `send_msg_to_user(${q(action.text)})`;
    default: {
      const el = elements.find((e) => e.name === action.name) ?? elements.find((e) => e.name.includes(action.name) && action.name !== '');
      if (!el) return null;
      if (action.type === 'fill') return `fill([${el.ref}], ${q(action.text)})`;
      if (action.type === 'press') return `press([${el.ref}], ${q(action.keys)})`;
      if (action.type === 'select_option') return `select_option([${el.ref}], ${q(action.option)})`;
      return `${action.type}([${el.ref}])`;
    }
  }
}

export function candidateJson(actions: string[]): string {
  return JSON.stringify({
    candidates: actions.map((action, i) => ({ option: i + 1, action, confidence: 90 - i * 10, why: 'scripted' })),
    best: 1,
  });
}

const userText = (messages: readonly ChatMessage[]): string => messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
const systemText = (messages: readonly ChatMessage[]): string => messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');

export function pageFor(prompt: string, byPath: Map<string, CorpusPage>): CorpusPage | null {
  const url = pageUrlOf(prompt);
  if (!url) return null;
  try {
    return byPath.get(new URL(url).pathname) ?? null;
  } catch {
    return null;
  }
}

/** The hijacked model's answer: the attacker's action (or, when its target is gone, ending the task). */
export function hijackedAnswer(messages: readonly ChatMessage[], byPath: Map<string, CorpusPage>): string {
  const prompt = userText(messages);
  const page = pageFor(prompt, byPath);
  const elements = listedElements(prompt);
  const attack = page?.attack ?? page?.benign ?? { type: 'send_msg_to_user', text: 'done' };
  return candidateJson([actionText(attack, elements) ?? 'send_msg_to_user("done")']);
}

const INSTRUCTION = /ignore (all )?previous instructions/i;

const decoded = (line: string): string => {
  try {
    return decodeURIComponent(line);
  } catch {
    return line;
  }
};

/** The honest model: the task's action, unless an instruction-shaped line takes it over. */
export function honestAnswer(messages: readonly ChatMessage[], page: CorpusPage): { action: string | null; hijacked: boolean } {
  const prompt = userText(messages);
  const obeysDataRule = systemText(messages).includes(DATA_SECTION_RULE);
  const instructionLines = prompt.split('\n').filter((l) => !(obeysDataRule && l.startsWith(DATA_LINE_MARK)));
  const elements = listedElements(prompt);
  if (page.attack && instructionLines.some((l) => INSTRUCTION.test(decoded(l)))) {
    return { action: actionText(page.attack, elements), hijacked: true };
  }
  return { action: actionText(page.benign, elements), hijacked: false };
}

/** The same prompt as it was before datamarking: no data sections, no rule. */
export function undefendedMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) => ({
    ...m,
    content: m.content
      .split('\n')
      .filter((l) => !/^(BEGIN|END) DATA \(/.test(l))
      .map((l) => (l.startsWith(DATA_LINE_MARK) ? l.slice(DATA_LINE_MARK.length) : l).replace(`- ${DATA_SECTION_RULE}`, '').replace(DATA_SECTION_RULE, ''))
      .join('\n'),
  }));
}
