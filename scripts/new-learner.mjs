// Scaffolds a learner that passes the registry meta-test (test/unit/registry-meta.test.ts):
// one folder, src/learners/<id>/ (settings, evidence schema, the learner,
// definition.ts, factory.ts, views.ts with its evidence view, a README and a test) and
// nothing else: the registry globs the folders. It starts switched off; rm -r removes it.
// Usage: npm run new-learner -- <id> ["Label"]        (node scripts/new-learner.mjs <id> ["Label"] [--root DIR])
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpIfAsked } from './cli-help.mjs';
import { namesLearner } from './learner-names.mjs';

helpIfAsked('usage: npm run new-learner -- <id> ["Label"] [--root DIR]\n  scaffolds a learner that passes the registry meta-test, switched off\n  <id>          lower-case letters and digits, starting with a letter\n  --root DIR    the repository to write into (default: this one)');

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : fileURLToPath(new URL('..', import.meta.url));
// Without --root, rootAt is -1 and rootAt + 1 is 0: filtering by index would drop the id.
const positional = rootAt < 0 ? args : args.filter((_, i) => i !== rootAt && i !== rootAt + 1);
const [id, labelArg] = positional;

function fail(message) {
  console.error(`new-learner: ${message}`);
  process.exit(1);
}
if (id === undefined) fail('usage: npm run new-learner -- <id> ["Label"] (id: lower-case letters and digits, starting with a letter)');
if (!/^[a-z][a-z0-9]{1,23}$/.test(id)) fail(`"${id}" is not a learner id: use 2–24 lower-case letters and digits, starting with a letter`);
const folder = join(root, 'src/learners', id);
if (existsSync(folder)) fail(`src/learners/${id}/ exists already`);

/**
 * An id that already names something in the code ("demo": the demo sites, bench/demo.ts) could
 * not be told apart from the learner by the learner-ids lint (check-learner-ids.mjs), which would
 * then fail: refused here, naming the first place, before anything is written.
 */
function firstUseOf(word, label) {
  const re = { test: (l) => namesLearner(l, word, label) };
  const walk = (dir) => {
    let names = [];
    try { names = readdirSync(dir); } catch { return null; }
    for (const f of names.sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) {
        if (f === 'node_modules' || f === 'out') continue;
        const found = walk(p);
        if (found) return found;
      } else if (/\.(ts|tsx|mjs|css|html)$/.test(f)) {
        const line = readFileSync(p, 'utf8').split('\n').findIndex((l) => re.test(l));
        if (line >= 0) return `${relative(root, p)}:${line + 1}`;
      }
    }
    return null;
  };
  for (const d of ['src', 'bench', 'scripts']) {
    const found = walk(join(root, d));
    if (found) return found;
  }
  return null;
}

