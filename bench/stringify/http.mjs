// bench:stringify's HTTP run: autocannon against http_server.mjs, itself the bottleneck (bench/README.md).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { packageVersion } from '../harness/environment.mjs';
import { GrowthPeak } from '../harness/proc_rss.mjs';
import { fixed, mdTable } from '../harness/stats.mjs';

const GENERATOR_VERSION = packageVersion('autocannon');
const SERVER = fileURLToPath(new URL('./http_server.mjs', import.meta.url));
const MiB = 2 ** 20;

export async function httpRun(impl, { count, connections, seconds }) {
  const stdio = ['ignore', 'inherit', 'inherit', 'ipc'];
  const child = fork(SERVER, [JSON.stringify({ impl, count })], { execArgv: ['--expose-gc'], stdio });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`server exited with code ${code}`)));
  });
  try {
    const sampler = new GrowthPeak([child.pid]);
    const rssBaseline = sampler.start(5);
    // A whole-document answer can take many seconds under 50 connections: no timeout hides it as an error.
    const result = await autocannon({ url: `http://127.0.0.1:${port}/`, connections, duration: seconds, timeout: 120 });
    const growth = sampler.stop();
    return {
      impl,
      generator: `autocannon ${GENERATOR_VERSION}`,
      requests: result.requests.total,
      requestsPerSecond: result.requests.total / seconds,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      throughputMBps: result.throughput.average / 1e6,
      errors: result.errors + result.timeouts + result.non2xx,
      serverRssGrowthMiB: growth / MiB,
      serverRssPeakMiB: (rssBaseline + growth) / MiB,
    };
  } finally {
    child.kill();
  }
}

const ms = (v) => (v === null || v === undefined ? '–' : `${v >= 1000 ? v.toFixed(0) : v.toFixed(1)} ms`);

export function httpSection(http, { httpSeconds }) {
  const ok = http.filter((h) => !h.error);
  if (ok.length === 0) return [];
  const title = `### HTTP: a server streaming ${httpSeconds ? `for ${httpSeconds} s ` : ''}to 50 connections on 127.0.0.1`;
  const load = `Load generator: ${ok[0].generator}; client and server share the machine's cores.`;
  const head = ['server', 'requests/s', 'requests completed', 'p50 latency', 'p99 latency', 'MB/s', 'errors'];
  const rows = ok.map((r) => [
    r.label,
    fixed(r.requestsPerSecond, 2),
    r.requests,
    ms(r.latencyP50Ms),
    ms(r.latencyP99Ms),
    fixed(r.throughputMBps, 1),
    r.errors,
    `${fixed(r.serverRssPeakMiB, 0)} MiB (+${fixed(r.serverRssGrowthMiB, 0)} MiB)`,
  ]);
  return ['', title, '', load, '', mdTable([...head, 'server peak RSS (growth)'], rows).join('\n')];
}
