/**
 * The action grammar: text such as `fill([12], "a, \"b\"")` or
 * `click(<button "Sign in">)` ⇄ the typed `Action`. A small tokenizer and a
 * recursive-descent parser rather than regex splitting, so quoted strings may
 * hold commas, quotes and parentheses, and every failure says where it is.
 *
 * Grammar (whitespace is free between tokens, one trailing `;` is tolerated):
 *   call    := NAME '(' [arg (',' arg)*] ')'
 *   arg     := STRING | NUMBER | REF | SEMANTIC
 *   REF     := '[' ref ']'                         e.g. [12], [f1:7]
 *   SEMANTIC:= '<' ROLE [STRING] ('in' ROLE STRING)* ['nth' INT] '>'
 *             e.g. <button "Sign in">, <button "Remove" in row "Alan Turing">, <textbox "" in form "Address" nth 2>
 *   STRING  := "…" | '…' with JSON escapes plus \' (unknown escapes are kept literally)
 * A quoted string in a target position is a ref, BrowserGym style: click('12');
 * a bare integer there is tolerated too: click(12).
 * A fill may say it edits the field's text (text-change.ts):
 *   fill(<textbox "Content">, "\n[[Category:Bridges]]", "append"), "prepend",
 *   "insert after", "anchor" or "replace", "old text".
 */
import { ActionSchema, type Action, type ActionType, type SemanticTarget, type Target, type TargetContext } from './action.ts';
import { ACTION_KINDS, formOf, isActionKind, specOf, type Slot, type SlotKind } from './action-vocabulary.ts';
import { changeArgs, changeFromArgs, type TextChange } from './text-change.ts';

/** A malformed action string: where it went wrong and what was found there. */
export class ActionParseError extends Error {
  override readonly name = 'ActionParseError';
  constructor(
    message: string,
    /** Offset in the input (UTF-16 code units) where the problem starts. */
    readonly position: number,
    /** The offending text at that position ('' at end of input). */
    readonly found: string,
    readonly input: string,
  ) {
    super(message);
  }
}

export type ParsedAction = { ok: true; action: Action } | { ok: false; error: ActionParseError };

/** What the grammar accepts as a ref: "12", "f1:7", BrowserGym's "a12". */
export const REF_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
const ROLE_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;

type Token =
  | { kind: 'name'; value: string; pos: number; end: number }
  | { kind: 'string'; value: string; pos: number; end: number }
  | { kind: 'number'; value: number; raw: string; pos: number; end: number }
  | { kind: 'ref'; value: string; pos: number; end: number }
  | { kind: 'punct'; value: '(' | ')' | ',' | ';' | '<' | '>'; pos: number; end: number };

class Fail {
  constructor(readonly message: string, readonly pos: number) {}
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"', "'": "'", '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f',
};

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '[') {
      // Refs are read raw so [007] keeps its digits and [f1:7] needs no escaping.
      const close = input.indexOf(']', i);
      if (close < 0) throw new Fail('unterminated ref: missing "]"', i);
      const ref = input.slice(i + 1, close).trim();
      if (!REF_PATTERN.test(ref)) throw new Fail('expected a ref such as [12] or [f1:7]', i);
      tokens.push({ kind: 'ref', value: ref, pos: i, end: close + 1 });
      i = close + 1;
      continue;
    }
    if ('(),;<>'.includes(c)) {
      tokens.push({ kind: 'punct', value: c as '(', pos: i, end: i + 1 });
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i;
      let out = '';
      i++;
      for (;;) {
        if (i >= input.length) throw new Fail(`unterminated string starting at ${start}`, start);
        const d = input[i]!;
        if (d === c) {
          i++;
          break;
        }
        if (d === '\\') {
          const e = input[i + 1];
          if (e === undefined) throw new Fail(`unterminated string starting at ${start}`, start);
          if (e === 'u') {
            const hex = input.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Fail('bad \\u escape: expected 4 hex digits', i);
            out += String.fromCharCode(parseInt(hex, 16));
            i += 6;
            continue;
          }
          const simple = SIMPLE_ESCAPES[e];
          // An unknown escape (a model writing C:\path) keeps its backslash.
          out += simple ?? `\\${e}`;
          i += 2;
          continue;
        }
        out += d;
        i++;
      }
      tokens.push({ kind: 'string', value: out, pos: start, end: i });
      continue;
    }
    const num = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(input.slice(i));
    if (num && (/[\d.]/.test(c) || /[\d.]/.test(input[i + 1] ?? ''))) {
      const value = Number(num[0]);
      if (!Number.isFinite(value)) throw new Fail(`number out of range: ${num[0]}`, i);
      tokens.push({ kind: 'number', value, raw: num[0], pos: i, end: i + num[0].length });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_:.-]*/.exec(input.slice(i));
    if (name) {
      tokens.push({ kind: 'name', value: name[0], pos: i, end: i + name[0].length });
      i += name[0].length;
      continue;
    }
    throw new Fail(`unexpected character ${JSON.stringify(c)}`, i);
  }
  return tokens;
}

