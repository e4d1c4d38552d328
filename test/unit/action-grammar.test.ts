import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action, Target } from '../../src/core/page/action.ts';
import { ActionParseError, formatAction, parseAction } from '../../src/core/page/action-grammar.ts';

const ok = (text: string): Action => {
  const r = parseAction(text);
  if (!r.ok) throw new Error(`expected ${text} to parse: ${r.error.message}`);
  return r.action;
};
const fail = (text: string): ActionParseError => {
  const r = parseAction(text);
  if (r.ok) throw new Error(`expected ${text} to fail, got ${JSON.stringify(r.action)}`);
  return r.error;
};
const ref = (r: string): Target => ({ kind: 'ref', ref: r });

describe('parseAction: every form', () => {
  it.each<[string, Action]>([
    ['click([12])', { type: 'click', target: ref('12') }],
    ['dblclick([3])', { type: 'dblclick', target: ref('3') }],
    ['hover([f1:7])', { type: 'hover', target: ref('f1:7') }],
    ['focus([4])', { type: 'focus', target: ref('4') }],
    ['clear([5])', { type: 'clear', target: ref('5') }],
    ['check([6])', { type: 'check', target: ref('6') }],
    ['uncheck([7])', { type: 'uncheck', target: ref('7') }],
    ['fill([8], "hello")', { type: 'fill', target: ref('8'), text: 'hello' }],
    ['select_option([9], "Blue")', { type: 'select_option', target: ref('9'), option: 'Blue' }],
    ['press([10], "Control+a")', { type: 'press', target: ref('10'), keys: 'Control+a' }],
    ['press("Enter")', { type: 'press', keys: 'Enter' }],
    ['scroll(0, -300)', { type: 'scroll', dx: 0, dy: -300 }],
    ['scroll([11], 10.5, 2e2)', { type: 'scroll', target: ref('11'), dx: 10.5, dy: 200 }],
    ['goto("https://example.com/a?b=1,2")', { type: 'goto', url: 'https://example.com/a?b=1,2' }],
    ['go_back()', { type: 'go_back' }],
    ['go_forward()', { type: 'go_forward' }],
    ['send_msg_to_user("The price is $12, not $10.")', { type: 'send_msg_to_user', text: 'The price is $12, not $10.' }],
    ['report_infeasible("no such product")', { type: 'report_infeasible', reason: 'no such product' }],
  ])('%s', (text, expected) => {
    expect(ok(text)).toEqual(expected);
  });
});

describe('parseAction: targets', () => {
  it('reads BrowserGym-style quoted refs in target positions only', () => {
    expect(ok("click('12')")).toEqual({ type: 'click', target: ref('12') });
    expect(ok('fill("a12", "x")')).toEqual({ type: 'fill', target: ref('a12'), text: 'x' });
    // One argument to press is the key, not a target.
    expect(ok("press('12')")).toEqual({ type: 'press', keys: '12' });
  });

  it('tolerates a bare integer ref and keeps its digits', () => {
    expect(ok('click(007)')).toEqual({ type: 'click', target: ref('007') });
    expect(ok('click([007])')).toEqual({ type: 'click', target: ref('007') });
  });

  it('reads semantic targets whose names hold > , ) and quotes', () => {
    expect(ok('click(<button "Sign in">)')).toEqual({ type: 'click', target: { kind: 'semantic', role: 'button', name: 'Sign in' } });
    expect(ok('fill(<textbox "Price > 10, (USD) \\"net\\"">, "5")')).toEqual({
      type: 'fill',
      target: { kind: 'semantic', role: 'textbox', name: 'Price > 10, (USD) "net"' },
      text: '5',
    });
    expect(ok("click(<link 'it\\'s here'>)")).toEqual({ type: 'click', target: { kind: 'semantic', role: 'link', name: "it's here" } });
    expect(ok('click(<button>)')).toEqual({ type: 'click', target: { kind: 'semantic', role: 'button', name: '' } });
  });
});

