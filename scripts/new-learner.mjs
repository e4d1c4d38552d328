// Scaffolds a learner that passes the registry meta-test (test/unit/registry-meta.test.ts):
// its folder under src/core/learning/<id>/ (settings, evidence schema, the learner,
// definition.ts, factory.ts), its evidence view in the panel, and one line in each of
// registry.ts, registry-factories.ts and EVIDENCE_VIEWS. It starts switched off.
// Usage: npm run new-learner -- <id> ["Label"]        (node scripts/new-learner.mjs <id> ["Label"] [--root DIR])
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpIfAsked } from './cli-help.mjs';

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
if (id === 'shared') fail('"shared" is the folder of helpers learners share, not a learner');
const learning = join(root, 'src/core/learning');
const folder = join(learning, id);
if (existsSync(folder)) fail(`src/core/learning/${id}/ exists already`);

const label = labelArg ?? id.charAt(0).toUpperCase() + id.slice(1);
const Pascal = id.charAt(0).toUpperCase() + id.slice(1);
const text = (s) => JSON.stringify(s).slice(1, -1).replace(/'/g, "\\'");

/** Inserts `line` after the last line matching `after` (or fails, naming the file). */
function insertAfterLast(path, after, line) {
  const lines = readFileSync(path, 'utf8').split('\n');
  let at = -1;
  lines.forEach((l, i) => { if (after.test(l)) at = i; });
  if (at < 0) fail(`cannot find where to add ${id} in ${path}`);
  lines.splice(at + 1, 0, line);
  writeFileSync(path, lines.join('\n'));
}

const files = {
  [`src/core/learning/${id}/settings.ts`]: `/** ${label}'s settings, under settings.learners.${id}: the descriptions label the options page. */
import * as z from 'zod';

export const ${Pascal}SettingsSchema = z.strictObject({
  enabled: z.boolean().describe('Use ${text(label)}'),
});
export type ${Pascal}Settings = z.infer<typeof ${Pascal}SettingsSchema>;

/** New learners start switched off. */
export const DEFAULT_${id.toUpperCase()}_SETTINGS: ${Pascal}Settings = { enabled: false };
`,
  [`src/core/learning/${id}/evidence.ts`]: `/** What ${label} records on a step (step.evidence.${id}), validated wherever it is read back. */
import * as z from 'zod';

export const ${Pascal}EvidenceSchema = z.strictObject({
  /** Why the learner changed (or kept) the candidates, in a sentence each. */
  notes: z.array(z.string().max(500)).max(20),
});
export type ${Pascal}Evidence = z.infer<typeof ${Pascal}EvidenceSchema>;
`,
  [`src/core/learning/${id}/${id}-learner.ts`]: `/**
 * ${label}. Learns after each episode; add beginEpisode, shapeRequest or adjust
 * (learner.ts) as the method needs. What adjust returns as evidence is stored
 * under step.evidence.${id} and shown by src/ui/app/${id}-evidence.tsx.
 */
import * as z from 'zod';
import type { Clock } from '../../ports.ts';
import type { LearnerDataStore } from '../learner-data-store.ts';
import { LearnerData } from '../learner-data.ts';
import type { FinishedEpisode, LearnReport, Learner } from '../learner.ts';

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
  [`src/core/learning/${id}/definition.ts`]: `/** ${label}'s registry entry (UI-safe: no learner code; the factory is in factory.ts). */
import { learnerSettings, type LearnerDefinition } from '../learner-definition.ts';
import { ${Pascal}EvidenceSchema } from './evidence.ts';
import { DEFAULT_${id.toUpperCase()}_SETTINGS, ${Pascal}SettingsSchema, type ${Pascal}Settings } from './settings.ts';

export const ${id}Definition: LearnerDefinition<${Pascal}Settings> = {
  id: '${id}',
  label: '${text(label)}',
  settings: { schema: ${Pascal}SettingsSchema, defaults: DEFAULT_${id.toUpperCase()}_SETTINGS, read: (s) => learnerSettings(${id}Definition, s) },
  enabled: (s) => learnerSettings(${id}Definition, s).enabled,
  needsModel: { level: 'no', description: 'Works without a model.' },
  evidenceSchema: ${Pascal}EvidenceSchema,
  keepsMemory: true,
};
`,
  [`src/core/learning/${id}/factory.ts`]: `/** Builds ${label} from ports. */
import type { LearnerFactory } from '../learner-definition.ts';
import { ${Pascal}Learner, ${id}DataOn } from './${id}-learner.ts';

export const ${id}Factory: LearnerFactory = {
  create: (ports) => new ${Pascal}Learner(${id}DataOn(ports.stores.learnerData, ports.clock)),
  // Forget a site, export, import and the Memory tab's list, through the generic learner store.
  memory: (ports) => ${id}DataOn(ports.stores.learnerData, ports.clock).memory(),
};
`,
  [`src/ui/app/${id}-evidence.tsx`]: `/** ${label}'s view of a step: its notes. */
import { ${Pascal}EvidenceSchema } from '../../core/learning/${id}/evidence.ts';
import type { EvidenceViewProps } from './learner-evidence.tsx';

export function ${Pascal}EvidenceView({ evidence }: EvidenceViewProps) {
  const parsed = ${Pascal}EvidenceSchema.safeParse(evidence);
  if (!parsed.success) return <p class="note">${text(label)}'s record for this step is unreadable.</p>;
  if (parsed.data.notes.length === 0) return <p class="meta">${text(label)} left the candidates as they were.</p>;
  return <ul class="notes">{parsed.data.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>;
}
`,
};

mkdirSync(folder, { recursive: true });
for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content);
insertAfterLast(join(learning, 'registry.ts'), /^import .* from '\.\/[a-z0-9]+\/definition\.ts';$/, `import { ${id}Definition } from './${id}/definition.ts';`);
insertAfterLast(join(learning, 'registry.ts'), /^  [a-z0-9]+Definition,$/, `  ${id}Definition,`);
insertAfterLast(join(learning, 'registry-factories.ts'), /^import .* from '\.\/[a-z0-9]+\/factory\.ts';$/, `import { ${id}Factory } from './${id}/factory.ts';`);
insertAfterLast(join(learning, 'registry-factories.ts'), /^  [a-z0-9]+: [a-z0-9]+Factory,$/, `  ${id}: ${id}Factory,`);
const views = join(root, 'src/ui/app/learner-evidence.tsx');
insertAfterLast(views, /^import \{ \w+ \} from '\.\/[\w-]+\.tsx';$/, `import { ${Pascal}EvidenceView } from './${id}-evidence.tsx';`);
insertAfterLast(views, /^  [a-z0-9]+: \w+EvidenceView,$/, `  ${id}: ${Pascal}EvidenceView,`);
console.log(`new-learner: ${label} (${id}) scaffolded:
  ${Object.keys(files).join('\n  ')}
  + one line each in src/core/learning/registry.ts, registry-factories.ts and src/ui/app/learner-evidence.tsx
It starts switched off (settings.learners.${id}.enabled). Next: write the method in ${id}-learner.ts, then
npx vitest run --config vitest.config.ts test/unit/registry-meta.test.ts`);
