import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import manifest from './manifest.json' with { type: 'json' };

// The manifest at the top level is the single source of truth; crxjs reads it
// and rewrites the entry paths to the built chunks.
export default defineConfig({
  plugins: [preact(), crx({ manifest })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps: crxjs lists every content-script chunk and its map in
    // web_accessible_resources, where any page could fetch them.
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
