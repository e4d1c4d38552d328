/**
 * What the offline policy reads from a task's text: its content words
 * (light stemming, a small table of generic synonyms), the values it asks to
 * type or choose, a search query, checkbox intents, and whether it asks a
 * question. Nothing here knows any site: only English phrasing.
 */

const STOPWORDS = new Set([
  'a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'and', 'or', 'with', 'by', 'at', 'from', 'my', 'me', 'i', 'is',
  'are', 'be', 'it', 'its', 'this', 'that', 'there', 'please', 'then', 'all', 'your', 'you', 'as', 'into', 'so',
  'how', 'many', 'much', 'what', 'which', 'who', 'whom', 'when', 'where', 'does', 'do', 'did', 'was', 'were', 'can',
  'could', 'should', 'would', 'will', 'has', 'have', 'had', 'about', 'page', 'site', 'currently', 'now', 'tell',
  'show', 'shown', 'give', 'us', 'we', 'our', 'one', 'some', 'any', 'each', 'than', 'after', 'before', 'if',
]);

/** Multi-word phrases folded into one token before tokenizing (both sides). */
const PHRASES: [RegExp, string][] = [
  [/\b(?:sign|log)[\s-]?in\b|\blogin\b/g, ' login '],
  [/\b(?:sign|log)[\s-]?out\b|\blogout\b/g, ' logout '],
  [/\bsign[\s-]?up\b|\bcreate (?:an )?account\b|\bregister\b/g, ' signup '],
  [/\bcheck[\s-]?out\b/g, ' checkout '],
  [/\be-mail\b/g, ' email '],
  [/\bzip code\b|\bpostal code\b|\bpost code\b/g, ' postcode '],
  [/\bup[\s-]?vote\b/g, ' upvote '],
  [/\bdown[\s-]?vote\b/g, ' downvote '],
];

/** Generic synonym groups: every word maps to its group's first word. */
const SYNONYM_GROUPS: string[][] = [
  ['search', 'find', 'look', 'query', 'lookup'],
  ['remove', 'delete', 'discard', 'trash', 'erase'],
  ['cart', 'basket', 'bag'],
  ['buy', 'purchase'],
  ['email', 'mail'],
  ['phone', 'telephone', 'mobile', 'tel'],
  ['edit', 'change', 'modify', 'update'],
  ['save', 'store', 'keep'],
  ['next', 'continue', 'proceed'],
  ['comment', 'reply'],
  ['username', 'user'],
  ['settings', 'preferences'],
  ['cheap', 'cheapest', 'lowest', 'low', 'inexpensive'],
  ['expensive', 'highest', 'high', 'priciest'],
  ['newest', 'latest', 'recent', 'new'],
  ['oldest', 'earliest', 'old'],
  ['quantity', 'qty', 'amount'],
  ['upvote', 'like'],
];
const SYNONYM: Map<string, string> = new Map(SYNONYM_GROUPS.flatMap((g) => g.map((w) => [stem(w), stem(g[0]!)] as [string, string])));

/** Words implied by another word (buying means adding to a cart). */
const IMPLIES: Record<string, string[]> = { buy: ['add', 'cart'], cheap: ['price'], expensive: ['price'] };

/** Light stemming: enough for plurals and -ing/-ed forms to meet their base. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/'s$/, '');
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.length > 4 && /(?:x|ch|sh|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  // running → runn → run
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

const foldPhrases = (text: string): string => PHRASES.reduce((s, [re, to]) => s.replace(re, to), text.toLowerCase());

/** Raw lower-cased words of a text (no stopword removal): for phrase checks. */
export const rawWords = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}@.]+/u).map((w) => w.replace(/^\.+|\.+$/g, '')).filter(Boolean);

/** Canonical content terms of a text: phrases folded, stopwords dropped, stemmed, synonyms merged. */
const termsCache = new Map<string, ReadonlySet<string>>();
const TERMS_CACHE_LIMIT = 20_000;

export function terms(text: string): Set<string> {
  // Pages repeat names and the scorer asks for the same text many times: memoize (copies are returned).
  const cached = termsCache.get(text);
  if (cached) return new Set(cached);
  const out = computeTerms(text);
  if (termsCache.size >= TERMS_CACHE_LIMIT) termsCache.clear();
  termsCache.set(text, out);
  return new Set(out);
}

function computeTerms(text: string, mergeSynonyms = true): Set<string> {
  const out = new Set<string>();
  for (const raw of foldPhrases(text).split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || STOPWORDS.has(raw)) continue;
    const s = stem(raw);
    const canon = SYNONYM.get(s) ?? s;
    out.add(mergeSynonyms ? canon : s);
    for (const extra of IMPLIES[canon] ?? []) out.add(extra);
  }
  return out;
}

/**
 * The same terms with synonyms left apart (implied words still added): a
 * name that shares a word itself with the task is stronger evidence than one
 * that only shares a synonym ("Yoga mat bag" is not a cart for "add the
 * yoga mat to my cart").
 */
