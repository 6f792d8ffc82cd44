// The example's SQLite database: a table of articles, created once (deterministic rows), and the statements the
// server reads it with.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

// node_modules/.cache: ignored by git everywhere, and rebuilt after `npm ci` wipes it.
export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', '.cache', 'sluice-example');

const WORDS = ['stream', 'json', 'édition', '中文', 'emoji 😀', 'sqlite', 'edge', 'quote "q"', 'tab\t', 'naïve'];

/** Opens (creating it first if needed) a database of `rows` articles; read-only once built. */
export function openDatabase(rows, file = join(DATA_DIR, `articles-${rows}.sqlite`)) {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    // Built under a temporary name: an interrupted build never leaves a half-filled file that later runs trust.
    const partial = `${file}.${process.pid}.partial`;
    rmSync(partial, { force: true });
    const db = new Database(partial);
    db.exec(`CREATE TABLE articles (id INTEGER PRIMARY KEY, title TEXT NOT NULL, description TEXT NOT NULL,
      created_at TEXT NOT NULL, tags TEXT NOT NULL, score REAL NOT NULL, published INTEGER NOT NULL)`);
    const insert = db.prepare('INSERT INTO articles VALUES (?, ?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let id = 1; id <= rows; id++) {
        const word = (k) => WORDS[(id * 7 + k * 3) % WORDS.length];
        insert.run(
          id,
          `${word(1)} ${word(2)} ${id}`,
          Array.from({ length: 30 }, (_, k) => word(k)).join(' '),
          new Date(Date.UTC(2024, 0, 1) + id * 60_000).toISOString(),
          JSON.stringify([word(4), word(5)]),
          (id % 10_000) / 100,
          id % 3 === 0 ? 1 : 0,
        );
      }
    })();
    db.close();
    renameSync(partial, file);
  }
  return new Database(file, { readonly: true });
}

/** The three modes of /articles (README.md): each a way to turn the rows into a response body. */
export function statements(db) {
  return {
    // SQLite builds each row's JSON text itself; JS never parses it (rawJson passes it through, validated).
    raw: db
      .prepare(`SELECT json_object('id', id, 'title', title, 'description', description,
      'createdAt', created_at, 'tags', json(tags), 'score', score, 'published', json(iif(published, 'true', 'false')))
      AS json FROM articles ORDER BY id`)
      .pluck(),
    // Rows as JS objects, written one by one as they are read.
    object: db.prepare(`SELECT id, title, description, created_at AS createdAt, tags, score,
      published FROM articles ORDER BY id`),
    count: db.prepare('SELECT count(*) FROM articles').pluck(),
  };
}

/** A row of the `object` statement as the API shape (what json_object builds in `raw`). */
export function toArticle(row) {
  return { ...row, tags: JSON.parse(row.tags), published: row.published === 1 };
}
