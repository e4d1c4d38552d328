// The load hook behind node-glob-loader.mjs: after tsx has turned a TypeScript
// module into JavaScript, expand its eager `import.meta.glob` calls.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expandImportMetaGlob } from './import-meta-glob.mjs';

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (loaded.format !== 'module' || loaded.source == null || !url.startsWith('file:') || url.includes('/node_modules/')) return loaded;
  const source = String(loaded.source);
  if (!source.includes('import.meta.glob')) return loaded;
  return { ...loaded, source: expandImportMetaGlob(source, dirname(fileURLToPath(url))) };
}