export function ownTerms(text: string): Set<string> {
  const cached = ownTermsCache.get(text);
  if (cached) return new Set(cached);
  const out = computeTerms(text, false);
  if (ownTermsCache.size >= TERMS_CACHE_LIMIT) ownTermsCache.clear();
  ownTermsCache.set(text, out);
  return new Set(out);
}
const ownTermsCache = new Map<string, ReadonlySet<string>>();

export interface FieldIntent {
  /** Terms naming the field ("email", "first name"); empty when only the value's shape tells (an email address). */
  field: Set<string>;
  value: string;
  /** 'email' when the value is an email address (matches type=email fields). */
  shape: 'email' | 'number' | 'text';
}

export interface TaskIntents {
  terms: Set<string>;
  /** The task's words before synonyms are merged (see `ownTerms`). */
  ownTerms: Set<string>;
  /** Lower-cased task with single spaces, for option phrase containment. */
  normalized: string;
  fields: FieldIntent[];
  searchQuery: string | null;
  /**
   * The thing the task is about, when it names one with capitals ("the Red
   * teapot", "Priya Natarajan"): the first capitalized phrase that is not the
   * first word of a sentence, not quoted and not a value the task sets ("… to
   * Canada"). A page that does not show it and has a search field is searched
   * for it, as a person would.
   */
  namedThing: string | null;
  /** 'on' for enable/subscribe/agree…, 'off' for disable/unsubscribe…, null otherwise. */
  checkbox: 'on' | 'off' | null;
  /** The same, clause by clause, with the clause's terms: a box takes the polarity of the clause that names it. */
  checkboxClauses: { terms: Set<string>; polarity: 'on' | 'off' }[];
  question: { kind: 'count' | 'amount' | 'value'; focus: Set<string> } | null;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
const QUOTED = /"([^"]+)"|“([^”]+)”|'([^']+)'/g;

const shapeOf = (value: string): FieldIntent['shape'] =>
  EMAIL.test(value) ? 'email' : /^[\d.,]+$/.test(value) ? 'number' : 'text';

/** A value at the start of `s`: quoted, an email, or one token. */
function leadingValue(s: string): string | null {
  const q = /^\s*(?:"([^"]+)"|“([^”]+)”|'([^']+)')/.exec(s);
  if (q) return q[1] ?? q[2] ?? q[3] ?? null;
  const e = new RegExp(`^\\s*(${EMAIL.source})`).exec(s);
  if (e) return e[1] ?? null;
  const t = /^\s*([^\s,;]+)/.exec(s);
  return t?.[1]?.replace(/[.!?]+$/, '') ?? null;
}

