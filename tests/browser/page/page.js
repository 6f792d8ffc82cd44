// Runs inside Chromium, served by tests/browser/server.ts: the built package from /dist/, the strict comparison
// from /support/. Each function loads one build in a fresh page and returns a plain summary for the test to assert.
import { init, JsonLimitError, JsonSyntaxError, parseJsonArray } from '/dist/index.js';
import { loadedBuildKind } from '/dist/internal.js';
import { firstDifference } from '/support/deep_equal.mjs';

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
  return { kind, count, expectedCount: expected.length, difference, firstElementMs, totalMs: performance.now() - started };
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

window.sluiceTest = { streamArticles, streamBroken, defaultBuild };
window.sluiceReady = true;