type Arg =
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; raw: string; pos: number }
  | { kind: 'target'; target: Target; pos: number };

const SLOT_WORDS: Record<Exclude<SlotKind, 'change'>, string> = { target: 'target', number: 'number', value: '"text"', keys: '"text"', url: '"text"', answer: '"text"' };
/** A change slot is written as one or two strings: a form ending in one takes one argument more. */
const CHANGE_WORDS = ['"append" or "prepend"', '"insert after" or "replace", "text"'];
const fits = (form: readonly Slot<ActionType>[], count: number): boolean =>
  count === form.length || (form.at(-1)?.[1] === 'change' && count === form.length + 1);
/** How a form is written, for an error: a form ending in a change is two ways of writing it. */
function describeForm(name: string, form: readonly Slot<ActionType>[]): string[] {
  const head = form.filter(([, kind]) => kind !== 'change').map(([, kind]) => SLOT_WORDS[kind as Exclude<SlotKind, 'change'>]);
  const ways = form.at(-1)?.[1] === 'change' ? CHANGE_WORDS.map((w) => [...head, w]) : [head];
  return ways.map((args) => `${name}(${args.join(', ')})`);
}

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly inputLength: number) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }
  private posHere(): number {
    return this.peek()?.pos ?? this.inputLength;
  }
  private expectPunct(value: string, what: string): Token {
    const t = this.peek();
    if (!t || t.kind !== 'punct' || t.value !== value) throw new Fail(`expected ${what}`, this.posHere());
    this.i++;
    return t;
  }

  parseCall(): Action {
    const nameTok = this.peek();
    if (!nameTok) throw new Fail('empty action', 0);
    if (nameTok.kind !== 'name') throw new Fail('expected an action name such as click', nameTok.pos);
    this.i++;
    const name = nameTok.value.toLowerCase();
    if (!isActionKind(name)) {
      throw new Fail(`unknown action "${nameTok.value}"; expected one of ${ACTION_KINDS.join(', ')}`, nameTok.pos);
    }
    this.expectPunct('(', `"(" after ${name}`);
    const args: Arg[] = [];
    if (!this.isPunct(')')) {
      for (;;) {
        args.push(this.parseArg());
        if (this.isPunct(',')) {
          this.i++;
          continue;
        }
        break;
      }
    }
    this.expectPunct(')', '"," or ")" in the argument list');
    if (this.isPunct(';')) this.i++;
    const rest = this.peek();
    if (rest) throw new Fail('unexpected text after the action', rest.pos);
    return this.build(name, args, nameTok.pos);
  }

  private isPunct(v: string): boolean {
    const t = this.peek();
    return t?.kind === 'punct' && t.value === v;
  }

  private parseArg(): Arg {
    const t = this.peek();
    if (!t) throw new Fail('expected an argument', this.inputLength);
    if (t.kind === 'string') {
      this.i++;
      return { kind: 'string', value: t.value, pos: t.pos };
    }
    if (t.kind === 'number') {
      this.i++;
      return { kind: 'number', value: t.value, raw: t.raw, pos: t.pos };
    }
    if (t.kind === 'ref') {
      this.i++;
      return { kind: 'target', target: { kind: 'ref', ref: t.value }, pos: t.pos };
    }
    if (t.kind === 'punct' && t.value === '<') {
      this.i++;
      const roleTok = this.peek();
      if (!roleTok || roleTok.kind !== 'name' || !ROLE_PATTERN.test(roleTok.value)) {
        throw new Fail('expected a role after "<", as in <button "Sign in">', roleTok?.pos ?? this.inputLength);
      }
      this.i++;
      let name = '';
      const nameTok = this.peek();
      if (nameTok?.kind === 'string') {
        name = nameTok.value;
        this.i++;
      }
      const context = this.parseContext();
      const nth = this.parseNth();
      this.expectPunct('>', '">" to close the semantic target, as in <button "Sign in">');
      const target: SemanticTarget = {
        kind: 'semantic', role: roleTok.value, name, ...(context.length > 0 ? { context } : {}), ...(nth !== undefined ? { nth } : {}),
      };
      return { kind: 'target', target, pos: t.pos };
    }
    throw new Fail('expected a string, number, [ref] or <role "name">', t.pos);
  }

  /** `in row "Alan Turing" in dialog "Members"`: the containers, innermost first. */
  private parseContext(): TargetContext[] {
    const out: TargetContext[] = [];
    for (;;) {
      const kw = this.peek();
      if (kw?.kind !== 'name' || kw.value !== 'in') return out;
      this.i++;
      const role = this.peek();
      if (!role || role.kind !== 'name' || !ROLE_PATTERN.test(role.value)) {
        throw new Fail('expected a container role after "in", as in <button "Remove" in row "Alan Turing">', role?.pos ?? this.inputLength);
      }
      this.i++;
      const label = this.peek();
      if (label?.kind !== 'string') throw new Fail('expected the container\'s name in quotes, as in in row "Alan Turing"', label?.pos ?? this.inputLength);
      this.i++;
      out.push({ role: role.value, name: label.value });
    }
  }

  /** `nth 2`: the element's place among identical ones. */
  private parseNth(): number | undefined {
    const kw = this.peek();
    if (kw?.kind !== 'name' || kw.value !== 'nth') return undefined;
    this.i++;
    const n = this.peek();
    if (n?.kind !== 'number' || !/^[1-9]\d*$/.test(n.raw)) throw new Fail('expected a whole number from 1 after "nth"', n?.pos ?? this.inputLength);
    this.i++;
    return n.value;
  }

  private build(name: ActionType, args: Arg[], namePos: number): Action {
    const forms = specOf(name).forms as readonly (readonly Slot<ActionType>[])[];
    const form = forms.find((f) => fits(f, args.length));
    if (form === undefined) {
      throw new Fail(
        `${name} takes ${forms.flatMap((f) => describeForm(name, f)).join(' or ')}; got ${args.length} argument${args.length === 1 ? '' : 's'}`,
        namePos,
      );
    }
    const target = (a: Arg): Target => {
      if (a.kind === 'target') return a.target;
      if (a.kind === 'string' && REF_PATTERN.test(a.value)) return { kind: 'ref', ref: a.value };
      // Tolerated: a bare integer, as models often write click(12).
      if (a.kind === 'number' && /^\d+$/.test(a.raw)) return { kind: 'ref', ref: a.raw };
      throw new Fail(`${name}: expected a target such as [12] or <button "Sign in">`, a.pos);
    };
    const str = (a: Arg): string => {
      if (a.kind === 'string') return a.value;
      throw new Fail(`${name}: expected a quoted string`, a.pos);
    };
    const num = (a: Arg): number => {
      if (a.kind === 'number') return a.value;
      throw new Fail(`${name}: expected a number`, a.pos);
    };
    const fields: Record<string, unknown> = { type: name };
    for (const [i, [field, kind]] of form.entries()) {
      const a = args[i]!;
      if (kind === 'change') {
        const change = changeFromArgs(args.slice(i).map(str));
        if (typeof change === 'string') throw new Fail(`${name}: ${change}`, a.pos);
        fields[field as string] = change;
        continue;
      }
      fields[field as string] = kind === 'target' ? target(a) : kind === 'number' ? num(a) : str(a);
    }
    const action = fields as Action;
    // Catches what the shape cannot: empty keys, empty URL.
    const checked = ActionSchema.safeParse(action);
    if (!checked.success) {
      const field = checked.error.issues[0]?.path.join('.') ?? '';
      throw new Fail(`${name}: ${field ? `"${field}" ` : ''}${checked.error.issues[0]?.message ?? 'invalid'}`, namePos);
    }
    return checked.data;
  }
}

