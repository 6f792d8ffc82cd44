#!/usr/bin/env node
// Measures the three modes of server.mjs, each in a server process of its own (so that one's memory never shows
// in another's RSS): rows/ms, time to first byte, total time, bytes, and the server's peak RSS. Prints a table,
// then one JSON line with the numbers. Usage: node measure.mjs [--rows N]   (default 100000)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openDatabase } from './database.mjs';

const rowsAt = process.argv.indexOf('--rows');
const rows = rowsAt > 0 ? Number(process.argv[rowsAt + 1]) : 100_000;
if (!Number.isInteger(rows) || rows < 1) {
  console.error('usage: node measure.mjs [--rows N]');
  process.exit(2);
}
openDatabase(rows).close(); // built before any clock starts

async function startServer() {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('server.mjs', import.meta.url)), '--port', '0', '--rows', String(rows)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const origin = await new Promise((resolve, reject) => {
    let printed = '';
    child.stdout.on('data', (data) => {
      printed += data;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(printed);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { origin, stop: () => child.kill() };
}

async function measure(mode) {
  const server = await startServer();
  try {
    const before = await (await fetch(`${server.origin}/stats`)).json();
    const started = performance.now();
    const response = await fetch(`${server.origin}/articles?mode=${mode}`);
    const reader = response.body.getReader();
    let firstByteMs = null;
    const chunks = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      firstByteMs ??= performance.now() - started;
      chunks.push(value);
    }
    const totalMs = performance.now() - started;
    const body = Buffer.concat(chunks);
    const after = await (await fetch(`${server.origin}/stats`)).json();
    const count = JSON.parse(body.toString('utf8'))._embedded.articles.length;
    return {
      mode,
      rows: count,
      bytes: body.length,
      rowsPerMs: Math.round(count / totalMs),
      firstByteMs: Math.round(firstByteMs),
      totalMs: Math.round(totalMs),
      peakRssMb: Math.round(after.maxRssBytes / 2 ** 20),
      rssGrowthMb: Math.round((after.maxRssBytes - before.rssBytes) / 2 ** 20),
    };
  } finally {
    server.stop();
  }
}

const results = [];
for (const mode of ['raw', 'object', 'array']) results.push(await measure(mode));
console.log(`node ${process.version}, better-sqlite3, ${rows} rows\n`);
console.log('| mode | rows/ms | first byte (ms) | total (ms) | MB | server peak RSS (MB) | RSS growth (MB) |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  console.log(
    `| ${r.mode} | ${r.rowsPerMs} | ${r.firstByteMs} | ${r.totalMs} | ${(r.bytes / 1e6).toFixed(1)} | ${r.peakRssMb} | ${r.rssGrowthMb} |`,
  );
}
console.log(JSON.stringify({ rows, results }));
