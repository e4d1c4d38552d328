// When a line names a learner: its id in any spelling (for an id `ranker`: `Ranker`, `RANKER`, `RankerSettings`,
// `Ran-Ker`: the id's letters in order, hyphens between them allowed, any case) or its label. An all-capitals word that
// merely starts with the id (`RANKERS`) is another word, and so is a longer word (`rankers`, `rankerless`).
// Shared by the learner-ids lint and the scaffold (which refuses an id the lint could not tell apart).
const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function namesLearner(line, id, label = null) {
  for (const m of line.matchAll(new RegExp(`(?<![A-Za-z0-9_$])${[...id].map(escape).join('-?')}`, 'gi'))) {
    const next = line[m.index + m[0].length] ?? '';
    if (/[a-z0-9_$]/.test(next)) continue;
    if (/[A-Z]/.test(next) && m[0] === m[0].toUpperCase()) continue;
    return true;
  }
  return label !== null && new RegExp(`(?<![A-Za-z0-9])${label.trim().split(/\s+/).map(escape).join('\\s+')}(?![A-Za-z0-9])`, 'i').test(line);
}