export function parseAction(text: string): ParsedAction {
  try {
    const tokens = tokenize(text);
    return { ok: true, action: new Parser(tokens, text.length).parseCall() };
  } catch (err) {
    if (err instanceof Fail) {
      const found = text.slice(err.pos, err.pos + 20);
      const where = err.pos >= text.length ? 'at end of input' : `at ${err.pos} near ${JSON.stringify(found)}`;
      return { ok: false, error: new ActionParseError(`${err.message} (${where})`, err.pos, found, text) };
    }
    throw err;
  }
}

const quote = (s: string) => JSON.stringify(s);

/** ` in row "Alan Turing" in dialog "Members"`: the context as the grammar writes it ('' when there is none). */
export function formatContext(context: readonly TargetContext[] | undefined): string {
  return (context ?? []).map((c) => ` in ${c.role} ${quote(c.name)}`).join('');
}

export function formatTarget(target: Target): string {
  if (target.kind === 'ref') return `[${target.ref}]`;
  const nth = target.nth !== undefined ? ` nth ${target.nth}` : '';
  return `<${target.role} ${quote(target.name)}${formatContext(target.context)}${nth}>`;
}

/**
 * Canonical text of an action: parseAction(formatAction(a)) deep-equals `a`
 * for every action whose refs and roles fit REF_PATTERN / role names.
 */
export function formatAction(action: Action): string {
  const num = (n: number) => (Object.is(n, -0) ? '-0' : String(n));
  const held = action as Record<string, unknown>;
  const args = formOf(action).map(([field, kind]) => {
    const v = held[field as string];
    if (kind === 'change') return changeArgs(v as TextChange).map(quote).join(', ');
    return kind === 'target' ? formatTarget(v as Target) : kind === 'number' ? num(v as number) : quote(v as string);
  });
  return `${action.type}(${args.join(', ')})`;
}
