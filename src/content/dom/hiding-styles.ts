/**
 * The style facts the perceptibility rules read (perceptible.ts), parsed from
 * computed styles: clip rectangles and clip-paths that hide everything, the
 * scale a transform or the `scale` property applies, masks that hide
 * everything, whether a text-shadow is seen, and colours with their WCAG
 * contrast. Pure functions of strings and boxes.
 */

export interface Box { l: number; t: number; r: number; b: number }
export interface Rgba { r: number; g: number; b: number; a: number }

/** WCAG contrast ratio under which text is the colour of its background (#f5f5f5 on white is 1.09). */
export const MIN_CONTRAST = 1.1;
/** A visible region of this many px or fewer shows nothing readable. */
const MIN_EXTENT = 4;

/** `clip: rect(top, right, bottom, left)`, offsets from the border box's top-left; `auto` = that edge. */
export function clipRect(value: string, r: DOMRect): Box | null {
  const m = /^rect\((.*)\)$/.exec(value.trim());
  if (m === null) return null;
  const parts = m[1]!.split(/\s*,\s*|\s+/).filter((p) => p !== '');
  if (parts.length !== 4) return null;
  const px = (p: string, fallback: number): number => (p === 'auto' ? fallback : Number.parseFloat(p));
  const [top, right, bottom, left] = parts as [string, string, string, string];
  const box = { l: r.left + px(left, 0), t: r.top + px(top, 0), r: r.left + px(right, r.width), b: r.top + px(bottom, r.height) };
  return Object.values(box).some(Number.isNaN) ? null : box;
}

/** The box of a `clip-path` that can hide everything: inset(), and circle()/ellipse() of radius 0. Others: null (not judged). */
export function clipPathBox(value: string, r: DOMRect): Box | null {
  const v = value.trim();
  const inset = /^inset\(([^)]*)\)/.exec(v);
  if (inset !== null) {
    const words = inset[1]!.split(/\s+round\s+/)[0]!.trim().split(/\s+/);
    const len = (p: string | undefined, of: number): number => {
      if (p === undefined) return Number.NaN;
      return p.endsWith('%') ? (Number.parseFloat(p) / 100) * of : Number.parseFloat(p);
    };
    const [t, rt = t, b = t, l = rt] = words;
    const top = len(t, r.height);
    const right = len(rt, r.width);
    const bottom = len(b, r.height);
    const left = len(l, r.width);
    if ([top, right, bottom, left].some(Number.isNaN)) return null;
    return { l: r.left + left, t: r.top + top, r: r.right - right, b: r.bottom - bottom };
  }
  const empty = { l: r.left, t: r.top, r: r.left, b: r.top };
  const round = /^(circle|ellipse)\(\s*([\d.]+)(px|%)?(?:\s+([\d.]+)(px|%)?)?/.exec(v);
  if (round !== null) {
    const radii = [[round[2], round[3]], [round[4], round[5]]].filter((x): x is [string, string | undefined] => x[0] !== undefined)
      .map(([n, unit]) => (unit === '%' ? (Number.parseFloat(n) / 100) * Math.min(r.width, r.height) : Number.parseFloat(n)));
    // A radius under 2 px shows at most a dot.
    if (radii.some((x) => x < 2)) return empty;
  }
  const polygon = /^polygon\(([^)]*)\)/.exec(v);
  if (polygon !== null) {
    const points = polygon[1]!.replace(/^\s*(nonzero|evenodd)\s*,/, '').split(',').map((pair) => {
      const [x, y] = pair.trim().split(/\s+/);
      const len = (p: string | undefined, of: number): number => (p === undefined ? Number.NaN : p.endsWith('%') ? (Number.parseFloat(p) / 100) * of : Number.parseFloat(p));
      return [len(x, r.width), len(y, r.height)] as const;
    });
    if (points.some(([x, y]) => Number.isNaN(x) || Number.isNaN(y))) return null;
    // Shoelace area: a polygon of (nearly) no area shows nothing.
    let area = 0;
    points.forEach(([x, y], i) => {
      const [nx, ny] = points[(i + 1) % points.length]!;
      area += x * ny - nx * y;
    });
    if (Math.abs(area) / 2 < MIN_EXTENT * MIN_EXTENT) return empty;
  }
  return null;
}

