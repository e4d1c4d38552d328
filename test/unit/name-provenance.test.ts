// @vitest-environment happy-dom
/**
 * Where a name came from, and whether a person sees it (src/content/observe/name-provenance.ts).
 * Visibility itself needs layout (tested in Chromium, test/e2e/observation.e2e.test.ts); here the
 * text counts as hidden when its element carries `data-hidden`, and as not rendered with `hidden`.
 */
import { describe, expect, it } from 'vitest';
import { shownTextFor, type NameProvenanceDeps } from '../../src/content/observe/name-provenance.ts';

const deps: NameProvenanceDeps = {
  rendered: (el) => el.closest('[hidden]') === null,
  textHidden: (t) => (t.parentElement?.closest('[data-hidden]') ? 'clipped' : null),
  labelsOf: (el) => Array.from(el.ownerDocument.querySelectorAll(`label[for="${el.id}"]`)),
};

const page = (html: string): Document => {
  document.body.innerHTML = html;
  return document;
};
const shown = (selector: string, name: string, fromContent = true): string | undefined =>
  shownTextFor(document.querySelector(selector)!, name, fromContent, deps);

describe('shownTextFor', () => {
  it('says nothing when the name is all visible text, or comes from an attribute', () => {
    page('<button id="a">Save <b>draft</b></button><img id="b" alt="Logo"><input id="c" placeholder="Search"><button id="d" aria-label="Settings">⚙</button>');
    expect(shown('#a', 'Save draft')).toBeUndefined();
    expect(shown('#b', 'Logo', false)).toBeUndefined();
    expect(shown('#c', 'Search', false)).toBeUndefined();
    // An icon without words: nothing to compare the aria-label with.
    expect(shown('#d', 'Settings')).toBeUndefined();
  });

  it('gives the visible part of a name made partly or wholly of hidden content', () => {
    page('<a id="a" href="#">Read more<span data-hidden> about plans</span></a><button id="b"><svg></svg><span data-hidden>Close</span></button>');
    expect(shown('#a', 'Read more about plans')).toBe('Read more');
    expect(shown('#b', 'Close')).toBe('');
  });

  it('reads labels for form controls, not their content', () => {
    page('<label for="q" data-hidden>Search the shop</label><input id="q"><label for="e">Email</label><input id="e">');
    expect(shown('#q', 'Search the shop', false)).toBe('');
    expect(shown('#e', 'Email', false)).toBeUndefined();
  });

  it('counts unrendered text referenced by aria-labelledby as hidden (the spec reads it), not unrendered content', () => {
    page('<span id="l" hidden>Pay now</span><button id="a" aria-labelledby="l">Next</button><button id="b">Go<span hidden> away</span></button>');
    expect(shown('#a', 'Pay now')).toBe('');
    expect(shown('#b', 'Go')).toBeUndefined();
  });

  it('flags an aria-label that shares no word with the visible words (label in name), not one that does', () => {
    page('<button id="a" aria-label="Continue">Delete account</button><button id="b" aria-label="Add to cart: blue kettle">Add to cart</button>');
    expect(shown('#a', 'Continue')).toBe('Delete account');
    expect(shown('#b', 'Add to cart: blue kettle')).toBeUndefined();
    // Roles that do not take their name from content are not compared with it.
    expect(shown('#a', 'Continue', false)).toBeUndefined();
  });

  it('says nothing for an empty name', () => {
    page('<button id="a"><span data-hidden>x</span></button>');
    expect(shown('#a', '')).toBeUndefined();
  });
});
