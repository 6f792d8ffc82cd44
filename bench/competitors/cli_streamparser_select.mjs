// bench:cli's streaming JS peer: @streamparser/json over the file in 64 KiB chunks, each element of
// $._embedded.articles[*] written as a line (JSON.stringify) as it completes, about 1 MB per write.
//   node bench/competitors/cli_streamparser_select.mjs FILE > out.ndjson
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { JSONParser } from '@streamparser/json';

const parser = new JSONParser({ paths: ['$._embedded.articles.*'], keepStack: false });
let out = '';
parser.onValue = ({ value }) => {
  out += JSON.stringify(value) + '\n';
  if (out.length > 1 << 20) {
    writeSync(1, out);
    out = '';
  }
};
const fd = openSync(process.argv[2], 'r');
const chunk = new Uint8Array(64 * 1024);
for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
  parser.write(chunk.subarray(0, n));
}
closeSync(fd);
// The parser ends by itself after the root value; end() then would throw.
if (!parser.isEnded) parser.end();
writeSync(1, out);
