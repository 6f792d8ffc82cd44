// Before timing: every competitor must write JSON.stringify's document for every source kind, byte for byte, or at
// least text that JSON.parse reads back to the same value (json-stream-stringify escapes U+007F-U+009F).
import { createHash } from 'node:crypto';
import { articleArray, preparePool } from '../articles.mjs';
import { makeDocument, makeStringifyContext } from '../competitors/stringify.mjs';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Runs `competitor` on `count` rows of each kind; returns `{ kind, verdict }` per kind. */
export async function verify(competitor, count, deps) {
  preparePool();
  const expectedText = JSON.stringify(makeDocument({ count }, articleArray(count)));
  const expected = sha256(Buffer.from(expectedText));
  const run = await competitor.setup(deps);
  const verdicts = [];
  for (const kind of ['array', 'sync', 'async']) {
    const chunks = [];
    const rows = kind === 'array' ? articleArray(count) : null;
    const ctx = {
      ...makeStringifyContext({ kind, count, rows, sampled: false }),
      onChunk: (c) => chunks.push(Buffer.from(c)),
    };
    await run(ctx);
    const output = Buffer.concat(chunks);
    let verdict;
    if (competitor.id === 'floor') verdict = 'rows only (no framing)';
    else if (sha256(output) === expected) verdict = 'identical bytes';
    else if (sameJson(output.toString('utf8'), expectedText)) verdict = 'same JSON, other escaping';
    else verdict = 'DIFFERENT';
    verdicts.push({ kind, verdict });
  }
  return verdicts;
}

function sameJson(a, b) {
  try {
    return JSON.stringify(JSON.parse(a)) === b;
  } catch {
    return false;
  }
}
