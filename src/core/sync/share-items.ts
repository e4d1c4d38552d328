/**
 * What the person shares: the rows of their memory export (the same archive
 * a file export writes, built by memory-transfer.ts from every registry
 * learner's `memory.export`) that belong to a shared site and that they
 * taught themselves, each as one immutable document with provenance.
 *
 * Never shared: episodes (they hold page digests and the person's own
 * approval history), a teammate's item (it is theirs to share), rows of a
 * site not chosen, rows with no site (a learner's global record), and a row
 * whose document would exceed MAX_SHARED_DOC_BYTES. Secrets are masked before
 * the document exists (secrets/mask-record.ts). The API key is not in the
 * export at all.
 */
import type { OwnStore } from '../learning/learner-definition.ts';
import { ownStoreRows, type MemoryArchive } from '../archive/memory-archive.ts';
import { maskRecord } from '../secrets/mask-record.ts';
import {
  contentHashOf,
  docBytes,
  MAX_SHARED_DOC_BYTES,
  SHARED_DOC_SCHEMA,
  sharedDocId,
  type Member,
  type SharedDoc,
  type SharedPart,
} from './shared-doc.ts';

/** One row of the export with its address and what provenance it carries. */
export interface ExportRow {
  part: SharedPart;
  origin: string;
  key: string;
  taughtAt: number;
  episodeId: string | null;
  item: unknown;
}

export interface ShareInput {
  archive: Pick<MemoryArchive, 'transitions' | 'experiences' | 'learners'>;
  /** The learners' own stores (LearnerMemory.ownStore): their archive fields are shared as parts of their name. */
  ownStores: readonly Pick<OwnStore, 'name' | 'address'>[];
  /** Origins the person chose to share. */
  sharedSites: readonly string[];
  me: Member;
  /**
   * True when the row at this address is a teammate's, as merged (team-index.ts):
   * same address and same content. A merged row the person's own learning has
   * changed since is theirs now, and shared as theirs.
   */
  fromTeammate(part: SharedPart, origin: string, key: string, contentHash: string): boolean;
  appVersion: string;
  now: number;
}

export interface ShareResult {
  docs: SharedDoc[];
  /** Rows of shared sites that were not shared, and why. */
  skipped: { part: SharedPart; origin: string; key: string; reason: string }[];
  /** How many secret values were masked (0 when memory was clean, as it should be). */
  masked: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A registry learner's exported record: the generic store's envelope (learner-data-store.ts). */
function learnerRow(learnerId: string, raw: unknown): ExportRow | null {
  if (!isRecord(raw) || typeof raw.origin !== 'string' || typeof raw.key !== 'string' || typeof raw.updatedAt !== 'number') return null;
  const value = raw.value;
  const episodeId = isRecord(value) && typeof value.episodeId === 'string' ? value.episodeId : null;
  // Where this browser imported it from is local (the panel's note), not part of the item: shared and hashed without it.
  const { importedFrom: _local, ...item } = raw;
  return { part: `learners/${learnerId}`, origin: raw.origin, key: raw.key, taughtAt: raw.updatedAt, episodeId, item };
}

/** Every row of the archive with its address; learner parts that are not record lists are reported. */
export function exportRows(archive: ShareInput['archive'], ownStores: ShareInput['ownStores']): { rows: ExportRow[]; unsharable: string[] } {
  const rows: ExportRow[] = [];
  const unsharable: string[] = [];
  // Each own store says where its rows live; the archive's field of that name holds them.
  for (const store of ownStores) {
    for (const item of ownStoreRows(archive as MemoryArchive, store.name)) {
      const address = store.address(item);
      if (address) rows.push({ part: store.name as SharedPart, ...address, item });
      else unsharable.push(`a "${store.name}" row has no site; it is not shared`);
    }
  }
  for (const [learnerId, part] of Object.entries(archive.learners ?? {})) {
    if (!/^[A-Za-z0-9_-]+$/.test(learnerId) || !Array.isArray(part)) {
      unsharable.push(`learner "${learnerId}" exports no list of site records; it is not shared`);
      continue;
    }
    for (const raw of part) {
      const row = learnerRow(learnerId, raw);
      if (row) rows.push(row);
      else unsharable.push(`a record of learner "${learnerId}" has no site; it is not shared`);
    }
  }
  return { rows, unsharable };
}

/** The person's own rows of the shared sites, as documents. */
export function shareItems(input: ShareInput): ShareResult {
  const sites = new Set(input.sharedSites);
  const result: ShareResult = { docs: [], skipped: [], masked: 0 };
  for (const row of exportRows(input.archive, input.ownStores).rows) {
    if (!sites.has(row.origin)) continue;
    const { item, masked } = maskRecord(row.item);
    const contentHash = contentHashOf(item);
    if (input.fromTeammate(row.part, row.origin, row.key, contentHash)) continue;
    result.masked += masked;
    const doc: SharedDoc = {
      _id: sharedDocId({ part: row.part, origin: row.origin, key: row.key, contentHash, author: input.me.id }),
      type: 'apprentice-item',
      schema: SHARED_DOC_SCHEMA,
      part: row.part,
      origin: row.origin,
      key: row.key,
      contentHash,
      provenance: { author: input.me, taughtAt: row.taughtAt, sharedAt: input.now, episodeId: row.episodeId, appVersion: input.appVersion },
      item: item as SharedDoc['item'],
    };
    const bytes = docBytes(doc);
    if (bytes > MAX_SHARED_DOC_BYTES) {
      result.skipped.push({ part: row.part, origin: row.origin, key: row.key, reason: `too large to share (${bytes} bytes; the limit is ${MAX_SHARED_DOC_BYTES})` });
      continue;
    }
    result.docs.push(doc);
  }
  return result;
}
