/**
 * The runs a team has filed (`rig history add DIR`), in one SQLite file: each run's campaign, start
 * and shard, and per scenario the figures runs are compared by (rig/history/run-figures.ts). A run
 * is filed once: the same campaign, start and shard again is reported, not added twice.
 * SQLite here is sql.js (SQLite compiled to WebAssembly: no native build on each `npm ci`): the
 * file is read whole, changed in memory, and written back whole, to a temporary file renamed over
 * it, while a lock file next to it keeps a second writer out. The file is an ordinary SQLite
 * database: the sqlite3 shell and any SQLite library read it.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import initSqlJs, { type Database } from 'sql.js';
import { badInput } from '../errors.js';
import { currentOwner, formatOwner, ownerAlive, readOwner } from '../process-owner.js';
import type { CampaignResults } from '../results/types.js';
import { runFigures, type RunFigures, type ScenarioFigures } from './run-figures.js';

export const HISTORY_FILE = 'history.sqlite';

/** The default store: the work dir's history.sqlite. */
export function defaultHistoryPath(workDir: string): string {
  return join(workDir, HISTORY_FILE);
}

const SCHEMA_VERSION = 1;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  campaign TEXT NOT NULL,
  started_at TEXT NOT NULL,
  shard TEXT NOT NULL,
  dir TEXT NOT NULL,
  filed_at TEXT NOT NULL,
  UNIQUE (campaign, started_at, shard)
);
CREATE TABLE IF NOT EXISTS scenario_runs (
  run_id INTEGER NOT NULL REFERENCES runs(id),
  scenario TEXT NOT NULL,
  judged INTEGER NOT NULL,
  contradicted INTEGER NOT NULL,
  servers TEXT NOT NULL,
  findings TEXT NOT NULL,
  classes TEXT NOT NULL,
  PRIMARY KEY (run_id, scenario)
);
CREATE INDEX IF NOT EXISTS runs_by_campaign ON runs (campaign, started_at);
`;

export interface FiledRun extends RunFigures {
  id: number;
  dir: string;
}

type Row = Record<string, number | string | Uint8Array | null>;

export class HistoryStore {
  private constructor(
    private readonly db: Database,
    readonly path: string,
    private readonly lock: string | null,
  ) {}

  /**
   * Opens the store at `path`, made (with its folder) when missing, unless it is only to be read;
   * one opened to be written holds its lock until close().
   */
  static async open(path: string, { read = false } = {}): Promise<HistoryStore> {
    if (read && !existsSync(path)) throw badInput(`${path}: no history store here yet; file a run with rig history add DIR, or name another store file`);
    const lock = read ? null : takeLock(path);
    try {
      let bytes: Buffer | null = null;
      try {
        if (existsSync(path)) bytes = readFileSync(path);
      } catch (error) {
        throw badInput(`${path}: cannot read the history store (${(error as NodeJS.ErrnoException).code ?? error}); name a store file you can read`, error);
      }
      const SQL = await initSqlJs();
      let db: Database;
      try {
        db = new SQL.Database(bytes);
        const version = Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0] ?? 0);
        if (version > SCHEMA_VERSION) throw badInput(`${path}: a history store of a newer rig (schema ${version}, this rig knows ${SCHEMA_VERSION}); use that rig, or another --store`);
        db.run(SCHEMA);
        db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      } catch (error) {
        if ((error as { exitCode?: number }).exitCode === 2) throw error;
        throw badInput(`${path}: not a history store (${(error as Error).message}); name another store file`, error);
      }
      return new HistoryStore(db, path, lock);
    } catch (error) {
      if (lock) rmSync(lock, { force: true });
      throw error;
    }
  }

  close(): void {
    this.db.close();
    if (this.lock) rmSync(this.lock, { force: true });
  }

  /** Files a run and writes the store; `added` false when the same campaign, start and shard was filed before. */
  add(results: CampaignResults, dir: string): { id: number; added: boolean } {
    if (!this.lock) throw new Error('powercut-rig: the history store was opened to be read');
    const shard = results.shard ? `${results.shard.index}/${results.shard.count}` : '';
    const known = this.rows('SELECT id FROM runs WHERE campaign = ? AND started_at = ? AND shard = ?', [results.campaign, results.startedAt, shard])[0];
    if (known) return { id: Number(known.id), added: false };
    const figures = runFigures(results);
    this.db.run('BEGIN');
    this.db.run('INSERT INTO runs (campaign, started_at, shard, dir, filed_at) VALUES (?, ?, ?, ?, ?)', [results.campaign, results.startedAt, shard, dir, new Date().toISOString()]);
    const id = Number(this.rows('SELECT last_insert_rowid() AS id')[0]!.id);
    for (const s of figures.scenarios) {
      this.db.run('INSERT INTO scenario_runs (run_id, scenario, judged, contradicted, servers, findings, classes) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        id, s.scenario, s.judged, s.contradicted, JSON.stringify(s.servers), JSON.stringify(s.findings), JSON.stringify(s.classes),
      ]);
    }
    this.db.run('COMMIT');
    this.save();
    return { id, added: true };
  }

  /** The campaigns filed, by name. */
  campaigns(): string[] {
    return this.rows('SELECT DISTINCT campaign FROM runs ORDER BY campaign').map((r) => String(r.campaign));
  }

  /** The campaign's runs, oldest first (by start). */
  runs(campaign: string): FiledRun[] {
    const runs = this.rows('SELECT id, campaign, started_at, dir FROM runs WHERE campaign = ? ORDER BY started_at, id', [campaign]);
    const rows = this.rows('SELECT s.* FROM scenario_runs s JOIN runs r ON r.id = s.run_id WHERE r.campaign = ? ORDER BY s.rowid', [campaign]);
    return runs.map((r) => ({
      id: Number(r.id),
      dir: String(r.dir),
      campaign: String(r.campaign),
      startedAt: String(r.started_at),
      scenarios: rows.filter((s) => s.run_id === r.id).map((s): ScenarioFigures => ({
        scenario: String(s.scenario),
        judged: Number(s.judged),
        contradicted: Number(s.contradicted),
        servers: JSON.parse(String(s.servers)) as string[],
        findings: JSON.parse(String(s.findings)) as ScenarioFigures['findings'],
        classes: JSON.parse(String(s.classes)) as ScenarioFigures['classes'],
      })),
    }));
  }

  private rows(sql: string, params: (string | number)[] = []): Row[] {
    const statement = this.db.prepare(sql, params);
    const out: Row[] = [];
    while (statement.step()) out.push(statement.getAsObject() as Row);
    statement.free();
    return out;
  }

  /** The whole database, to a temporary file renamed over the store: a reader sees the old file or the new. */
  private save(): void {
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, this.db.export());
    renameSync(temporary, this.path);
  }
}

/**
 * `path`.lock, made exclusively and naming this process (pid and start time); a lock whose process is gone is taken
 * over. Another live writer is bad input now rather than a lost run later.
 */
function takeLock(path: string): string {
  const lock = `${path}.lock`;
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw badInput(`${path}: cannot open the history store (${(error as NodeJS.ErrnoException).code ?? error}); name a store file in a folder you can write`, error);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lock, 'wx');
      writeFileSync(fd, `${formatOwner(currentOwner())}\n`);
      closeSync(fd);
      return lock;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw badInput(`${path}: cannot open the history store (${code ?? error}); name a store file in a folder you can write`, error);
      const holder = readOwner(readFileSync(lock, 'utf8'));
      if (holder && ownerAlive(holder)) {
        throw badInput(`${path}: another rig (pid ${holder.pid}) is filing into this store; run once it has finished`);
      }
      rmSync(lock, { force: true }); // its process is gone
    }
  }
  throw badInput(`${path}: cannot take ${lock}; remove it if no rig is filing into this store`);
}
