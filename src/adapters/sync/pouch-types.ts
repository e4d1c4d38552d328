/**
 * The slice of PouchDB that team sync uses, typed here (PouchDB ships no
 * types; @types/pouchdb lags it). Both builds satisfy it: pouchdb-browser
 * (IndexedDB) in the extension, pouchdb-core with the memory adapter in
 * Node tests and the benchmark.
 */
export interface PouchRow {
  id: string;
  key: string;
  value: { rev: string; deleted?: boolean };
  doc?: Record<string, unknown> & { _id: string; _rev: string };
}

export interface PouchWriteResult {
  ok?: boolean;
  id?: string;
  rev?: string;
  error?: string | boolean;
  status?: number;
  name?: string;
  reason?: string;
  message?: string;
}

export interface PouchReplicationResult {
  ok: boolean;
  docs_read: number;
  docs_written: number;
  doc_write_failures: number;
  errors: unknown[];
  last_seq?: string | number;
  status?: string;
}

export interface PouchReplicationOptions {
  batch_size?: number;
  batches_limit?: number;
  selector?: Record<string, unknown>;
  retry?: boolean;
  live?: boolean;
}

/** What `replicate.to/from` returns: a promise and an event emitter that can be cancelled. */
export interface PouchReplication extends PromiseLike<PouchReplicationResult> {
  cancel(): void;
  on(event: 'change' | 'error' | 'complete' | 'denied', listener: (info: unknown) => void): PouchReplication;
}

export interface PouchDatabase {
  name: string;
  info(): Promise<{ doc_count: number; update_seq: string | number; db_name: string }>;
  get(id: string): Promise<Record<string, unknown> & { _id: string; _rev: string }>;
  put(doc: Record<string, unknown> & { _id: string }): Promise<PouchWriteResult>;
  bulkDocs(docs: readonly object[]): Promise<PouchWriteResult[]>;
  allDocs(options: { include_docs?: boolean; startkey?: string; endkey?: string; keys?: string[]; limit?: number }): Promise<{ rows: PouchRow[]; total_rows: number }>;
  changes(options: { since: string | number; limit?: number; include_docs?: boolean; style?: 'main_only' }): Promise<{ results: { id: string; seq: string | number; deleted?: boolean }[]; last_seq: string | number }>;
  replicate: {
    to(target: PouchDatabase | string, options?: PouchReplicationOptions): PouchReplication;
    from(source: PouchDatabase | string, options?: PouchReplicationOptions): PouchReplication;
  };
  close(): Promise<void>;
  destroy(): Promise<void>;
}

export interface PouchOptions {
  adapter?: string;
  auth?: { username: string; password: string };
  skip_setup?: boolean;
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** A PouchDB constructor (with its plugins already applied). */
export type PouchConstructor = new (name: string, options?: PouchOptions) => PouchDatabase;
