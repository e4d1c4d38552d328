// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { guessedIconName } from '../../src/content/observe/name-hints.ts';
import { impliedRole } from '../../src/content/observe/clickable.ts';

const el = (html: string): Element => {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host.firstElementChild!;
};

describe('guessed icon names', () => {
  it('reads the meaning out of class and data hints, dropping style words and generated names', () => {
    expect(guessedIconName(el('<span class="icon icon-star"></span>'))).toBe('star');
    expect(guessedIconName(el('<i class="fa fa-solid fa-reply"></i>'))).toBe('reply');
    expect(guessedIconName(el('<span class="css-1x9f2k sc-bdVaJa TrashIcon"></span>'))).toBe('trash');
    expect(guessedIconName(el('<span data-icon="thumbs-up" class="btn btn-sm"></span>'))).toBe('thumbs up');
  });

  it('looks into descendants (an <svg><use href="#…">) when the element says nothing', () => {
    expect(guessedIconName(el('<div class="tool"><svg><use href="#icon-trash"></use></svg></div>'))).toBe('trash');
    expect(guessedIconName(el('<div class="wrapper"><span></span></div>'))).toBe('');
  });
});

describe('implied roles of clickable elements', () => {
  it('an <a> without href is a link; aria-pressed a button; aria-checked a checkbox; else clickable', () => {
    expect(impliedRole(el('<a>+1 555 0100</a>'))).toBe('link');
    expect(impliedRole(el('<div aria-pressed="false">Bold</div>'))).toBe('button');
    expect(impliedRole(el('<div aria-checked="true">Remember me</div>'))).toBe('checkbox');
    expect(impliedRole(el('<div>Row</div>'))).toBe('clickable');
  });
});

describe('guessed icon names keep what is not a style word', () => {
  it('keeps short tokens: an abbreviation cannot be told from an acronym that tells two icons apart', () => {
    expect(guessedIconName(el('<span class="tb-italic"></span>'))).toBe('tb italic');
    expect(guessedIconName(el('<span class="icon-download-pdf"></span>'))).toBe('download pdf');
    expect(guessedIconName(el('<span class="icon-download-csv"></span>'))).toBe('download csv');
  });
});