/** `rgb()`/`rgba()` as computed styles write them; anything else (other colour spaces, keywords): null. */
export function parseColour(value: string | undefined): Rgba | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (v === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%)?)?\s*\)$/.exec(v);
  if (m === null) return null;
  let a = m[4] === undefined ? 1 : Number.parseFloat(m[4]);
  if (m[5] === '%') a /= 100;
  return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a };
}

/** `top` composited over an opaque `under`. */
export function over(top: Rgba, under: Rgba): Rgba {
  const a = top.a;
  return { r: top.r * a + under.r * (1 - a), g: top.g * a + under.g * (1 - a), b: top.b * a + under.b * (1 - a), a: 1 };
}

/** WCAG 2 contrast ratio of two opaque colours (1 = identical, 21 = black on white). */
export function contrast(x: Rgba, y: Rgba): number {
  const lum = (c: Rgba): number => {
    const ch = (v: number): number => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
  };
  const [hi, lo] = [lum(x), lum(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The smaller axis scale of a computed `transform` (matrix(a, b, c, d, …) or matrix3d); 1 for none. */
export function transformScale(value: string | undefined): number {
  const v = (value ?? '').trim();
  if (v === '' || v === 'none') return 1;
  const m = /^matrix(3d)?\(([^)]*)\)$/.exec(v);
  if (m === null) return 1;
  const n = m[2]!.split(',').map((x) => Number.parseFloat(x));
  const [a, b, c, d] = m[1] ? [n[0]!, n[1]!, n[4]!, n[5]!] : [n[0]!, n[1]!, n[2]!, n[3]!];
  const k = Math.min(Math.hypot(a, b), Math.hypot(c, d));
  return Number.isFinite(k) ? k : 1;
}

/** The CSS `scale` property ("0.2", "0.2 1", "none"), the smaller axis. */
export function scaleProperty(value: string | undefined): number {
  const v = (value ?? '').trim();
  if (v === '' || v === 'none') return 1;
  const parts = v.split(/\s+/).map((p) => (p.endsWith('%') ? Number.parseFloat(p) / 100 : Number.parseFloat(p))).filter((x) => Number.isFinite(x));
  return parts.length === 0 ? 1 : Math.min(...parts.slice(0, 2).map(Math.abs));
}

/** A mask image that hides everything: an image (url, image-set: it cannot be read), or gradients with only transparent stops. */
export function hidesByMask(value: string): boolean {
  const v = value.trim();
  if (v === '' || v === 'none') return false;
  if (/url\(|image-set\(|element\(|paint\(/.test(v)) return true;
  const colours = v.match(/rgba?\([^)]*\)|transparent/g) ?? [];
  return colours.length > 0 && colours.every((c) => (parseColour(c)?.a ?? 1) < 0.1);
}

/** Whether a computed `text-shadow` draws something a person sees around the glyphs (offset or blur, visible colour, contrast). */
export function shadowShows(value: string | undefined, back: Rgba | null): boolean {
  const v = (value ?? '').trim();
  if (v === '' || v === 'none') return false;
  // Computed form: "rgb(…) 1px 1px 2px, rgba(…) 0px 0px 0px".
  for (const shadow of v.split(/,(?![^()]*\))/)) {
    const colour = parseColour((/rgba?\([^)]*\)/.exec(shadow) ?? ['transparent'])[0]);
    const lengths = shadow.replace(/rgba?\([^)]*\)/, '').trim().split(/\s+/).map((x) => Math.abs(Number.parseFloat(x)) || 0);
    const reach = lengths.reduce((a, b) => a + b, 0);
    if (colour === null) return true;
    if (colour.a < 0.1 || reach < 1) continue;
    if (back === null || contrast(over(colour, back), back) >= MIN_CONTRAST) return true;
  }
  return false;
}
