// Keeps the architecture honest: src/core runs in Node, so it may not import
// browser APIs, adapters or entry points, nor reach a browser global (also not
// as globalThis['chrome']); adapters may not import entry points; the UI and
// the content script reach storage and models only through the background
// (never adapters/), and nothing imports the background.
// Learner zones: a learner folder (src/learners/<id>/) imports no other
// learner folder (shared helpers live in src/core/learning/shared/) and
// nothing that reaches one (the registry index included); nothing outside
// src/learners/ imports a learner folder except the registry index (its globs
// in src/core/learning/registry/registry.ts and registry-factories.ts, and the panel's
// and options page's view tables); a learner's views (its ui/) use only the UI
// kit (src/ui/app/ files that reach no learner) and core.
// No import cycles at any folder level of src/core and of each learner folder:
// inside every folder, its subfolders and files import each other one way only;
// and no cycle between files anywhere in src/ (two files of one folder included).
//
// Every file is parsed (vite's oxc parser, not a regex), so every form of
// import counts: `import … from`, a bare `import '…'`, `export … from`,
// `import type`, `import('…')`, `import('…').T` in a type, `import x = require('…')`,
// and Vite's `import.meta.glob('…')` (an import of every file its pattern matches).
// Each specifier is resolved to the file it names (relative paths; a package
// by its name), and the rules are checked on the resolved paths.
// Usage: node scripts/check-boundaries.mjs [root]   (root defaults to the repository)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync } from 'vite';
import { helpIfAsked } from './cli-help.mjs';
import { globFiles } from './import-meta-glob.mjs';

helpIfAsked('usage: node scripts/check-boundaries.mjs [root]   (npm run lint:boundaries)\n  the architecture rules: core imports no browser API, no folder cycles at any level of src/core, sealed learner folders (imports resolved, not matched)');

const root = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('..', import.meta.url));
const walk = (dir) => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts') ? [p] : [];
});
const rel = (p) => relative(root, p).split(sep).join('/');
const problems = [];

// ---- Parsing: every import of a file, and the globals it reaches -------------------------------

/** Browser globals core may not touch, by name or through globalThis/self/global/window. */
const BROWSER_GLOBALS = new Set(['chrome', 'browser', 'document', 'window', 'localStorage', 'sessionStorage', 'indexedDB']);
const GLOBAL_OBJECTS = new Set(['globalThis', 'self', 'global', 'window']);

const childrenOf = (node) => {
  const out = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue;
    if (Array.isArray(value)) { for (const v of value) if (v && typeof v.type === 'string') out.push([key, v]); }
    else if (value && typeof value.type === 'string') out.push([key, value]);
  }
  return out;
};

/** An identifier in a position that names a property or a label, not a variable. */
function isNameOnly(parent, key) {
  if (!parent) return false;
  switch (parent.type) {
    case 'MemberExpression': return key === 'property' && !parent.computed;
    case 'Property': case 'MethodDefinition': case 'PropertyDefinition': case 'AccessorProperty':
    case 'TSPropertySignature': case 'TSMethodSignature': case 'TSEnumMember': case 'TSAbstractMethodDefinition': case 'TSAbstractPropertyDefinition':
      return key === 'key' && !parent.computed;
    case 'TSQualifiedName': return key === 'right';
    case 'ImportSpecifier': return key === 'imported';
    case 'ExportSpecifier': return key === 'exported' || parent.local === parent.exported;
    case 'LabeledStatement': case 'BreakStatement': case 'ContinueStatement': return key === 'label';
    case 'JSXAttribute': case 'JSXMemberExpression': case 'JSXClosingElement': return true;
    default: return false;
  }
}

/** Names bound anywhere in the file (variables, parameters, functions, classes, imports, types). */
function declaredNames(program) {
  const names = new Set();
  const addPattern = (p) => {
    if (!p) return;
    if (p.type === 'Identifier') names.add(p.name);
    else if (p.type === 'ObjectPattern') for (const q of p.properties) addPattern(q.type === 'RestElement' ? q.argument : q.value);
    else if (p.type === 'ArrayPattern') for (const q of p.elements) addPattern(q);
    else if (p.type === 'RestElement') addPattern(p.argument);
    else if (p.type === 'AssignmentPattern') addPattern(p.left);
    else if (p.type === 'TSParameterProperty') addPattern(p.parameter);
  };
  const visit = (node) => {
    switch (node.type) {
      case 'VariableDeclarator': addPattern(node.id); break;
      case 'FunctionDeclaration': case 'FunctionExpression': case 'ArrowFunctionExpression':
        if (node.id) names.add(node.id.name);
        for (const p of node.params) addPattern(p);
        break;
      case 'ClassDeclaration': case 'ClassExpression': case 'TSTypeAliasDeclaration': case 'TSInterfaceDeclaration': case 'TSEnumDeclaration':
        if (node.id) names.add(node.id.name);
        break;
      case 'CatchClause': addPattern(node.param); break;
      case 'ImportSpecifier': case 'ImportDefaultSpecifier': case 'ImportNamespaceSpecifier': names.add(node.local.name); break;
      default: break;
    }
    for (const [, child] of childrenOf(node)) visit(child);
  };
  visit(program);
  return names;
}