/** A value that may run over several words, up to a clause boundary. */
function clauseValue(s: string): string | null {
  const q = leadingValue(s);
  if (q && /^\s*["“']/.test(s)) return q;
  const m = /^\s*(.+?)(?=\s*(?:[,;]|\.(?:\s|$)|\band\b|\bthen\b|$))/.exec(s);
  const v = m?.[1]?.trim().replace(/[.!?]+$/, '');
  return v ? v : null;
}

const FIELD_WORDS = String.raw`(?:e-?mail(?:\s+address)?|password|username|user\s*name|first\s+name|last\s+name|full\s+name|name|phone(?:\s+number)?|address|city|zip(?:\s+code)?|postcode|postal\s+code|country|title|subject|comment|message|body|quantity|qty|amount|price|company|website|bio|description|nickname|display\s+name|age|date)`;

export function analyzeTask(task: string): TaskIntents {
  const text = task.replace(/\s+/g, ' ').trim();
  const fields: FieldIntent[] = [];
  const used = new Set<string>();
  const add = (field: string, value: string | null) => {
    if (!value || used.has(value)) return;
    used.add(value);
    fields.push({ field: terms(field), value, shape: shapeOf(value) });
  };

  // "set/change/update the X to Y"
  for (const m of text.matchAll(/\b(?:set|change|update|make|switch)\s+(?:the\s+|my\s+|your\s+)?([\w\s-]{1,40}?)\s+to\s+(.+)/gi)) {
    add(m[1] ?? '', clauseValue(m[2] ?? ''));
  }
  // "with (the) email x", "password: y", "username = z", "as x@y.z"
  for (const m of text.matchAll(new RegExp(`\\b(${FIELD_WORDS})\\b\\s*(\\bis\\b|\\bas\\b|=|:)?\\s*(?=["“'\\w@])`, 'gi'))) {
    const after = text.slice((m.index ?? 0) + m[0].length);
    const v = leadingValue(after);
    if (!v || STOPWORDS.has(v.toLowerCase())) continue;
    // Without "is"/":"/"=", a bare word after a field name is a value only when it looks like one
    // ("password hunter2", "quantity 3", "email a@b.c") — not "price low to high".
    const separated = m[2] !== undefined;
    const looksLikeValue = /^\s*["“']/.test(after) || /\d|@/.test(v) || /^(?:password|user\s*name|username)$/i.test(m[1] ?? '');
    if (separated || looksLikeValue) add(m[1] ?? '', v);
  }
  for (const m of text.matchAll(/\b(?:named|called|titled)\s+/gi)) {
    add(/titled/i.test(m[0]) ? 'title' : 'name', clauseValue(text.slice((m.index ?? 0) + m[0].length)));
  }
  // Any email address not yet assigned goes to an email (or login) field.
  const email = EMAIL.exec(text)?.[0];
  if (email) add('email', email);

  let searchQuery: string | null = null;
  const search = /\b(?:search(?:\s+for)?|look\s+up|look\s+for)\s+(.+)/i.exec(text);
  if (search) searchQuery = clauseValue(search[1] ?? '')?.replace(/^(?:the|a|an)\s+/i, '') ?? null;
  const quotedFind = /\bfind\s+["“']([^"”']+)["”']/i.exec(text);
  if (!searchQuery && quotedFind) searchQuery = quotedFind[1] ?? null;
  if (searchQuery) used.add(searchQuery);

  // Quoted values not claimed yet: the field is named by the words just before the quote.
  for (const m of text.matchAll(QUOTED)) {
    const value = m[1] ?? m[2] ?? m[3] ?? '';
    if (used.has(value)) continue;
    const before = text.slice(0, m.index ?? 0).split(/\s+/).filter((w) => w && !STOPWORDS.has(w.toLowerCase())).slice(-2);
    add(before.join(' '), value);
  }

  // On/off per clause: "turn on X and turn off Y" sets two boxes two ways.
  const OFF = /\b(?:disable|unsubscribe|turn\s+off|switch\s+off|uncheck|opt\s+out|deselect|untick|stop|no\s+longer|don'?t|do\s+not|never)\b/i;
  const ON = /\b(?:enable|subscribe|agree|accept|turn\s+on|switch\s+on|tick|opt\s+in|allow|remember)\b/i;
  const polarity = (clause: string): 'on' | 'off' | null => (OFF.test(clause) ? 'off' : ON.test(clause) ? 'on' : null);
  const checkbox = polarity(text);
  const checkboxClauses = text
    .split(/\s*(?:[,;]|\band\b|\bthen\b|\bbut\b)\s*/i)
    .map((clause) => ({ terms: terms(clause), polarity: polarity(clause) }))
    .filter((c): c is { terms: Set<string>; polarity: 'on' | 'off' } => c.polarity !== null && c.terms.size > 0);

  let question: TaskIntents['question'] = null;
  const lower = text.toLowerCase();
  if (/^(?:how many|how much|what|which|who|when|where|is|are|does|do|list|tell me|find out)\b/.test(lower) || lower.endsWith('?')) {
    const kind = /\bhow many\b|\bnumber of\b|\bcount\b/.test(lower) ? 'count' : /\bhow much\b|\bprice\b|\bcost\b|\btotal\b/.test(lower) ? 'amount' : 'value';
    question = { kind, focus: terms(text.replace(/\b(?:are there|is there|in total)\b/gi, ' ')) };
  }

  const namedThing = searchQuery === null ? firstNamedThing(text, used) : null;
  return { terms: terms(text), ownTerms: ownTerms(text), normalized: rawWords(text).join(' '), fields, searchQuery, namedThing, checkbox, checkboxClauses, question };
}

/** Words that make the next capitalized phrase a value the task sets or gives, not a thing to find. */
const VALUE_MARKERS = new Set(['to', 'as', 'with', 'into']);

/** See `TaskIntents.namedThing`. `values`: the task's field values, never a thing to find. */
export function firstNamedThing(text: string, values: ReadonlySet<string>): string | null {
  // Quotes are values (titles, comments, codes) and break adjacency like punctuation does.
  const unquoted = text.replace(QUOTED, ' | ');
  const words = [...unquoted.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)].map((m) => ({ word: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
  const adjacent = (a: number, b: number) => /^\s+$/.test(unquoted.slice(words[a]!.end, words[b]!.start));
  const capital = (w: string) => /^\p{Lu}/u.test(w) && w !== 'I';
  const sentenceStart = (i: number) => i === 0 || /[.?!:]\s*$/.test(unquoted.slice(words[i - 1]!.end, words[i]!.start)) || /[.?!]$/.test(words[i - 1]!.word);
  for (let i = 0; i < words.length; i++) {
    if (!capital(words[i]!.word) || sentenceStart(i)) continue;
    const start = i;
    let end = i;
    while (end + 1 < words.length && adjacent(end, end + 1) && capital(words[end + 1]!.word)) end++;
    // One capitalized word names a thing with the lowercase word after it ("Red teapot", "Steel toaster").
    const next = words[end + 1];
    if (end === start && next && adjacent(end, end + 1) && /^\p{Ll}/u.test(next.word) && !STOPWORDS.has(next.word.toLowerCase())) end++;
    i = end;
    const phrase = words.slice(start, end + 1).map((w) => w.word).join(' ');
    const marker = start > 0 && adjacent(start - 1, start) ? words[start - 1]!.word.toLowerCase() : '';
    if (VALUE_MARKERS.has(marker)) continue;
    if ([...values].some((v) => v.toLowerCase().includes(phrase.toLowerCase()))) continue;
    return phrase;
  }
  return null;
}
