import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import manifest from './manifest.json' with { type: 'json' };

// The manifest at the top level is the single source of truth; crxjs reads it
// and rewrites the entry paths to the built chunks.
//
// Content scripts are built as self-contained classic scripts (crxjs's IIFE
// build: `standaloneFiles`, and the `.iife.ts` name of the main-world script).
// crxjs's default instead injects a small loader that dynamic-imports the
// script's chunks from chrome-extension://<id>/assets/…, which must then be
// web_accessible_resources — fetchable by any page, so any page could detect
// Apprentice. `scripts/check-dist.mjs` fails the build if anything is
// web-accessible or a content script loads another file.
const CONTENT_SCRIPTS_AS_CLASSIC_SCRIPTS = ['src/content/index.ts'];

/**
 * `npm run dev` (vite build --watch): a content script built on the side is
 * not in the main module graph, so a change to a file only it imports
 * (src/content/…) would not trigger a rebuild. Watch every source file.
 */
function watchContentScriptSources(): Plugin {
  return {
    name: 'apprentice:watch-content-script-sources',
    apply: 'build',
    buildStart() {
      if (this.meta.watchMode !== true) return;
      const src = resolve(import.meta.dirname, 'src');
      for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
        if (/\.tsx?$/.test(file)) this.addWatchFile(resolve(src, file));
      }
    },
  };
}

export default defineConfig({
  plugins: [preact(), crx({ manifest, contentScripts: { standaloneFiles: CONTENT_SCRIPTS_AS_CLASSIC_SCRIPTS } }), watchContentScriptSources()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps: nothing a page or the store package should carry.
    sourcemap: false,
    target: 'chrome116',
    rollupOptions: {
      input: {
        sidepanel: 'src/ui/sidepanel/index.html',
        options: 'src/ui/options/index.html',
      },
    },
  },
  server: { port: 5173, strictPort: true },
});
