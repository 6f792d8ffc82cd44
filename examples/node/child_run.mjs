// What both measured programs share: the clock, the memory readings and the reports to demo.mjs over IPC. Each
// program runs in a process of its own, so one's memory never shows up in the other's RSS.
import { wallNow } from './paced_server.mjs';

const report = (message) => process.send?.(message);

/**
 * Times `read(url, progress)`, which fetches `url`, hands every article to `progress.onArticle` and returns when
 * it has all of them. Fetch is warmed up first (Node loads its HTTP client on the first call), then the clock
 * starts at the fetch. Reports `{ result }` to the parent, or prints it when run alone.
 */
export async function measure(read) {
  const origin = process.argv[2];
  if (!origin) throw new Error('usage: node PROGRAM http://127.0.0.1:PORT   (demo.mjs starts the server)');
  await (await fetch(`${origin}/ping`)).arrayBuffer();

  const startRss = process.memoryUsage.rss();
  let count = 0;
  let idSum = 0;
  let firstAt = null;
  const progress = {
    onArticle(article) {
      firstAt ??= performance.now();
      count++;
      idSum += article.id;
    },
  };
  // Sampled between chunks; a synchronous JSON.parse of the whole body blocks it, which the progress bar shows.
  const timer = setInterval(() => report({ count, rss: process.memoryUsage.rss() }), 100);
  const startedAt = wallNow();
  const started = performance.now();
  await read(`${origin}/articles.json`, progress);
  const ended = performance.now();
  clearInterval(timer);

  const result = {
    startedAt,
    ms: ended - started,
    firstElementMs: firstAt === null ? null : firstAt - started,
    count,
    idSum,
    startRss,
    // The kernel's high-water mark for the whole process: nothing escapes it, not even a peak between samples.
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
  if (process.send) report({ result });
  else console.log(JSON.stringify(result));
}
