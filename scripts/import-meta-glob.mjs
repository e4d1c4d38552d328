// Vite's `import.meta.glob('./dir/*/file.ts', { eager: true })` for the places
// that are not Vite: Node under tsx (the benchmark, the CLIs: node-glob-loader.mjs)
// and esbuild (check-options-bundle.mjs). It rewrites each call into static
// imports of the files the pattern matches, keyed by the relative path as Vite
// keys them, in the same (sorted) order. Only what the registry uses is
// supported: one string pattern, relative, `*` within a path segment, eager.
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const CALL = /import\.meta\.glob(?:<[^()]*?>)?\(\s*(['"])([^'"]+)\1\s*,\s*\{\s*eager\s*:\s*true\s*,?\s*\}\s*\)/g;

/** The files under `dir` that a relative glob pattern names, as relative specifiers, sorted. */
export function globFiles(dir, pattern) {
  if (!pattern.startsWith('./') && !pattern.startsWith('../')) throw new Error(`import.meta.glob: only relative patterns are supported ("${pattern}")`);
  const parts = pattern.split('/');
  let found = [{ path: resolve(dir), spec: [] }];
  for (const part of parts) {
    if (part === '.' || part === '..') {
      found = found.map((f) => ({ path: resolve(f.path, part), spec: [...f.spec, part] }));
      continue;
    }
    if (part.includes('**')) throw new Error(`import.meta.glob: "**" is not supported ("${pattern}")`);
    const re = new RegExp(`^${part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);
    found = found.flatMap((f) => {
      let names = [];
      try { names = readdirSync(f.path); } catch { return []; }
      return names.filter((n) => re.test(n)).map((n) => ({ path: join(f.path, n), spec: [...f.spec, n] }));
    });
  }
  return found.filter((f) => statSync(f.path).isFile()).map((f) => f.spec.join('/')).sort();
}

/** The source with every eager `import.meta.glob` call replaced by static imports; unchanged when it has none. */
export function expandImportMetaGlob(source, dir) {
  if (!source.includes('import.meta.glob')) return source;
  const imports = [];
  const out = source.replace(CALL, (_m, _q, pattern) => {
    const entries = globFiles(dir, pattern).map((spec) => {
      const name = `__glob_${imports.length}`;
      imports.push(`import * as ${name} from ${JSON.stringify(spec)};`);
      return `${JSON.stringify(spec)}: ${name}`;
    });
    return `({ ${entries.join(', ')} })`;
  });
  if (out.includes('import.meta.glob(')) throw new Error('import.meta.glob: only `import.meta.glob(\'<relative pattern>\', { eager: true })` is supported outside Vite');
  return `${imports.join('\n')}\n${out}`;
}
