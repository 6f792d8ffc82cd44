// bench:cli's JSON.parse peer: reads the whole file, JSON.parse, then writes each element of
// $._embedded.articles[*] as a line (JSON.stringify), about 1 MB per write.
//   node bench/competitors/cli_json_parse_select.mjs FILE > out.ndjson
import { readFileSync, writeSync } from 'node:fs';

const articles = JSON.parse(readFileSync(process.argv[2], 'utf8'))._embedded.articles;
let out = '';
for (const article of articles) {
  out += JSON.stringify(article) + '\n';
  if (out.length > 1 << 20) {
    writeSync(1, out);
    out = '';
  }
}
writeSync(1, out);
