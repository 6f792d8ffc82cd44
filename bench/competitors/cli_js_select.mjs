// bench:cli's JS peers (`cli_js_select.mjs json-parse|streamparser FILE`): each article as a line, 1 MB per write.
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

const [mode, file] = process.argv.slice(2);
let out = '';
const write = (value) => {
  out += JSON.stringify(value) + '\n';
  if (out.length > 1 << 20) {
    writeSync(1, out);
    out = '';
  }
};
if (mode === 'json-parse') {
  for (const article of JSON.parse(readFileSync(file, 'utf8'))._embedded.articles) write(article);
} else {
  const { JSONParser } = await import('@streamparser/json');
  const parser = new JSONParser({ paths: ['$._embedded.articles.*'], keepStack: false });
  parser.onValue = ({ value }) => write(value);
  const fd = openSync(file, 'r');
  const chunk = new Uint8Array(64 * 1024);
  for (let n = readSync(fd, chunk, 0, chunk.length, null); n > 0; n = readSync(fd, chunk, 0, chunk.length, null)) {
    parser.write(chunk.subarray(0, n));
  }
  closeSync(fd);
  // The parser ends by itself after the root value; end() then would throw.
  if (!parser.isEnded) parser.end();
}
writeSync(1, out);
