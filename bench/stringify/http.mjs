// The HTTP run of bench:stringify: a load generator (50 connections, a fixed duration) against a server process
// that streams with sluice or answers with JSON.stringify of the whole document, on 127.0.0.1. The load generator
// is wrk when installed (apt-get install wrk), else autocannon: autocannon parses responses with http-parser-js,
// in JavaScript, and with 50 connections of 40 MB bodies it is the bottleneck (measured: 10 MB/s where curl and
// wrk read 90 MB/s from the same server), so its numbers describe the client more than the server.
import { execFile, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const SERVER = fileURLToPath(new URL('./http_server.mjs', import.meta.url));
const MiB = 2 ** 20;

function startServer(impl, count) {
  const child = fork(SERVER, [JSON.stringify({ impl, count, sampleIntervalMs: 5 })], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, port: message.port }));
    child.once('exit', (code) => reject(new Error(`server exited with code ${code}`)));
  });
}

function stopServer(child) {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send('stop');
  });
}

/** The load generator to use, `{ name, version }`: wrk when it is on the PATH (unless `preferred` says), else autocannon. */
export function loadGenerator(preferred) {
  return new Promise((resolve) => {
    // `wrk --version` prints its version line, then its usage, and exits with 1.
    execFile('wrk', ['--version'], (error, stdout) => {
      const version = /^wrk (\S+)/m.exec(stdout ?? '')?.[1];
      const wrk = error?.code !== 'ENOENT' && version !== undefined;
      if (preferred === 'autocannon' || (!wrk && preferred !== 'wrk')) {
        resolve({ name: 'autocannon', version: require('autocannon/package.json').version });
      } else if (!wrk) {
        throw new Error('--load wrk: wrk is not installed (apt-get install wrk)');
      } else {
        resolve({ name: 'wrk', version });
      }
    });
  });
}

async function autocannonRun(url, connections, seconds) {
  const autocannon = require('autocannon');
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    // A whole-document answer can take many seconds under 50 connections; a timeout would hide it as an error.
    timeout: 120,
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.total / seconds,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    throughputMBps: result.throughput.average / 1e6,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const UNIT_MS = { us: 1e-3, ms: 1, s: 1000, m: 60_000 };

function wrkRun(url, connections, seconds) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '120s', '--latency', url];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { timeout: (seconds + 180) * 1000 }, (error, stdout) => {
      if (error) return reject(error);
      const latency = (percent) => {
        const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(stdout);
        return match ? Number(match[1]) * UNIT_MS[match[2]] : null;
      };
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
      const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(stdout);
      const errors =
        [...stdout.matchAll(/(connect|read|write|timeout) (\d+)/g)].reduce((n, m) => n + Number(m[2]), 0) +
        Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
      resolve({
        requests,
        requestsPerSecond: requests / seconds,
        // wrk reports no latency when no request completed.
        latencyP50Ms: requests > 0 ? latency(50) : null,
        latencyP99Ms: requests > 0 ? latency(99) : null,
        throughputMBps: transfer
          ? Number(transfer[1]) * { B: 1e-6, KB: 1.024e-3, MB: 1.048576, GB: 1073.741824 }[transfer[2]]
          : null,
        errors,
      });
    });
  });
}

/** One load run against `impl`; returns requests/s, latency and the server's peak RSS. */
export async function httpRun(impl, { count, connections, seconds, generator }) {
  const { child, port } = await startServer(impl, count);
  try {
    const url = `http://127.0.0.1:${port}/`;
    const load =
      generator.name === 'wrk'
        ? await wrkRun(url, connections, seconds)
        : await autocannonRun(url, connections, seconds);
    const memory = await stopServer(child);
    return {
      impl,
      generator: `${generator.name} ${generator.version}`,
      ...load,
      serverRssGrowthMiB: (memory.rssPeak - memory.rssBaseline) / MiB,
      serverRssPeakMiB: memory.rssPeak / MiB,
    };
  } finally {
    child.kill();
  }
}

const ms = (v) => (v === null || v === undefined ? '–' : `${v >= 1000 ? v.toFixed(0) : v.toFixed(1)} ms`);
const fixed = (v, digits) => (v === null || v === undefined ? '–' : v.toFixed(digits));

export function httpTable(results) {
  const lines = [
    '| server | requests/s | requests completed | p50 latency | p99 latency | MB/s | errors | server peak RSS (growth) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.label} | ${fixed(r.requestsPerSecond, 2)} | ${r.requests} | ${ms(r.latencyP50Ms)} | ` +
        `${ms(r.latencyP99Ms)} | ${fixed(r.throughputMBps, 1)} | ${r.errors} | ` +
        `${fixed(r.serverRssPeakMiB, 0)} MiB (+${fixed(r.serverRssGrowthMiB, 0)} MiB) |`,
    );
  }
  return lines.join('\n');
}
