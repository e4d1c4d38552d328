/**
 * Where CER's buffer lives: a store of site rows (the store CER declares, stores.ts;
 * IndexedDB's `experiences` object store in the extension, in memory in the
 * benchmark and tests), read through CER's schema. Writes come from typed
 * code and are not re-validated; every row read back is, because the
 * database outlives the code that wrote it: rows that do not parse are
 * skipped, counted and logged.
 */
import { silentLogger, type Logger } from '../../../core/ports.ts';
import type { SiteRowStore } from '../../../core/stores/site-rows.ts';
import { InMemorySiteRows } from '../../../core/stores/in-memory-site-rows.ts';
import { ExperienceEntrySchema, type ExperienceEntry } from './experience.ts';

export interface ExperienceStore {
  /** All entries of one site (dynamics and skills), in no particular order. */
  list(origin: string): Promise<ExperienceEntry[]>;
  /** Inserts or replaces by id, all in one transaction. */
  putMany(entries: ExperienceEntry[]): Promise<void>;
  /** Deletes by id; returns how many existed. */
  delete(ids: string[]): Promise<number>;
  forgetSite(origin: string): Promise<number>;
  all(): Promise<ExperienceEntry[]>;
}

/** CER's buffer over any site-row store, validating every row it reads. */
export class ValidatedExperienceStore implements ExperienceStore {
  #corruptRows = 0;

  constructor(
    private readonly rows: SiteRowStore,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** Rows skipped on read because they failed validation, since this store was created. */
  get corruptRowsSkipped(): number {
    return this.#corruptRows;
  }

  async list(origin: string): Promise<ExperienceEntry[]> {
    return this.#valid(await this.rows.list(origin));
  }

  async putMany(entries: ExperienceEntry[]): Promise<void> {
    await this.rows.putMany(entries);
  }

  delete(ids: string[]): Promise<number> {
    return this.rows.delete(ids);
  }

  forgetSite(origin: string): Promise<number> {
    return this.rows.forgetSite(origin);
  }

  async all(): Promise<ExperienceEntry[]> {
    return this.#valid(await this.rows.all());
  }

  #valid(rows: unknown[]): ExperienceEntry[] {
    const out: ExperienceEntry[] = [];
    for (const row of rows) {
      const parsed = ExperienceEntrySchema.safeParse(row);
      if (parsed.success) {
        out.push(parsed.data);
      } else {
        this.#corruptRows++;
        const id = typeof row === 'object' && row !== null && 'id' in row ? String((row as { id: unknown }).id) : '?';
        this.logger.warn('skipped a corrupt experience row', { id, issue: parsed.error.issues[0]?.message ?? '' });
      }
    }
    return out;
  }
}

/** CER's buffer read through its schema (what the factory builds it on). */
export function experienceStoreOn(rows: SiteRowStore, logger?: Logger): ValidatedExperienceStore {
  return rows instanceof ValidatedExperienceStore ? rows : new ValidatedExperienceStore(rows, logger);
}

/** CER's buffer in memory (tests, the benchmark, the offline demo). */
export class InMemoryExperienceStore extends ValidatedExperienceStore {
  constructor() {
    super(new InMemorySiteRows());
  }
}
