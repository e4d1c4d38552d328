/**
 * The pure parts of the "can a person see this text" rule (src/content/dom/perceptible.ts):
 * colours as computed styles write them, WCAG contrast, and the boxes of
 * `clip` and `clip-path`. The rule as a whole runs in Chromium
 * (test/e2e/observation.e2e.test.ts, fixture invisible.html): it needs layout.
 */
import { describe, expect, it } from 'vitest';
import { clipPathBox, clipRect, contrast, parseColour } from '../../src/content/dom/perceptible.ts';

const rect = (left: number, top: number, width: number, height: number): DOMRect =>
  ({ left, top, width, height, right: left + width, bottom: top + height, x: left, y: top, toJSON: () => ({}) }) as DOMRect;

describe('parseColour', () => {
  it('reads rgb() and rgba() in both syntaxes, and transparent', () => {
    expect(parseColour('rgb(255, 255, 255)')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColour('rgba(0, 0, 0, 0)')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(parseColour('rgb(10 20 30 / 50%)')).toEqual({ r: 10, g: 20, b: 30, a: 0.5 });
    expect(parseColour('transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
  });
  it('gives up on colour spaces it does not know (the text then counts as visible)', () => {
    expect(parseColour('oklch(0.7 0.1 200)')).toBeNull();
    expect(parseColour('color(display-p3 1 1 1)')).toBeNull();
    expect(parseColour(undefined)).toBeNull();
  });
});

describe('contrast (WCAG 2)', () => {
  const white = { r: 255, g: 255, b: 255, a: 1 };
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrast({ r: 0, g: 0, b: 0, a: 1 }, white)).toBeCloseTo(21, 10);
    expect(contrast(white, white)).toBe(1);
  });
  it('puts near-white under the 1.1 threshold and light grey above it', () => {
    // #fefefe: L = ((254/255 + 0.055)/1.055)^2.4 = 0.99110 → (1.05)/(1.04110) = 1.0085
    expect(contrast({ r: 254, g: 254, b: 254, a: 1 }, white)).toBeCloseTo(1.0085, 4);
    // #999: L = ((0.6 + 0.055)/1.055)^2.4 = 0.31855 → 1.05/0.36855 = 2.849
    expect(contrast({ r: 153, g: 153, b: 153, a: 1 }, white)).toBeCloseTo(2.849, 3);
  });
});

describe('clip and clip-path boxes', () => {
  const box = rect(100, 50, 200, 40);
  it('clip: rect(top, right, bottom, left) from the top-left corner, auto = that edge', () => {
    expect(clipRect('rect(0px, 0px, 0px, 0px)', box)).toEqual({ l: 100, t: 50, r: 100, b: 50 });
    expect(clipRect('rect(10px auto auto 20px)', box)).toEqual({ l: 120, t: 60, r: 300, b: 90 });
    expect(clipRect('auto', box)).toBeNull();
  });
  it('clip-path: inset() in px and %, one to four values; a zero circle; other shapes not judged', () => {
    expect(clipPathBox('inset(50%)', box)).toEqual({ l: 200, t: 70, r: 200, b: 70 });
    expect(clipPathBox('inset(5px 10px)', box)).toEqual({ l: 110, t: 55, r: 290, b: 85 });
    expect(clipPathBox('inset(1px 2px 3px 4px round 5px)', box)).toEqual({ l: 104, t: 51, r: 298, b: 87 });
    expect(clipPathBox('circle(0px at 50% 50%)', box)).toEqual({ l: 100, t: 50, r: 100, b: 50 });
    expect(clipPathBox('circle(40% at 50% 50%)', box)).toBeNull();
    expect(clipPathBox('polygon(0 0, 100% 0, 0 100%)', box)).toBeNull();
  });
});
