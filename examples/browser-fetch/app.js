// The browser-fetch example: the same response read two ways, side by side. The README's browser snippet is the
// loop in streamWithSluice().
import { init, parseJsonArray } from 'sluice';

const PATH = '$._embedded.articles[*]';
const VISIBLE_ROWS = 50;
const $ = (id) => document.getElementById(id);

/** Counts the bytes of a response body as they pass, for the progress bar. */
function withProgress(response, onBytes) {
  let received = 0;
  return response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        received += chunk.byteLength;
        onBytes(received);
        controller.enqueue(chunk);
      },
    }),
  );
}

/** Samples the JS heap (Chromium's performance.memory) while a run lasts; null where the browser has none. */
function heapSampler() {
  const read = () => globalThis.performance?.memory?.usedJSHeapSize ?? null;
  let peak = read();
  const timer = setInterval(() => {
    const now = read();
    if (now !== null) peak = Math.max(peak, now);
  }, 20);
  return () => {
    clearInterval(timer);
    return peak === null ? null : Math.max(peak, read());
  };
}

/** Shows the latest rows, at most once per frame: the table keeps up without the DOM becoming the bottleneck. */
function rowRenderer() {
  let latest = [];
  let scheduled = false;
  const draw = () => {
    scheduled = false;
    $('rows').replaceChildren(
      ...latest.map((article) => {
        const tr = document.createElement('tr');
        for (const [value, numeric] of [
          [article.id, true],
          [article.title, false],
          [article.createdAt, false],
          [article.score, true],
        ]) {
          const td = document.createElement('td');
          td.textContent = String(value);
          if (numeric) td.className = 'num';
          tr.append(td);
        }
        return tr;
      }),
    );
  };
  return (rows) => {
    latest = rows.slice(-VISIBLE_ROWS).reverse();
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(draw);
    }
  };
}

async function streamWithSluice(body, show) {
  const recent = [];
  let rows = 0;
  let firstRowAt = null;
  for await (const article of parseJsonArray(body, { path: PATH })) {
    firstRowAt ??= performance.now();
    rows++;
    recent.push(article);
    if (recent.length > VISIBLE_ROWS) recent.shift();
    show(recent);
  }
  return { rows, firstRowAt };
}

async function readWhole(body, show) {
  const document = await new Response(body).json();
  const articles = document._embedded.articles;
  const firstRowAt = performance.now();
  show(articles.slice(-VISIBLE_ROWS));
  return { rows: articles.length, firstRowAt };
}

async function run(method) {
  for (const button of document.querySelectorAll('button')) button.disabled = true;
  $('status').textContent = `running: ${method}`;
  try {
    // Loaded before the clock starts, as an application would at startup.
    await init();
    const stopSampling = heapSampler();
    const started = performance.now();
    const response = await fetch('/articles.json', { cache: 'no-store' });
    const total = Number(response.headers.get('content-length')) || 0;
    $('size').textContent = `a ${(total / 1e6).toFixed(0)} MB`;
    const body = withProgress(response, (received) => {
      $('progress').value = total ? received / total : 0;
    });
    const show = rowRenderer();
    const { rows, firstRowAt } = method === 'sluice' ? await streamWithSluice(body, show) : await readWhole(body, show);
    const result = {
      method: method === 'sluice' ? 'sluice parseJsonArray' : 'await res.json()',
      rows,
      firstRowMs: Math.round(firstRowAt - started),
      totalMs: Math.round(performance.now() - started),
      mbPerSecond: Math.round(total / 1e6 / ((performance.now() - started) / 1000)),
      heapPeakMb: (() => {
        const peak = stopSampling();
        return peak === null ? null : Math.round(peak / 2 ** 20);
      })(),
    };
    const tr = document.createElement('tr');
    for (const key of ['method', 'rows', 'firstRowMs', 'totalMs', 'mbPerSecond', 'heapPeakMb']) {
      const td = document.createElement('td');
      td.textContent = result[key] ?? 'n/a';
      if (key !== 'method') td.className = 'num';
      tr.append(td);
    }
    $('results').append(tr);
    (window.browserFetchResults ??= []).push(result);
    $('status').textContent = 'done';
  } catch (error) {
    $('status').textContent = `failed: ${error.name}: ${error.message}`;
    (window.browserFetchResults ??= []).push({ method, error: `${error.name}: ${error.message}` });
  } finally {
    for (const button of document.querySelectorAll('button')) button.disabled = false;
  }
}

$('run-sluice').addEventListener('click', () => run('sluice'));
$('run-json').addEventListener('click', () => run('json'));
