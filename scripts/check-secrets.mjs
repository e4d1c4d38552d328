// One secrets module (issue 23): every secret is detected and masked by
// src/core/secrets/ and nowhere else. Outside it, under src/ and bench/, this
// fails on
//  - a mask written by hand: a string, template or JSX text that is or holds
//    a mask token ({password}, {one-time-code}, {payment}, {secret}), a
//    "(hidden)"/"[redacted]"-style placeholder, or a run of 3+ bullets or
//    asterisks ('••••••', '********');
//  - an ad-hoc detector or masking regex: a regex literal, or a string given to
//    `new RegExp`, whose source names secret vocabulary (password, passcode,
//    one-time, otp, cc-, cvv/cvc, card number, pin, secret, token (singular), api key,
//    redact, mask), unless ALLOWED lists it with a reason.
// Literals are found by parsing (Vite's parser), so comments never count.
// Usage: node scripts/check-secrets.mjs [root]   (root defaults to the repository)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseAst } from 'vite';
import { helpIfAsked } from './cli-help.mjs';

helpIfAsked('usage: node scripts/check-secrets.mjs [root]   (npm run lint:secrets)\n  one secrets module: no hand-written mask or secrets regex elsewhere');

const root = process.argv[2] ? resolve(process.argv[2]) : new URL('..', import.meta.url).pathname;
const MODULE = 'src/core/secrets/';
const walk = (dir) => {
  let names = [];
  try { names = readdirSync(dir); } catch { return []; }
  return names.flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? (f === 'node_modules' || f === 'out' ? [] : walk(p)) : /\.(ts|tsx)$/.test(f) && !/\.d\.ts$/.test(f) ? [p] : [];
  });
};

/** Text that is, or holds, a mask. */
const MASK_TEXT = [
  /\{(?:password|one-time-code|payment|secret)\}/i,
  /^\s*[([{<](?:hidden|redacted|masked|secret)[)\]}>]\s*$/i,
  /^\s*REDACTED\s*$/,
  /[•●∙*]{3,}/,
];
/** A regex source about secrets. */
const SECRET_REGEX = /pass(?:w|code|phrase)|one\W{0,6}time|otp|cc-|cv[vc]|card\W{0,6}n(?:umber|o)|\bpin\b|\\bpin|secret|\btoken\b|api\W{0,6}key|redact|mask/i;

/**
 * Regexes that name secret words without detecting or masking a secret, each
 * with why (file and exact source: a new regex in the same file still fails).
 */
const ALLOWED = [
  // The offline policy reads "password X" in the (already masked) task as a field and the value to type.
  { file: 'src/core/policy/task-intents.ts', pattern: '^(?:password|user\\s*name|username)$' },
];

function nodesIn(node, visit) {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) nodesIn(child, visit);
    return;
  }
  if (typeof node.type === 'string') visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'typeAnnotation' || key === 'returnType') continue;
    if (value !== null && typeof value === 'object') nodesIn(value, visit);
  }
}

const lineAt = (text, offset) => text.slice(0, offset).split('\n').length;
const show = (s) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

const problems = [];
const files = [...walk(join(root, 'src')), ...walk(join(root, 'bench'))]
  // A learner's tests (src/learners/<id>/test/) are tests, as test/ is: they may write the masks they expect.
  .filter((f) => !relative(root, f).startsWith(MODULE) && !/^src\/learners\/[^/]+\/test\//.test(relative(root, f).split('\\').join('/')));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const rel = relative(root, file);
  let ast;
  try {
    ast = parseAst(text, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts' });
  } catch (err) {
    problems.push(`${rel}: cannot be parsed (${err.message.split('\n')[0]})`);
    continue;
  }
  const report = (node, what) => problems.push(`${rel}:${lineAt(text, node.start)} ${what}`);
  nodesIn(ast.body, (node) => {
    if (node.type === 'Literal' && node.regex) {
      const allowed = ALLOWED.some((a) => a.file === rel && a.pattern === node.regex.pattern);
      if (!allowed && SECRET_REGEX.test(node.regex.pattern)) report(node, `has an ad-hoc secrets regex /${node.regex.pattern.slice(0, 60)}/ (use src/core/secrets/)`);
      return;
    }
    if (node.type === 'NewExpression' && node.callee?.name === 'RegExp') {
      const source = node.arguments?.[0];
      const raw = source?.type === 'Literal' ? String(source.value) : source?.type === 'TemplateLiteral' ? source.quasis.map((q) => q.value.cooked ?? '').join('') : '';
      if (SECRET_REGEX.test(raw)) report(node, `builds an ad-hoc secrets regex ${show(raw)} (use src/core/secrets/)`);
      return;
    }
    const strings = node.type === 'Literal' && typeof node.value === 'string' ? [node.value]
      : node.type === 'TemplateLiteral' ? node.quasis.map((q) => q.value.cooked ?? '')
      : node.type === 'JSXText' ? [node.value]
      : [];
    for (const s of strings) if (MASK_TEXT.some((re) => re.test(s))) report(node, `writes a mask by hand ${show(s)} (use maskOf from src/core/secrets/)`);
  });
}

if (problems.length > 0) {
  console.error(`check-secrets: ${problems.length} problem(s): secrets are detected and masked only in ${MODULE}\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`check-secrets ok (${files.length} files outside ${MODULE}: no hand-written mask, no ad-hoc secrets regex)`);