const literalText = (node) => {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
  return undefined;
};

/**
 * Parses one file: its imports `{ spec, line }` (a computed `import(…)` has
 * spec null) and the browser globals it reaches `{ what, line }`.
 */
function readFile(file) {
  const text = readFileSync(file, 'utf8');
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1; }
    return lo + 1;
  };
  const parsed = parseSync(file, text, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts', sourceType: 'module' });
  const imports = [];
  const globals = [];
  if (parsed.errors.length > 0) {
    problems.push(`${rel(file)}: does not parse (${parsed.errors[0].message}), so its imports cannot be checked`);
    return { imports, globals };
  }
  const declared = declaredNames(parsed.program);
  const visit = (node, parent, key) => {
    switch (node.type) {
      case 'ImportDeclaration': case 'ExportAllDeclaration': case 'ExportNamedDeclaration':
        if (node.source) imports.push({ spec: node.source.value, line: lineOf(node.start) });
        break;
      case 'ImportExpression': imports.push({ spec: literalText(node.source) ?? null, line: lineOf(node.start) }); break;
      case 'TSImportType': {
        const spec = literalText(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument) ?? literalText(node.source);
        imports.push({ spec: spec ?? null, line: lineOf(node.start) });
        break;
      }
      case 'TSExternalModuleReference': imports.push({ spec: literalText(node.expression) ?? null, line: lineOf(node.start) }); break;
      case 'CallExpression':
        if (node.callee.type === 'MemberExpression' && node.callee.property?.name === 'glob' && node.callee.object?.type === 'MetaProperty') {
          const pattern = literalText(node.arguments[0]);
          if (pattern === undefined) imports.push({ spec: null, line: lineOf(node.start) });
          else for (const spec of globFiles(dirname(file), pattern)) imports.push({ spec, line: lineOf(node.start) });
        }
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && !declared.has('require')) {
          imports.push({ spec: literalText(node.arguments[0]) ?? null, line: lineOf(node.start) });
        }
        break;
      case 'VariableDeclaration':
        // `declare const chrome: …` would make every later use look like a local.
        if (node.declare) {
          for (const d of node.declarations) {
            if (d.id.type === 'Identifier' && (BROWSER_GLOBALS.has(d.id.name) || GLOBAL_OBJECTS.has(d.id.name))) globals.push({ what: `${d.id.name} (declared as an ambient global)`, line: lineOf(d.start) });
          }
        }
        break;
      case 'MemberExpression':
        // globalThis.chrome, globalThis['chrome'], self[name]: a browser global by another road.
        if (node.object.type === 'Identifier' && GLOBAL_OBJECTS.has(node.object.name) && !declared.has(node.object.name)) {
          const name = node.computed ? literalText(node.property) : node.property.name;
          if (name === undefined) globals.push({ what: `${node.object.name}[…] (a global by a computed name)`, line: lineOf(node.start) });
          else if (BROWSER_GLOBALS.has(name)) globals.push({ what: `${node.object.name}.${name}`, line: lineOf(node.start) });
          for (const [k, child] of childrenOf(node)) if (k !== 'object') visit(child, node, k);
          return;
        }
        break;
      case 'Identifier':
        if (!isNameOnly(parent, key) && !declared.has(node.name)) {
          if (BROWSER_GLOBALS.has(node.name)) globals.push({ what: node.name, line: lineOf(node.start) });
          // globalThis on its own (an alias, an argument) would let any global through.
          else if (GLOBAL_OBJECTS.has(node.name)) globals.push({ what: `${node.name} (the global object itself)`, line: lineOf(node.start) });
        }
        break;
      default: break;
    }
    for (const [k, child] of childrenOf(node)) visit(child, node, k);
  };
  visit(parsed.program, null, null);
  return { imports, globals };
}

// ---- Resolving: a specifier to the file (or package) it names ----------------------------------

/** `{ file }` for a relative specifier (the file it names, existing or not), `{ pkg }` for a package. */
function resolveSpec(from, spec) {
  if (!spec.startsWith('.') && !spec.startsWith('/')) {
    const parts = spec.split('/');
    return { pkg: spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0], spec };
  }
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return { file: candidate, spec };
  }
  return { file: base, spec };
}

