import { describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs build script, without type declarations
import { distProblems } from '../../scripts/dist-lib.mjs';

type Files = Record<string, string>;
const check = distProblems as (files: Files) => { problems: string[]; referenced: number };

const manifest = {
  manifest_version: 3,
  name: 'Apprentice',
  version: '0.1.0',
  background: { service_worker: 'service-worker-loader.js', type: 'module' },
  content_scripts: [
    { matches: ['https://*/*'], js: ['src/content/index.js'] },
    { matches: ['https://*/*'], js: ['src/content/main-world/listener-marks.iife.js'], world: 'MAIN' },
  ],
};

const built = (m: object = manifest, extra: Files = {}): Files => ({
  'manifest.json': JSON.stringify(m),
  'service-worker-loader.js': 'import "./assets/index.js";',
  'assets/index.js': 'export const x = 1;',
  'src/content/index.js': '(function(){var a=1;chrome.runtime.sendMessage({a})})();',
  'src/content/main-world/listener-marks.iife.js': '(function(){})();',
  ...extra,
});

describe('check-dist', () => {
  it('passes a build whose content scripts are self-contained and that exposes nothing', () => {
    expect(check(built())).toEqual({ problems: [], referenced: 3 });
  });

  it('fails on any web-accessible resource, an empty entry included', () => {
    const exposed = { ...manifest, web_accessible_resources: [{ matches: ['https://*/*'], resources: ['assets/chunk.js'], use_dynamic_url: false }] };
    expect(check(built(exposed)).problems).toEqual([
      'web_accessible_resources exposes assets/chunk.js: a page could fetch it to detect Apprentice',
    ]);
    const empty = { ...manifest, web_accessible_resources: [{ matches: ['https://*/*'], resources: [] }] };
    expect(check(built(empty)).problems).toEqual(['web_accessible_resources exposes an empty entry: a page could fetch it to detect Apprentice']);
  });

  it('fails on a content script that loads its code from the extension (the crxjs loader) or is an ES module', () => {
    const loader = 'const t=performance.now();(async()=>{const{onExecute:e}=await import(chrome.runtime.getURL("assets/c.js"));e?.()})();';
    expect(check(built(manifest, { 'src/content/index.js': loader })).problems).toEqual([
      'content script src/content/index.js contains a dynamic import(: it must be one self-contained classic script',
      'content script src/content/index.js contains chrome.runtime.getURL(: it must be one self-contained classic script',
    ]);
    expect(check(built(manifest, { 'src/content/main-world/listener-marks.iife.js': 'import { a } from "./a.js";\na();' })).problems).toEqual([
      'content script src/content/main-world/listener-marks.iife.js contains an import statement: it must be one self-contained classic script',
    ]);
  });

  it('still fails on missing files, eval, source maps and an unparsable manifest', () => {
    const files = built(manifest, { 'assets/index.js': 'eval("1")', 'assets/index.js.map': '{}' });
    delete files['src/content/index.js'];
    expect(check(files).problems).toEqual([
      'manifest references missing file src/content/index.js',
      'assets/index.js contains eval(',
      'assets/index.js.map: source maps are not shipped',
    ]);
    expect(check({ 'manifest.json': '{' }).problems[0]).toMatch(/^dist\/manifest.json does not parse/);
    expect(check({}).problems).toEqual(['dist/manifest.json missing']);
  });
});