describe('parseAction: strings, whitespace, semicolons', () => {
  it('keeps commas, quotes, parentheses and escapes inside strings', () => {
    expect(ok(`fill([1], "a, b), (c")`)).toEqual({ type: 'fill', target: ref('1'), text: 'a, b), (c' });
    expect(ok(`fill([1], 'say "hi", then go')`)).toEqual({ type: 'fill', target: ref('1'), text: 'say "hi", then go' });
    expect(ok(`fill([1], "line1\\nline2\\\\end\\t\\u00e9")`)).toEqual({ type: 'fill', target: ref('1'), text: 'line1\nline2\\end\té' });
    // An unknown escape keeps its backslash (a model writing a Windows path).
    expect(ok(`fill([1], "C:\\path")`)).toEqual({ type: 'fill', target: ref('1'), text: 'C:\\path' });
  });

  it('tolerates whitespace, a trailing semicolon and upper-case names', () => {
    expect(ok('  click ( [ 12 ] ) ;  ')).toEqual({ type: 'click', target: ref('12') });
    expect(ok('scroll(\n  0,\n  -300\n);')).toEqual({ type: 'scroll', dx: 0, dy: -300 });
    expect(ok('Click([2])')).toEqual({ type: 'click', target: ref('2') });
  });
});

describe('parseAction: malformed input', () => {
  it.each<[string, number, RegExp]>([
    ['', 0, /^empty action/],
    ['clik([1])', 0, /^unknown action "clik"; expected one of click, /],
    ['click([1], "x")', 0, /^click takes click\(target\); got 2 arguments/],
    ['click()', 0, /^click takes click\(target\); got 0 arguments/],
    ['fill([1])', 0, /^fill takes fill\(target, "text"\) or fill\(target, "text", "append" or "prepend"\) or fill\(target, "text", "insert after" or "replace", "text"\); got 1 argument /],
    ['press()', 0, /^press takes press\(target, "text"\) or press\("text"\); got 0/],
    ['scroll(1)', 0, /^scroll takes scroll\(number, number\) or scroll\(target, number, number\)/],
    ['go_back(1)', 0, /^go_back takes go_back\(\); got 1 argument/],
    ['fill([1], "abc', 10, /^unterminated string starting at 10/],
    ["fill([1], 'abc\\')", 10, /^unterminated string/],
    ['click([12)', 6, /^unterminated ref: missing "\]"/],
    ['click([1 2])', 6, /^expected a ref such as \[12\]/],
    ['click([12', 6, /^unterminated ref/],
    ['click([])', 6, /^expected a ref/],
    ['click([1]', 9, /^expected "," or "\)" in the argument list \(at end of input\)/],
    ['click([1]) extra', 11, /^unexpected text after the action \(at 11 near "extra"\)/],
    ['click([1]);;', 11, /^unexpected text after the action/],
    ['click(<button "x")', 17, /^expected ">" to close the semantic target/],
    ['click(<"x">)', 7, /^expected a role after "<"/],
    ['click("Sign in")', 6, /^click: expected a target/],
    ['fill([1], 42)', 10, /^fill: expected a quoted string/],
    ['scroll("a", 2)', 7, /^scroll: expected a number/],
    ['goto("")', 0, /^goto: "url" /],
    ['press([1], "")', 0, /^press: "keys" /],
    ['click([1]) # note', 11, /^unexpected character "#"/],
    ['click(@)', 6, /^unexpected character "@"/],
    ['fill([1], "\\u12")', 11, /^bad \\u escape/],
  ])('%j fails at %i', (text, position, message) => {
    const e = fail(text);
    expect(e).toBeInstanceOf(ActionParseError);
    expect(e.name).toBe('ActionParseError');
    expect(e.position).toBe(position);
    expect(e.input).toBe(text);
    expect(e.found).toBe(text.slice(position, position + 20));
    expect(e.message).toMatch(message);
  });
});