const label = labelArg ?? id.charAt(0).toUpperCase() + id.slice(1);
const usedAt = firstUseOf(id, label);
if (usedAt !== null) fail(`"${id}" already names something in the code (${usedAt}): the learner-ids lint could not tell the learner apart from it; pick another id`);
const Pascal = id.charAt(0).toUpperCase() + id.slice(1);
const text = (s) => JSON.stringify(s).slice(1, -1).replace(/'/g, "\\'");

const files = {
  [`src/learners/${id}/core/settings.ts`]: `/** ${label}'s settings, under settings.learners.${id}: the descriptions label the options page. */
import * as z from 'zod';

export const ${Pascal}SettingsSchema = z.strictObject({
  enabled: z.boolean().describe('Use ${text(label)}'),
});
export type ${Pascal}Settings = z.infer<typeof ${Pascal}SettingsSchema>;

/** New learners start switched off. */
export const DEFAULT_${id.toUpperCase()}_SETTINGS: ${Pascal}Settings = { enabled: false };
`,
  [`src/learners/${id}/core/evidence.ts`]: `/** What ${label} records on a step (step.evidence.${id}), validated wherever it is read back. */
import * as z from 'zod';

export const ${Pascal}EvidenceSchema = z.strictObject({
  /** Why the learner changed (or kept) the candidates, in a sentence each. */
  notes: z.array(z.string().max(500)).max(20),
});
export type ${Pascal}Evidence = z.infer<typeof ${Pascal}EvidenceSchema>;
`,
  [`src/learners/${id}/core/${id}-learner.ts`]: `/**
 * ${label}. Learns after each episode; add beginEpisode, shapeRequest or adjust
 * (learner.ts) as the method needs. What adjust returns as evidence is stored
 * under step.evidence.${id} and shown by ui/${id}-evidence.tsx.
 */
import * as z from 'zod';
import type { Clock } from '../../../core/ports.ts';
import type { LearnerDataStore } from '../../../core/learning/learner-data-store.ts';
import { LearnerData } from '../../../core/learning/learner-data.ts';
import type { FinishedEpisode, LearnReport, Learner } from '../../../core/learning/learner.ts';

/** One record per site: how many episodes it has seen, by outcome. */
export const ${Pascal}TallySchema = z.strictObject({ episodes: z.number().int().nonnegative(), successes: z.number().int().nonnegative() });

export const ${id}DataOn = (store: LearnerDataStore, clock: Clock) => new LearnerData(store, '${id}', ${Pascal}TallySchema, clock);

export class ${Pascal}Learner implements Learner {
  readonly id = '${id}';

  constructor(private readonly data: LearnerData<z.infer<typeof ${Pascal}TallySchema>>) {}

  async learn({ episode }: FinishedEpisode): Promise<LearnReport> {
    const read = await this.data.get(episode.origin, 'tally');
    const tally = read.status === 'found' ? read.record.value : { episodes: 0, successes: 0 };
    await this.data.put(episode.origin, 'tally', {
      episodes: tally.episodes + 1,
      successes: tally.successes + (episode.status === 'success' ? 1 : 0),
    });
    return { notes: [] };
  }
}
`,
  [`src/learners/${id}/definition.ts`]: `/** ${label}'s registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../../core/learning/learner-definition.ts';
import { ${Pascal}EvidenceSchema } from './core/evidence.ts';
import { DEFAULT_${id.toUpperCase()}_SETTINGS, ${Pascal}SettingsSchema, type ${Pascal}Settings } from './core/settings.ts';

export const ${id}Definition: LearnerDefinition<${Pascal}Settings> = {
  id: '${id}',
  label: '${text(label)}',
  settings: { schema: ${Pascal}SettingsSchema, defaults: DEFAULT_${id.toUpperCase()}_SETTINGS, read: (s) => learnerSettings(${id}Definition, s) },
  enabled: (s) => learnerSettings(${id}Definition, s).enabled,
  needsModel: { level: 'no', description: 'Works without a model.' },
  evidenceSchema: ${Pascal}EvidenceSchema,
  keepsMemory: true,
};

/** What the registry reads (src/core/learning/registry/registry.ts globs every learner's definition.ts). */
export { ${id}Definition as definition };
`,
  [`src/learners/${id}/factory.ts`]: `/** Builds ${label} from ports. */
import type { LearnerFactory } from '../../core/learning/learner-definition.ts';
import { ${Pascal}Learner, ${id}DataOn } from './core/${id}-learner.ts';

/** What the registry reads (registry-factories.ts globs every learner's factory.ts). */
export const factory: LearnerFactory = {
  create: (ports) => new ${Pascal}Learner(${id}DataOn(ports.stores.learnerData, ports.clock)),
  // Forget a site, export, import and the Memory tab's list, through the generic learner store.
  memory: (ports) => ${id}DataOn(ports.stores.learnerData, ports.clock).memory(),
};
`,
  [`src/learners/${id}/views.ts`]: `/** What ${label} shows in the panel (src/ui/app/learner-views.ts reads every learner's views.ts). */
import type { LearnerViews } from '../../ui/app/learner-view-types.ts';
import { ${Pascal}EvidenceView } from './ui/${id}-evidence.tsx';

export const views: LearnerViews = { evidence: ${Pascal}EvidenceView };
`,
  [`src/learners/${id}/README.md`]: `# ${label}

What the method does, the paper it follows (with the equations it implements), and where it deviates.
It starts switched off (\`settings.learners.${id}.enabled\`).

- \`definition.ts\`: the UI-safe registry entry (settings, evidence schema); \`factory.ts\`: how it is built from ports;
  \`views.ts\`: its panel views. The registry finds all three by globbing \`src/learners/*/\`.
- \`core/\`: the method; \`ui/\`: its views; \`test/\`: its tests (vitest runs \`src/**/*.test.ts\`).

Removing it is \`rm -r src/learners/${id}\`.
`,
  [`src/learners/${id}/test/${id}-learner.test.ts`]: `import { describe, expect, it } from 'vitest';
import { InMemoryLearnerDataStore } from '../../../core/learning/in-memory/in-memory-learner-data-store.ts';
import type { FinishedEpisode } from '../../../core/learning/learner.ts';
import { ${Pascal}Learner, ${id}DataOn } from '../core/${id}-learner.ts';

describe('${text(label)}', () => {
  it('keeps a tally per site', async () => {
    const data = ${id}DataOn(new InMemoryLearnerDataStore(), { now: () => 1 });
    const learner = new ${Pascal}Learner(data);
    const episode = { origin: 'https://example.test', status: 'success' };
    await learner.learn({ episode } as unknown as FinishedEpisode);
    const read = await data.get('https://example.test', 'tally');
    expect(read.status === 'found' ? read.record.value : null).toEqual({ episodes: 1, successes: 1 });
  });
});
`,
  [`src/learners/${id}/ui/${id}-evidence.tsx`]: `/** ${label}'s view of a step: its notes. */
import { ${Pascal}EvidenceSchema } from '../core/evidence.ts';
import type { EvidenceViewProps } from '../../../ui/app/learner-view-types.ts';

export function ${Pascal}EvidenceView({ evidence }: EvidenceViewProps) {
  const parsed = ${Pascal}EvidenceSchema.safeParse(evidence);
  if (!parsed.success) return <p class="note">${text(label)}'s record for this step is unreadable.</p>;
  if (parsed.data.notes.length === 0) return <p class="meta">${text(label)} left the candidates as they were.</p>;
  return <ul class="notes">{parsed.data.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>;
}
`,
};

for (const [path, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}
console.log(`new-learner: ${label} (${id}) scaffolded, one folder, src/learners/${id}/ (nothing else edited: the registry globs the folders):
  ${Object.keys(files).join('\n  ')}
It starts switched off (settings.learners.${id}.enabled). Next: write the method in core/${id}-learner.ts, then
npx vitest run --config vitest.config.ts src/learners/${id} test/unit/registry-meta.test.ts
To remove it: rm -r src/learners/${id}`);
