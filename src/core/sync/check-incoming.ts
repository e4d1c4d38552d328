/**
 * Judges one incoming document, on its own, before anything is merged: it is
 * refused (with the reason), held for the person's review, or accepted as a
 * valid version of one item. One bad document never stops the others and
 * changes nothing (merge-incoming.ts merges the accepted ones in one import).
 *
 * The item inside is checked as a file import checks its part: by the
 * `prepareImport` of the registry learner that keeps it (the learner whose
 * own store has the part's name, or the learner of `learners/<id>`).
 */
import type { LearnerMemory } from '../learning/learner-definition.ts';
import { holdReason } from './review-rules.ts';
import {
  contentHashOf,
  docBytes,
  MAX_SHARED_DOC_BYTES,
  SHARED_DOC_SCHEMA,
  SharedDocHeaderSchema,
  SharedDocSchema,
  sharedDocId,
  type SharedDoc,
} from './shared-doc.ts';

export type IncomingVerdict =
  | { status: 'accepted'; doc: SharedDoc }
  | { status: 'held'; docId: string; reason: string; doc: SharedDoc | null; /** The person may accept it (an always-ask action); not a newer format or an unknown learner. */ reviewable: boolean }
  | { status: 'refused'; docId: string; reason: string };

export interface CheckContext {
  /** The registry learners' memories, by id (for `learners/<id>` parts). */
  learnerMemories: readonly { id: string; memory: Pick<LearnerMemory, 'prepareImport' | 'ownStore'> }[];
  /** Documents the person reviewed and accepted despite an always-ask action. */
  reviewed?: ReadonlySet<string>;
}

const refuse = (docId: string, reason: string): IncomingVerdict => ({ status: 'refused', docId, reason });

function issueText(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return `${issue?.path.map(String).join('.') || '(document)'}: ${issue?.message ?? 'invalid'}`;
}

/** Why the item does not fit its part, address and site; null when it does. */
function itemProblem(doc: SharedDoc, context: CheckContext): string | null {
  const item: unknown = doc.item;
  if (!doc.part.startsWith('learners/')) return ownRowProblem(doc, context);
  const learnerId = doc.part.slice('learners/'.length);
  const memory = context.learnerMemories.find((m) => m.id === learnerId)?.memory;
  if (!memory?.prepareImport) return `this version of Apprentice has no learner "${learnerId}" that imports memory`;
  const prepared = memory.prepareImport([item]);
  if (prepared.rejected.length > 0 || prepared.records.length !== 1) return prepared.rejected[0] ?? 'its record is invalid';
  const record = prepared.records[0]!;
  if (record.learnerId !== learnerId || record.origin !== doc.origin || record.key !== doc.key) return 'its record is filed under another address or site';
  return null;
}

/** A row of a learner's own store (its part is the store's name), checked by that learner's memory. */
function ownRowProblem(doc: SharedDoc, context: CheckContext): string | null {
  const memory = context.learnerMemories.find((m) => m.memory.ownStore?.name === doc.part)?.memory;
  if (!memory?.ownStore || !memory.prepareImport) return `this version of Apprentice has no learner that keeps "${doc.part}"`;
  const prepared = memory.prepareImport([doc.item]);
  const row = prepared.rows?.[0];
  if (prepared.rejected.length > 0 || prepared.rows?.length !== 1) return `its ${doc.part} row is invalid: ${prepared.rejected[0] ?? 'not one row'}`;
  const address = memory.ownStore.address(row);
  if (address?.key !== doc.key || address.origin !== doc.origin) return `its ${doc.part} row is filed under another address or site`;
  return null;
}

/** The verdict on one raw document from the team database. */
export function checkIncoming(raw: unknown, context: CheckContext): IncomingVerdict {
  const header = SharedDocHeaderSchema.safeParse(raw);
  const rawId = typeof raw === 'object' && raw !== null && typeof (raw as { _id?: unknown })._id === 'string' ? (raw as { _id: string })._id : '(no id)';
  if (!header.success) return refuse(rawId, 'it is not an Apprentice team-memory document');
  const bytes = docBytes(raw);
  if (bytes > MAX_SHARED_DOC_BYTES) return refuse(rawId, `it is too large (${bytes} bytes; the limit is ${MAX_SHARED_DOC_BYTES})`);
  if (header.data.schema > SHARED_DOC_SCHEMA) {
    const app = (raw as { provenance?: { appVersion?: unknown } }).provenance?.appVersion;
    return { status: 'held', docId: rawId, doc: null, reviewable: false, reason: `it was written by a newer Apprentice (document format ${header.data.schema}${typeof app === 'string' ? `, Apprentice ${app}` : ''}); update Apprentice to merge it` };
  }
  const parsed = SharedDocSchema.safeParse(raw);
  if (!parsed.success) return refuse(rawId, `it is invalid at ${issueText(parsed.error)}`);
  const doc = parsed.data;
  if (contentHashOf(doc.item) !== doc.contentHash) return refuse(rawId, 'its content does not match its hash (altered after it was shared)');
  if (sharedDocId({ ...doc, author: doc.provenance.author.id }) !== doc._id) return refuse(rawId, 'its id does not match its site, item and author');
  const problem = itemProblem(doc, context);
  if (problem !== null) {
    if (problem.startsWith('this version of Apprentice has no learner')) return { status: 'held', docId: rawId, doc, reviewable: false, reason: problem };
    return refuse(rawId, problem);
  }
  const hold = holdReason(doc.item, doc.origin);
  // The person looked at it and accepted it (the Memory tab): merged as any other.
  if (hold !== null && !context.reviewed?.has(rawId)) return { status: 'held', docId: rawId, doc, reviewable: true, reason: hold };
  return { status: 'accepted', doc };
}