describe('formatAction', () => {
  it('writes the canonical form', () => {
    expect(formatAction({ type: 'click', target: { kind: 'semantic', role: 'button', name: 'Say "hi"' } })).toBe('click(<button "Say \\"hi\\"">)');
    expect(formatAction({ type: 'fill', target: ref('f1:7'), text: 'a\nb' })).toBe('fill([f1:7], "a\\nb")');
    expect(formatAction({ type: 'press', keys: 'Enter' })).toBe('press("Enter")');
    expect(formatAction({ type: 'scroll', target: ref('3'), dx: -0, dy: 1e21 })).toBe('scroll([3], -0, 1e+21)');
    expect(formatAction({ type: 'go_forward' })).toBe('go_forward()');
  });

  const refArb = fc.oneof(
    fc.stringMatching(/^\d{1,5}$/),
    fc.stringMatching(/^f\d:\d{1,4}$/),
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,8}$/),
  );
  const targetArb: fc.Arbitrary<Target> = fc.oneof(
    refArb.map((r) => ({ kind: 'ref' as const, ref: r })),
    fc.record({
      kind: fc.constant('semantic' as const),
      role: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,10}$/),
      name: fc.string({ unit: 'binary', maxLength: 30 }),
    }),
    fc.record(
      {
        kind: fc.constant('semantic' as const),
        role: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,10}$/),
        name: fc.string({ unit: 'binary', maxLength: 30 }),
        context: fc.array(fc.record({ role: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,10}$/), name: fc.string({ unit: 'binary', maxLength: 20 }) }), { minLength: 1, maxLength: 3 }),
        nth: fc.integer({ min: 1, max: 999 }),
      },
      { requiredKeys: ['kind', 'role', 'name'] },
    ),
  );

  it('writes and reads a target\'s context and ordinal', () => {
    const remove: Action = { type: 'click', target: { kind: 'semantic', role: 'button', name: 'Remove', context: [{ role: 'row', name: 'Alan Turing' }, { role: 'dialog', name: 'Members' }] } };
    expect(formatAction(remove)).toBe('click(<button "Remove" in row "Alan Turing" in dialog "Members">)');
    expect(parseAction('fill(<textbox "" in item "Street"  nth 2>, "x")')).toEqual({
      ok: true, action: { type: 'fill', target: { kind: 'semantic', role: 'textbox', name: '', context: [{ role: 'item', name: 'Street' }], nth: 2 }, text: 'x' },
    });
    const bad = parseAction('click(<button "Remove" in "Alan">)');
    expect(bad.ok === false && bad.error.message).toMatch(/^expected a container role after "in"/);
    const zero = parseAction('click(<button "Remove" nth 0>)');
    expect(zero.ok === false && zero.error.message).toMatch(/^expected a whole number from 1 after "nth"/);
  });
  const text = fc.string({ unit: 'binary', maxLength: 40 });
  const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
  const actionArb: fc.Arbitrary<Action> = fc.oneof(
    fc.record({ type: fc.constantFrom('click', 'dblclick', 'hover', 'focus', 'clear', 'check', 'uncheck'), target: targetArb }),
    fc.record({ type: fc.constant('fill' as const), target: targetArb, text }),
    fc.record({ type: fc.constant('select_option' as const), target: targetArb, option: text }),
    fc.record({ type: fc.constant('press' as const), target: targetArb, keys: text.filter((s) => s.length > 0) }),
    fc.record({ type: fc.constant('press' as const), keys: text.filter((s) => s.length > 0) }),
    fc.record({ type: fc.constant('scroll' as const), dx: finite, dy: finite }),
    fc.record({ type: fc.constant('scroll' as const), target: targetArb, dx: finite, dy: finite }),
    fc.record({ type: fc.constant('goto' as const), url: text.filter((s) => s.length > 0) }),
    fc.record({ type: fc.constantFrom('go_back', 'go_forward') }),
    fc.record({ type: fc.constant('send_msg_to_user' as const), text }),
    fc.record({ type: fc.constant('report_infeasible' as const), reason: text }),
  ) as fc.Arbitrary<Action>;

  it('round-trips: parseAction(formatAction(a)) deep-equals a', () => {
    fc.assert(
      fc.property(actionArb, (a) => {
        const r = parseAction(formatAction(a));
        expect(r.ok && r.action).toEqual(a);
      }),
      { numRuns: 2000 },
    );
  });
});
