import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
// @ts-expect-error — a plain .mjs build script, without type declarations
import { checkPackage, packageFiles, zipFiles } from '../../scripts/package-lib.mjs';

type Files = Record<string, Uint8Array>;
const pack = packageFiles as (dist: Files, version: string) => Files;
const zip = zipFiles as (files: Files) => Uint8Array;
const check = checkPackage as (zip: Uint8Array, version: string) => string[];

const manifest = {
  manifest_version: 3,
  name: 'Apprentice',
  short_name: 'Apprentice',
  description: 'A web agent that learns on the job.',
  version: '0.0.1',
  key: 'MIIB…',
  icons: { 128: 'icons/icon-128.png' },
  background: { service_worker: 'sw.js', type: 'module' },
  options_page: 'src/ui/options/index.html',
  web_accessible_resources: [{ matches: ['https://*/*'], resources: ['assets/a.js', 'assets/a.js.map'] }],
};

const dist: Files = {
  'manifest.json': strToU8(JSON.stringify(manifest)),
  'sw.js': strToU8('import "./assets/a.js";\n//# sourceMappingURL=sw.js.map\n'),
  'sw.js.map': strToU8('{}'),
  'assets/a.js': strToU8('export const a = 1;\n//# sourceMappingURL=a.js.map'),
  'assets/a.js.map': strToU8('{}'),
  'icons/icon-128.png': new Uint8Array([137, 80, 78, 71]),
  'src/ui/options/index.html': strToU8('<script type="module" src="/assets/a.js"></script><link rel="stylesheet" href="../../../assets/s.css">'),
  'assets/s.css': strToU8('body{}\n/*# sourceMappingURL=s.css.map */'),
  '.vite/manifest.json': strToU8('{}'),
};

describe('the Web Store package', () => {
  it('drops maps, dot folders and the key; takes the version from package.json; passes its check', () => {
    const files = pack(dist, '1.2.3');
    expect(Object.keys(files).sort()).toEqual(['assets/a.js', 'assets/s.css', 'icons/icon-128.png', 'manifest.json', 'src/ui/options/index.html', 'sw.js']);
    const m = JSON.parse(strFromU8(files['manifest.json']!)) as typeof manifest;
    expect(m.version).toBe('1.2.3');
    expect('key' in m).toBe(false);
    expect(m.web_accessible_resources[0]!.resources).toEqual(['assets/a.js']);
    expect(strFromU8(files['sw.js']!)).toBe('import "./assets/a.js";\n');
    const bytes = zip(files);
    expect(check(bytes, '1.2.3')).toEqual([]);
    // Deterministic: the same files give the same bytes.
    expect(zip(pack(dist, '1.2.3'))).toEqual(bytes);
    expect(Object.keys(unzipSync(bytes))).toContain('manifest.json');
  });

  it('names every problem of a zip that is not ready', () => {
    const bad: Files = {
      ...dist,
      'manifest.json': strToU8(JSON.stringify({ ...manifest, version: '1.02', description: 'x'.repeat(140), icons: {} })),
      'test/unit/a.test.ts': strToU8(''),
    };
    delete bad['assets/a.js'];
    expect(check(zipSync(bad), '1.2.3')).toEqual([
      'version is 1.02, package.json says 1.2.3',
      'version 1.02 is not 1–4 dot-separated integers of at most 65535',
      'manifest carries a "key" (the Web Store rejects it)',
      'description must be at most 132 characters',
      'no 128×128 icon (the store listing needs it)',
      'referenced file missing from the zip: assets/a.js',
      'sw.js still points to a source map',
      'file that must not ship: sw.js.map',
      'file that must not ship: assets/a.js.map',
      'assets/s.css still points to a source map',
      'file that must not ship: .vite/manifest.json',
      'file that must not ship: test/unit/a.test.ts',
    ]);
    expect(check(strToU8('not a zip'), '1.2.3')[0]).toMatch(/^not a readable zip/);
  });
});
