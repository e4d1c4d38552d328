/**
 * PouchDB for Node tests and the benchmark: the same core as pouchdb-browser,
 * with the in-memory adapter instead of IndexedDB, plus HTTP and replication.
 */
import PouchDB from 'pouchdb-core';
import memory from 'pouchdb-adapter-memory';
import http from 'pouchdb-adapter-http';
import replication from 'pouchdb-replication';
import { selectorInQueryFetch } from '../../src/adapters/sync/selector-fetch.ts';
import type { PouchConstructor, PouchDatabase } from '../../src/adapters/sync/pouch-types.ts';

PouchDB.plugin(memory);
PouchDB.plugin(http);
PouchDB.plugin(replication);

export const NodePouch: PouchConstructor = PouchDB;

let counter = 0;
/** A fresh in-memory database (unique name: memory databases of one name are shared in a process). */
export function memoryDb(label = 'db'): PouchDatabase {
  counter += 1;
  return new NodePouch(`${label}-${process.pid}-${counter}-${Date.now()}`, { adapter: 'memory' });
}

/** The team database on a server, with credentials; `skip_setup` so a missing database is an error, not created. */
export function remoteDb(url: string, database: string, auth: { username: string; password: string }): PouchDatabase {
  return new NodePouch(`${url}/${encodeURIComponent(database)}`, { auth, skip_setup: true, fetch: selectorInQueryFetch() });
}
