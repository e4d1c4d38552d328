// @vitest-environment happy-dom
/**
 * The page layer's reading of what a form sends (content/dom/form-data.ts):
 * the entry list a submit would build, hidden fields included, secrets
 * digested, and the snapshot node of a submit button carrying it.
 */
import { describe, expect, it } from 'vitest';
import { formDataOf } from '../../src/content/dom/form-data.ts';
import { formFacts } from '../../src/content/observe/element-states.ts';

const SHA_HUNTER2 = 'f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7';

function form(html: string): HTMLFormElement {
  document.body.innerHTML = html;
  return document.querySelector('form')!;
}

describe('formDataOf', () => {
  it('builds the entry list: hidden fields, checked boxes, selected options, the submitter only, nothing disabled', () => {
    const f = form(`<form action="/act" method="post">
      <input type="hidden" name="id" value="7">
      <input name="note" value="hi">
      <input type="checkbox" name="all" value="1">
      <input type="checkbox" name="notify" checked>
      <select name="folder"><option value="inbox">Inbox</option><option value="spam" selected>Spam</option></select>
      <input name="off" value="x" disabled>
      <input name="" value="unnamed">
      <button name="op" value="delete">Delete</button>
      <button name="op" value="archive">Archive</button>
    </form>`);
    const del = f.querySelector('button')!;
    expect(formDataOf(f, del)).toEqual([
      { name: 'id', value: '7' }, { name: 'note', value: 'hi' }, { name: 'notify', value: 'on' }, { name: 'folder', value: 'spam' }, { name: 'op', value: 'delete' },
    ]);
    expect(formDataOf(f, null).map((e) => e.name)).toEqual(['id', 'note', 'notify', 'folder']);
  });

  it('a password travels as its mask and digest, never as text', () => {
    const f = form('<form><input type="password" name="pw" value="hunter2"><input type="submit" value="Go"></form>');
    expect(formDataOf(f, f.querySelector('[type=submit]'))).toEqual([{ name: 'pw', value: `{password}#${SHA_HUNTER2}` }]);
  });

  it('the snapshot node of a submit button carries its form data; a field that does not submit does not', () => {
    const f = form('<form action="/act/delete" method="post"><input type="hidden" name="id" value="9"><input name="q"><button>Delete</button></form>');
    const facts = formFacts(f.querySelector('button')!, 'button', new Map());
    expect(facts.formData).toEqual([{ name: 'id', value: '9' }, { name: 'q', value: '' }]);
    expect(facts.submits).toBe(true);
    expect(formFacts(f.querySelector('input[name=q]')!, 'input', new Map()).formData).toBeUndefined();
  });

  it('a form with more than 100 entries keeps 99 and one entry for the rest, so a difference past the cap still counts', () => {
    const many = (last: string) => form(`<form>${Array.from({ length: 120 }, (_, i) => `<input type="hidden" name="f${i}" value="${i === 119 ? last : 'x'}">`).join('')}<button>Go</button></form>`);
    const a = formDataOf(many('7'), null);
    expect(a).toHaveLength(100);
    expect(a[98]).toEqual({ name: 'f98', value: 'x' });
    expect(a[99]!.name).toBe('…');
    expect(a[99]!.value).toMatch(/^21 more #[0-9a-f]{32}$/);
    expect(formDataOf(many('9'), null)[99]!.value).not.toBe(a[99]!.value);
  });
});
