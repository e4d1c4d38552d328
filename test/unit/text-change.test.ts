/**
 * Edits as changes (issue 34, part 5): the change read off the text before
 * and after an edit, the grammar that carries it, applying it to a changed
 * text, and the panel's words. Every value is worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { formatAction, parseAction } from '../../src/core/page/action-grammar.ts';
import { applyTextChange, describeChange, textChangeOf } from '../../src/core/page/text-change.ts';
import { actionWords } from '../../src/ui/app/action-words.ts';
import { semanticAsChange } from '../../src/core/agent/edit-as-change.ts';
import { abstractActions, instantiateAction } from '../../src/core/learning/shared/skill-variables.ts';

const PAGE = 'The Golden Gate Bridge spans the strait.\n\n== History ==\nOpened in 1937.\n\n== See also ==\n* Bay Bridge';

describe('textChangeOf', () => {
  it('reads a line added at the end as an append of that line only', () => {
    // Common start: all 96 characters of PAGE; nothing kept at the end: append "\n[[Category:Bridges]]".
    expect(textChangeOf(PAGE, `${PAGE}\n[[Category:Bridges]]`)).toEqual({ text: '\n[[Category:Bridges]]', change: { kind: 'append' } });
  });

  it('reads a line added at the start as a prepend', () => {
    expect(textChangeOf('a\nb', '{{Stub}}\na\nb')).toEqual({ text: '{{Stub}}\n', change: { kind: 'prepend' } });
  });

  it('reads a line inserted in the middle as an insert after the line before it', () => {
    // "a\nb\n" + "x\n" + "c": the insertion point starts a line, so the anchor is the whole line before, "b\n".
    expect(textChangeOf('a\nb\nc', 'a\nb\nx\nc')).toEqual({ text: 'x\n', change: { kind: 'insert', after: 'b\n' } });
  });

  it('reads words changed in place as a replace of the old words', () => {
    // Common start "Intro\nOpened in 193" (19), common end "." (1): "7" → "8", and "7" occurs once.
    expect(textChangeOf('Intro\nOpened in 1937.', 'Intro\nOpened in 1938.')).toEqual({ text: '8', change: { kind: 'replace', old: '7' } });
  });

  it('widens an old text that occurs elsewhere too to its whole line', () => {
    // "7" occurs in "1937" and "2737": not unique, so the whole line "Opened in 1937." is replaced.
    expect(textChangeOf('Opened in 1937.\nLength 2737 m', 'Opened in 1938.\nLength 2737 m')).toEqual({ text: 'Opened in 1938.', change: { kind: 'replace', old: 'Opened in 1937.' } });
  });

  it('is no change for a one-line field, an empty one, a rewrite or no edit', () => {
    expect(textChangeOf('Ada', 'Ada Lovelace')).toBeNull();
    expect(textChangeOf('', 'x\ny')).toBeNull();
    expect(textChangeOf('a\nb', 'x\ny')).toBeNull();
    expect(textChangeOf('a\nb', 'a\nb')).toBeNull();
  });

  it('in a field of lines (a textarea) holding one line, reads a line added after or before it as a change, and nothing else', () => {
    expect(textChangeOf('Ada', 'Ada\nLovelace', { multiline: true })).toEqual({ text: '\nLovelace', change: { kind: 'append' } });
    expect(textChangeOf('Ada', 'Notes:\nAda', { multiline: true })).toEqual({ text: 'Notes:\n', change: { kind: 'prepend' } });
    // Still a new value: more characters on the same line, a rewrite, an empty field.
    expect(textChangeOf('Ada', 'Ada Lovelace', { multiline: true })).toBeNull();
    expect(textChangeOf('Ada', 'Grace\nHopper', { multiline: true })).toBeNull();
    expect(textChangeOf('', 'Ada\nLovelace', { multiline: true })).toBeNull();
    // A one-line input does not hold lines: the same edit is the whole value.
    expect(textChangeOf('Ada', 'Ada\nLovelace')).toBeNull();
  });
});

describe('applyTextChange', () => {
  // 17 + 1 + 15 + 13 = 46 characters.
  const changed = 'Rewritten intro.\n\n== See also ==\n* Bay Bridge\n';

  it('appends the line to whatever the field holds now, without a blank line after a final line break', () => {
    const r = applyTextChange(changed, '\n[[Category:Bridges]]', { kind: 'append' });
    expect(r).toEqual({ ok: true, value: `${changed}[[Category:Bridges]]`, at: 46, removed: 0, inserted: '[[Category:Bridges]]' });
    expect(applyTextChange('x', '\n[[Category:Bridges]]', { kind: 'append' })).toMatchObject({ value: 'x\n[[Category:Bridges]]', at: 1 });
    expect(applyTextChange('x', 'y\n', { kind: 'append' })).toMatchObject({ value: 'x\ny\n', inserted: '\ny\n' });
  });

  it('inserts after its anchor and replaces its old text, each found exactly once', () => {
    expect(applyTextChange(changed, '* Brooklyn Bridge\n', { kind: 'insert', after: '== See also ==\n' }))
      .toEqual({ ok: true, value: 'Rewritten intro.\n\n== See also ==\n* Brooklyn Bridge\n* Bay Bridge\n', at: 33, removed: 0, inserted: '* Brooklyn Bridge\n' });
    expect(applyTextChange(changed, 'Golden', { kind: 'replace', old: 'Bay' })).toMatchObject({ ok: true, value: 'Rewritten intro.\n\n== See also ==\n* Golden Bridge\n', at: 35, removed: 3 });
  });

  it('refuses an anchor or old text that is gone or ambiguous, and says which', () => {
    expect(applyTextChange(changed, 'x', { kind: 'replace', old: 'Opened in 1937.' })).toEqual({ ok: false, message: 'the field no longer holds "Opened in 1937."' });
    expect(applyTextChange('== A ==\n== A ==', 'x', { kind: 'insert', after: '== A ==' })).toEqual({ ok: false, message: 'the field holds "== A ==" 2 times: which one is not known' });
  });
});

describe('the grammar and the panel', () => {
  it('writes and reads each kind of change', () => {
    const texts = [
      'fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")',
      'fill(<textbox "Content">, "{{Stub}}\\n", "prepend")',
      'fill(<textbox "Content">, "x\\n", "insert after", "b\\n")',
      'fill(<textbox "Content">, "1938", "replace", "1937")',
    ];
    for (const t of texts) {
      const parsed = parseAction(t);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(formatAction(parsed.action)).toBe(t);
    }
    const append = parseAction(texts[0]!);
    expect(append.ok && append.action).toEqual({ type: 'fill', target: { kind: 'semantic', role: 'textbox', name: 'Content' }, text: '\n[[Category:Bridges]]', change: { kind: 'append' } });
    // A plain fill is written as before.
    expect(formatAction({ type: 'fill', target: { kind: 'ref', ref: '3' }, text: 'Ada' })).toBe('fill([3], "Ada")');
  });

  it('refuses an unknown kind or a missing argument', () => {
    const bad = parseAction('fill([3], "x", "sideways")');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.message).toBe('fill: expected "append", "prepend", "insert after" or "replace", not "sideways" (at 15 near "\\"sideways\\")")');
    expect(parseAction('fill([3], "x", "append", "y")').ok).toBe(false);
  });

  it('says the change in words', () => {
    expect(describeChange('\n[[Category:Bridges]]', { kind: 'append' })).toBe("adds the line '[[Category:Bridges]]' at the end");
    expect(describeChange('x\n', { kind: 'insert', after: '== See also ==\n' })).toBe("adds the line 'x' after '== See also =='");
    expect(describeChange('1938', { kind: 'replace', old: '1937' })).toBe("replaces '1937' with '1938'");
    expect(describeChange('', { kind: 'replace', old: 'stub' })).toBe("removes 'stub'");
    expect(actionWords('fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")')).toBe("Edit “Content”: adds the line '[[Category:Bridges]]' at the end");
  });
});

describe('an approved fill of the whole text', () => {
  it('is kept as the change the page reports it made', () => {
    const edit = { text: '\n[[Category:Bridges]]', change: { kind: 'append' as const } };
    expect(semanticAsChange('fill(<textbox "Content">, "a\nb\n[[Category:Bridges]]")', { ok: true, navigated: false, edit }))
      .toBe('fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")');
    // No edit reported (a one-line field, a failure), or already a change: as it was.
    expect(semanticAsChange('fill(<textbox "Name">, "Ada")', { ok: true, navigated: false })).toBe('fill(<textbox "Name">, "Ada")');
    expect(semanticAsChange('fill(<textbox "Content">, "x")', { ok: false, code: 'not_run', message: 'm' })).toBe('fill(<textbox "Content">, "x")');
    expect(semanticAsChange('fill(<textbox "Content">, "y", "prepend")', { ok: true, navigated: false, edit })).toBe('fill(<textbox "Content">, "y", "prepend")');
  });
});

describe('a change in a skill', () => {
  it('keeps its own words, with the task\'s values inside it as variables, never the whole text', () => {
    const taught = parseAction('fill(<textbox "Content">, "\\n[[Category:Bridges]]", "append")');
    if (!taught.ok) throw taught.error;
    const skill = abstractActions('Add the page to the category "Bridges"', [taught.action]);
    expect(skill.name).toBe('Add the page to the category {content}');
    expect(skill.variables).toEqual(['content']);
    const step = formatAction(skill.actions[0]!);
    expect(step).toBe('fill(<textbox "Content">, "\\n[[Category:{content}]]", "append")');
    expect(instantiateAction(step, { content: 'Tunnels' })).toBe('fill(<textbox "Content">, "\\n[[Category:Tunnels]]", "append")');
  });
});
