// Registers Node's module hooks that expand Vite's eager `import.meta.glob`
// (import-meta-glob.mjs), so code that globs (the learner registry) runs under
// tsx as it does under Vite and vitest: `tsx --import ./scripts/node-glob-loader.mjs bench/….ts`.
import { register } from 'node:module';

register('./node-glob-hooks.mjs', import.meta.url);