const srcRoot = join(root, 'src');
let srcFiles = [];
try { srcFiles = walk(srcRoot); } catch { /* no src in this tree */ }
/** file → { imports: [{ spec, line, target }], globals } */
const graph = new Map();
for (const file of srcFiles) {
  const { imports, globals } = readFile(file);
  graph.set(file, { globals, imports: imports.map((i) => ({ ...i, target: i.spec === null ? null : resolveSpec(file, i.spec) })) });
}
const under = (file, dir) => file.startsWith(join(root, dir) + sep);

// ---- Rule 1: what each part of src may import ------------------------------------------------

const rules = [
  {
    dir: 'src/core',
    forbidPackages: [/^webextension-polyfill$/, /^idb$/, /^openai$/, /^preact/, /^@preact\//, /^dom-accessibility-api$/],
    forbidDirs: ['src/adapters', 'src/background', 'src/content', 'src/ui', 'src/protocol'],
    forbidGlobals: true,
  },
  { dir: 'src/adapters', forbidPackages: [], forbidDirs: ['src/background', 'src/content', 'src/ui'] },
  { dir: 'src/protocol', forbidPackages: [], forbidDirs: ['src/adapters', 'src/background', 'src/content', 'src/ui'] },
  {
    dir: 'src/ui',
    forbidPackages: [],
    forbidDirs: ['src/adapters', 'src/background', 'src/content'],
    // Chrome's built-in model is probed where it lives, in the extension page
    // (issue 16 owns that adapter; moving the probe is left to it).
    allow: [['src/ui/app/provider-test-report.tsx', 'src/adapters/chrome-ai/prompt-api-model.ts']],
  },
  { dir: 'src/content', forbidPackages: [], forbidDirs: ['src/adapters', 'src/background', 'src/ui'] },
];
for (const rule of rules) {
  for (const [file, { imports, globals }] of graph) {
    if (!under(file, rule.dir)) continue;
    for (const { spec, line, target } of imports) {
      if (target === null) { problems.push(`${rel(file)}:${line} imports a computed specifier, which cannot be checked`); continue; }
      const allowed = target.file && (rule.allow ?? []).some(([f, t]) => rel(file) === f && rel(target.file) === t);
      const bad = target.pkg !== undefined
        ? rule.forbidPackages.some((re) => re.test(target.pkg))
        : rule.forbidDirs.some((d) => target.file === join(root, d) || under(target.file, d));
      if (bad && !allowed) problems.push(`${rel(file)}:${line} imports ${spec}`);
    }
    if (rule.forbidGlobals) for (const g of globals) problems.push(`${rel(file)}:${g.line} uses the browser global ${g.what}`);
  }
}

// ---- Rule 2: learner zones ------------------------------------------------------------------

const learnersRoot = join(root, 'src/learners');
/** The files that may import learner folders: the registry index (globs over src/learners/). */
const REGISTRY_FILES = new Set(['src/core/learning/registry/registry.ts', 'src/core/learning/registry/registry-factories.ts', 'src/ui/app/learner-views.ts', 'src/ui/app/learner-settings-views.tsx']);
/** The learner folder a file is in (its id), or undefined. */
const learnerOf = (path) => {
  const r = relative(learnersRoot, path);
  if (r.startsWith('..') || r === '' || !r.includes(sep)) return undefined;
  return r.split(sep)[0];
};
/** A learner's tests (src/learners/<id>/test/) may import the registry index and test support, never another learner. */
const isLearnerTest = (path) => learnerOf(path) !== undefined && relative(join(learnersRoot, learnerOf(path)), path).split(sep)[0] === 'test';
/** The learner folders a file reaches through its imports (itself included), memoised. */
const reachMemo = new Map();
function learnersReached(file, seen = new Set()) {
  if (reachMemo.has(file)) return reachMemo.get(file);
  if (seen.has(file)) return new Set();
  seen.add(file);
  const found = new Set();
  if (learnerOf(file) !== undefined) found.add(learnerOf(file));
  for (const { target } of graph.get(file)?.imports ?? []) {
    if (target?.file && graph.has(target.file)) for (const z of learnersReached(target.file, seen)) found.add(z);
  }
  seen.delete(file);
  if (seen.size === 0) reachMemo.set(file, found);
  return found;
}
for (const [file, { imports }] of graph) {
  const from = learnerOf(file);
  const name = rel(file);
  for (const { spec, line, target } of imports) {
    if (!target?.file) continue;
    const to = learnerOf(target.file);
    const where = `${name}:${line} imports ${spec}`;
    if (from === undefined) {
      if (to !== undefined && !REGISTRY_FILES.has(name)) problems.push(`${where}: only the registry index imports a learner folder (${name.startsWith('src/core/') ? 'core imports no learner' : 'reach learners through the registry'})`);
      // Core reaching every learner through the index (a default parameter is enough): only the wiring may.
      else if (to === undefined && name.startsWith('src/core/') && !REGISTRY_FILES.has(name) && REGISTRY_FILES.has(rel(target.file))) {
        problems.push(`${where}: core imports no registry index (it reaches every learner; the worker and the benchmark pass the registry in)`);
      }
      continue;
    }
    if (to !== undefined && to !== from) {
      problems.push(`${where}: a learner folder imports no other learner folder (move what both need to src/core/learning/shared/)`);
      continue;
    }
    if (to === from) continue;
    // A learner reaching other learners through a file outside it: the registry index, or anything that imports it.
    if (REGISTRY_FILES.has(rel(target.file))) {
      if (!isLearnerTest(file)) problems.push(`${where}: a learner folder imports no registry index (it reaches every learner; take what you need as a parameter)`);
      continue;
    }
    if (isLearnerTest(file)) continue;
    const others = [...learnersReached(target.file)].filter((z) => z !== from);
    if (others.length > 0) problems.push(`${where}, which reaches the learner folder${others.length > 1 ? 's' : ''} ${others.join(', ')}: a learner folder reaches no other learner folder`);
    else if (under(target.file, 'src') && !under(target.file, 'src/core') && !under(target.file, 'src/ui/app') && !under(target.file, 'src/protocol')) {
      problems.push(`${where}: a learner folder uses only core, the protocol types and the UI kit (src/ui/app/)`);
    }
  }
}

// ---- Rule 3: no import cycles at any folder level of src/core and src/learners -----------------------------------

// Inside each folder F, the parts are its subfolders and its own files; an
// edge a → b for every import from a file in part a of a file in part b. A
// path back through a subfolder is a folder-level cycle (learner/ → registry.ts
// → learner/ included). Two files of one folder that import each other are
// found by rule 4.
const checkedRoots = [join(root, 'src/core'), learnersRoot];
const folders = [...new Set([...graph.keys()].flatMap((f) => {
  const top = checkedRoots.find((r) => f.startsWith(r + sep));
  const out = [];
  if (top !== undefined) for (let d = dirname(f); d.startsWith(top); d = dirname(d)) out.push(d);
  return out;
}))];
const srcRel = (p) => relative(srcRoot, p).split(sep).join('/');
for (const folder of folders.sort()) {
  const partOf = (file) => {
    const r = relative(folder, file);
    if (r.startsWith('..') || r === '') return null;
    return r.split(sep)[0];
  };
  const subfolders = new Set([...graph.keys()].flatMap((f) => {
    const r = relative(folder, f).split(sep);
    return r.length > 1 && r[0] !== '..' ? [r[0]] : [];
  }));
  const edges = new Map();
  for (const [file, { imports }] of graph) {
    const from = partOf(file);
    if (from === null) continue;
    for (const { target } of imports) {
      if (!target?.file) continue;
      const to = partOf(target.file);
      if (to === null || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, rel(file));
    }
  }
  const reaches = (start, goal, seen = new Set()) => {
    if (start === goal) return true;
    if (seen.has(start)) return false;
    seen.add(start);
    return [...(edges.get(start)?.keys() ?? [])].some((next) => reaches(next, goal, seen));
  };
  const level = srcRel(folder);
  /** The edge from → to lies on a cycle that passes through a subfolder. */
  const onFolderCycle = (from, to) => (subfolders.has(from) || subfolders.has(to)
    ? reaches(to, from)
    : [...subfolders].some((f) => reaches(to, f) && reaches(f, from)));
  for (const [from, tos] of edges) {
    for (const [to, file] of tos) {
      if (onFolderCycle(from, to)) problems.push(`${file} imports ${level}/${to}, which imports ${level}/${from} back (import cycle between the parts of src/${level}/)`);
    }
  }
}

// ---- Rule 4: no import cycle between files anywhere in src/ -----------------------------------

// Two files of one folder that import each other (directly or round a longer
// loop) are a cycle too: every strongly connected set of files is reported once.
{
  let next = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set();
  const strongConnect = (v) => {
    index.set(v, next); low.set(v, next); next++; stack.push(v); onStack.add(v);
    for (const { target } of graph.get(v)?.imports ?? []) {
      const w = target?.file;
      if (!w || !graph.has(w)) continue;
      if (!index.has(w)) { strongConnect(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
    if (component.length > 1) problems.push(`import cycle between files: ${component.map(rel).sort().join(' ↔ ')}`);
  };
  for (const file of graph.keys()) if (!index.has(file)) strongConnect(file);
}

if (problems.length) {
  console.error(`Architecture boundary violations (${problems.length}):\n` + problems.join('\n'));
  process.exit(1);
}
console.log('boundaries ok');
