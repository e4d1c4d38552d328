/** What one Training-Free GRPO learning call did, and the sentence the panel shows for it. */
import type { LearnReport } from '../../../core/learning/learner.ts';
import type { GroupVerdict } from './group.ts';

/** What one call did, for the episode's learning notes, the panel and the benchmark. */
export interface TfgrpoLearnReport extends LearnReport {
  /** 'pending' while the group is still collecting attempts. */
  verdict: GroupVerdict | 'pending' | 'skipped';
  groupSize: number;
  path: 'model' | 'rules' | null;
  added: string[];
  updated: string[];
  deleted: string[];
  evicted: string[];
  /** Operations refused (malformed, unknown number, over the delete cap). */
  refused: string[];
  /** Principles the critique produced (model path). */
  principles: string[];
  /** Why the library did not change, when it did not. */
  reason: string | null;
  notes: string[];
}

export const emptyReport = (verdict: TfgrpoLearnReport['verdict'], groupSize: number): TfgrpoLearnReport => ({
  verdict, groupSize, path: null, added: [], updated: [], deleted: [], evicted: [], refused: [], principles: [], reason: null, notes: [],
});

/** One sentence for the panel: what the group did to the library, or why it did nothing. */
export function summarizeReport(r: TfgrpoLearnReport): string {
  if (r.verdict === 'pending' || r.verdict === 'skipped') return `library unchanged: ${r.reason ?? 'nothing to learn'}`;
  const changes = [
    r.added.length > 0 ? `${r.added.length} added` : '',
    r.updated.length > 0 ? `${r.updated.length} updated` : '',
    r.deleted.length > 0 ? `${r.deleted.length} deleted` : '',
    r.evicted.length > 0 ? `${r.evicted.length} evicted` : '',
  ].filter(Boolean);
  const how = r.path === 'model' ? 'through the model' : r.path === 'rules' ? 'by page-type contrasts (no model)' : '';
  const refused = r.refused.length > 0 ? `; ${r.refused.length} operation${r.refused.length === 1 ? '' : 's'} refused` : '';
  return changes.length > 0
    ? `group of ${r.groupSize} attempts (${r.verdict}): experiences ${changes.join(', ')} ${how}${refused}`.replace(/\s+;/, ';').trim()
    : `group of ${r.groupSize} attempts (${r.verdict}): library unchanged: ${r.reason ?? 'no change proposed'}${refused}`;
}
