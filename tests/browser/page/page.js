// Runs inside each engine, served by tests/browser/server.ts: the built package from /dist/, the strict comparison
// from /support/. Each function loads one build in a fresh page and returns a plain summary for the test to assert.
// Streams are read with getReader() or through parseJsonArray: WebKit's ReadableStream is not async-iterable.
import { init, JsonArrayStream, JsonLimitError, JsonSyntaxError, parseJsonArray } from '/dist/index.js';
import { loadedBuildKind } from '/dist/internal.js';
import { firstDifference } from '/support/deep_equal.mjs';
import { lazyOverFetch } from './lazy_fetch.js';

const PATH = '$._embedded.articles[*]';

/** 'default' lets the loader choose (SIMD where the engine validates it); else that build's URL. */
async function load(build) {
  await (build === 'default' ? init() : init(`/dist/sluice.${build}.wasm`));
  return loadedBuildKind();
}

/**
 * Streams the paced document and compares every element with JSON.parse of the same bytes fetched whole. Tells
 * the server (POST /mark) when the first element arrived: the server holds its last chunk until then.
 */
async function streamArticles({ build, id }) {
  const kind = await load(build);
  const expected = JSON.parse(await (await fetch('/data/articles.json')).text())._embedded.articles;
  const res = await fetch(`/data/articles.json?paced=${id}`);
  let count = 0;
  let difference = null;
  const started = performance.now();
  let firstElementMs = null;
  for await (const article of parseJsonArray(res.body, { path: PATH })) {
    if (count === 0) {
      firstElementMs = performance.now() - started;
      await fetch(`/mark?id=${id}`, { method: 'POST' });
    }
    if (difference === null) {
      const found = firstDifference(article, expected[count]);
      if (found !== null) difference = `element ${count}: ${found}`;
    }
    count++;
  }
  return {
    kind,
    count,
    expectedCount: expected.length,
    difference,
    firstElementMs,
    totalMs: performance.now() - started,
  };
}

/** Streams a document with a syntax error and reports what the loop delivered and what it threw. */
async function streamBroken({ build }) {
  const kind = await load(build);
  const res = await fetch('/data/broken.json');
  let count = 0;
  try {
    for await (const _ of parseJsonArray(res.body, { path: PATH })) count++;
    return { kind, count, error: null };
  } catch (error) {
    return {
      kind,
      count,
      error: {
        name: error.name,
        isJsonSyntaxError: error instanceof JsonSyntaxError,
        isSyntaxError: error instanceof SyntaxError,
        isLimitError: error instanceof JsonLimitError,
        code: error.code,
        offset: error.offset,
        line: error.line,
        column: error.column,
        message: error.message,
      },
    };
  }
}

/** Lets the loader choose the build, as an application that calls nothing but parseJsonArray would. */
async function defaultBuild() {
  return load('default');
}

/**
 * Leaves the loop after `stopAfter` elements of the paced document: the break must cancel the response body. The
 * server holds the last chunk until a mark that never comes, so it sees the connection close before its last
 * byte whatever the engine buffered (WebKit reads a response far ahead of the page).
 */
async function breakEarly({ build, id, stopAfter }) {
  const kind = await load(build);
  const res = await fetch(`/data/articles.json?paced=${id}`);
  let count = 0;
  for await (const _ of parseJsonArray(res.body, { path: PATH })) {
    if (++count === stopAfter) break;
  }
  return { kind, count };
}

/**
 * Every output of /data/small.json against the text fetched whole: `text` and `bytes` elements are the exact
 * source of each article, in order, with only separators between them; `value` elements through
 * res.body.pipeThrough(new JsonArrayStream()) equal JSON.parse's.
 */
async function outputsExact({ build }) {
  const kind = await load(build);
  const whole = await (await fetch('/data/small.json')).text();
  const expected = JSON.parse(whole)._embedded.articles;
  const problems = [];
  const decoder = new TextDecoder();
  const counts = {};
  for (const output of ['text', 'bytes']) {
    let cursor = whole.indexOf('[') + 1;
    let count = 0;
    for await (const element of parseJsonArray((await fetch('/data/small.json')).body, { path: PATH, output })) {
      const text = output === 'bytes' ? decoder.decode(element) : element;
      const at = whole.indexOf(text, cursor);
      if (problems.length < 3 && (at < 0 || !/^[\s,]*$/.test(whole.slice(cursor, at)))) {
        problems.push(`${output} element ${count} is not the next slice of the document: ${text.slice(0, 80)}`);
      }
      if (problems.length < 3 && firstDifference(JSON.parse(text), expected[count]) !== null) {
        problems.push(`${output} element ${count} does not parse to JSON.parse's article`);
      }
      cursor = at + text.length;
      count++;
    }
    counts[output] = count;
  }
  const reader = (await fetch('/data/small.json')).body.pipeThrough(new JsonArrayStream({ path: PATH })).getReader();
  let count = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const found = firstDifference(value, expected[count]);
    if (found !== null && problems.length < 3) problems.push(`JsonArrayStream element ${count}: ${found}`);
    count++;
  }
  counts.stream = count;
  return { kind, counts, expected: expected.length, problems };
}

window.sluiceTest = { streamArticles, streamBroken, defaultBuild, breakEarly, outputsExact, lazyOverFetch };
window.sluiceReady = true;
