// bench:partial's libraries: `feed(tokens, text, ends, observe)`, observe(i, what an app shows) after token i.

/** The text whose final values `keepsValues` keeps (at least one document): kept, a value is copied by collections. */
export const KEPT_BYTES = 4e6;
import { loadSluice, packageVersion as version } from '../harness/environment.mjs';

async function sluice() {
  const { createPartialParser } = await loadSluice();
  return (tokens, _text, _ends, observe) => {
    const parser = createPartialParser();
    for (let i = 0; i < tokens.length; i++) observe(i, parser.push(tokens[i]));
    parser.end();
  };
}

/** @streamparser/json with partial values: an app shows the root it builds (partial scalars go to onValue only). */
async function streamparser() {
  const { JSONParser } = await import('@streamparser/json');
  return (tokens, _text, _ends, observe) => {
    const parser = new JSONParser({ emitPartialTokens: true, emitPartialValues: true });
    let root;
    parser.onValue = ({ value, parent, stack }) => {
      root ??= stack.length === 0 ? value : stack.length === 1 ? parent : stack[1].value;
    };
    for (let i = 0; i < tokens.length; i++) {
      parser.write(tokens[i]);
      observe(i, root);
    }
    // It ends by itself after the root value.
    if (!parser.isEnded) parser.end();
  };
}

/** jsonriver: the growing value, updated in place; what it shows after token i is its value when it asks for i + 1. */
async function jsonriver() {
  const { parse } = await import('jsonriver');
  return async (tokens, _text, _ends, observe) => {
    let shown;
    async function* source() {
      for (let i = 0; i < tokens.length; i++) {
        if (i > 0) observe(i - 1, shown);
        yield tokens[i];
      }
    }
    for await (const value of parse(source())) shown = value;
    observe(tokens.length - 1, shown);
  };
}

/** What an adapter shows when the library threw on a prefix of valid JSON (always a wrong snapshot). */
export const THREW = Symbol('threw');

function reparse(parse) {
  const safe = async (prefix) => {
    try {
      return await parse(prefix);
    } catch {
      return THREW;
    }
  };
  return {
    parse: safe,
    async feed(tokens, text, ends, observe) {
      for (let i = 0; i < tokens.length; i++) observe(i, await safe(text.slice(0, ends[i])));
    },
  };
}

const peer = (id, label, load, extra = {}) => ({ id, label, load, ...extra });
const streaming = (id, label, feed, extra) => peer(id, label, async () => ({ feed: await feed() }), extra);
const reparsing = (id, label, load) => peer(id, label, async () => reparse(await load()), { reparses: true });
const named = (pkg) => `${pkg} ${version(pkg)}`;

export const PEERS = [
  streaming('sluice', 'sluice createPartialParser', sluice),
  // The same parser, each run's final value kept as an app keeps what it parsed (a chat history): KEPT_BYTES.
  streaming('sluice-kept', 'sluice createPartialParser, values kept', sluice, { keepsValues: true }),
  streaming('streamparser', `${named('@streamparser/json')} (partial values)`, streamparser),
  streaming('jsonriver', named('jsonriver'), jsonriver),
  reparsing('ai', `${named('ai')} parsePartialJson`, async () => {
    const { parsePartialJson } = await import('ai');
    return async (prefix) => (await parsePartialJson(prefix)).value;
  }),
  reparsing('partial-json', named('partial-json'), async () => (await import('partial-json')).parse),
  reparsing(
    'openai',
    `${named('openai')} (vendored partial-json-parser)`,
    async () => (await import('openai/_vendor/partial-json-parser/parser')).partialParse,
  ),
];
