// Writes a pretty-printed copy of a JSON file (two-space indentation, a member or element per line, as
// JSON.stringify(value, null, 2) lays it out) without parsing it: every token is copied byte for byte, only
// whitespace is added, so `sluice select` on the copy must write exactly what it writes for the original.
//   node pretty.mjs IN OUT
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

export function prettyPrint(inFile, outFile) {
  const input = openSync(inFile, 'r');
  const output = openSync(outFile, 'w');
  const chunk = new Uint8Array(1 << 20);
  const out = new Uint8Array(4 << 20);
  let used = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let opened = false; // just after [ or {: an empty container stays `[]`
  const put = (byte) => {
    if (used === out.length) {
      writeSync(output, out, 0, used);
      used = 0;
    }
    out[used++] = byte;
  };
  const newline = () => {
    put(0x0a);
    for (let i = 0; i < depth * 2; i++) put(0x20);
  };
  for (
    let n = readSync(input, chunk, 0, chunk.length, null);
    n > 0;
    n = readSync(input, chunk, 0, chunk.length, null)
  ) {
    for (let i = 0; i < n; i++) {
      const c = chunk[i];
      if (inString) {
        put(c);
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
      if (c === 0x5d || c === 0x7d) {
        depth--;
        if (!opened) newline();
        put(c);
        opened = false;
        continue;
      }
      if (opened) {
        newline();
        opened = false;
      }
      put(c);
      if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) {
        depth++;
        opened = true;
      } else if (c === 0x2c) newline();
      else if (c === 0x3a) put(0x20);
    }
  }
  put(0x0a);
  writeSync(output, out, 0, used);
  closeSync(input);
  closeSync(output);
}

if (import.meta.url === `file://${process.argv[1]}`) prettyPrint(process.argv[2], process.argv[3]);
