// PouchDB ships no type declarations; team sync uses it only through
// PouchConstructor (pouch-types.ts), so the modules are declared as such.
declare module 'pouchdb-browser' {
  import type { PouchConstructor } from './pouch-types.ts';
  const PouchDB: PouchConstructor & { plugin(plugin: unknown): PouchConstructor };
  export default PouchDB;
}
declare module 'pouchdb-core' {
  import type { PouchConstructor } from './pouch-types.ts';
  const PouchDB: PouchConstructor & { plugin(plugin: unknown): PouchConstructor & { plugin(plugin: unknown): unknown } };
  export default PouchDB;
}
declare module 'pouchdb-adapter-memory' {
  const plugin: unknown;
  export default plugin;
}
declare module 'pouchdb-adapter-http' {
  const plugin: unknown;
  export default plugin;
}
declare module 'pouchdb-replication' {
  const plugin: unknown;
  export default plugin;
}
