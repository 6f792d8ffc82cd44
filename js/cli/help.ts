// The --help texts: what each command does, its options, examples, and the exit codes (docs/cli.md has the same).
import type { CommandName } from './args.js';

const INPUT = `INPUT is a file, - for standard input (the default when it is not a terminal), or an http(s) URL
(downloaded and read as it arrives). PATH is an RFC 9535 JSONPath query as the library streams it:
names, wildcards, indices and slices, .. and unions, filters ([?@.n > 1]); what WebAssembly does not
answer alone (other filters, negative indices) runs in JS on each node a first part selects, or on a
window over each array (get: names and indices, $.rows[-1].id). Quote it for the shell: '$.data[*]'.`;

const ORDER = `  --order arrival         each match once, as its last byte arrives: needed for .. (and a second
                          union out of document order) without a first part ending in *, a slice
                          or a filter ($..tags), whose RFC 9535 order would hold matches back
                          (default: rfc, which refuses those paths and holds one union's matches)`;

const COMMON = `  --max-depth N           deepest nesting allowed (default 1024)
  --max-element-bytes N   largest element (default 268435456, 256 MiB)
  --progress              show the progress bar on standard error even when it is not a terminal
  --no-progress           never show it (shown by default when standard error is a terminal)
  -h, --help              this help`;

const EXIT_CODES = `Exit codes: 0 done, 1 no value at the path (get), 2 usage error, 3 invalid JSON, 4 truncated
input, 5 a limit exceeded, 6 input or output error, 7 done but lines were skipped (--skip-invalid).
Errors are reported on standard error with the code, byte offset, line and column, and the
offending line with a caret.`;

const SKIP_INVALID = `  --skip-invalid          with --ndjson: report a line that does not parse (or exceeds a limit) on
                          standard error, skip it and go on; the count of skipped lines at the end`;

export const GENERAL_HELP = `sluice: huge JSON at SIMD speed, in flat memory

Usage: sluice <command> [options] ...

Commands:
  select PATH... [INPUT]   every element at the paths, one per line (NDJSON), compacted
  get PATH [INPUT]         one value, reading only as far as needed
  count PATH [INPUT]       how many elements are at the path
  validate [INPUT]         exit 0 when the input is valid JSON, else say where it is not

${INPUT}

Run \`sluice <command> --help\` for a command's options and examples.

${EXIT_CODES}
`;

const COMMAND_HELP: Readonly<Record<CommandName, string>> = {
  select: `Usage: sluice select PATH... [INPUT] [options]

Writes every element at the paths to standard output, one per line (NDJSON), as soon as its last byte
is read. Each line is the element's own text with the insignificant whitespace removed: numbers keep
their spelling, strings their escapes, objects their key order. With several paths, elements come in
document order.

${INPUT}

Options:
  --array                 write one JSON array of the elements instead of lines
  --with-path             write {"path":...,"key":...,"value":...} lines: the path that matched, the
                          member name or array index (the value's number with --ndjson, null for $)
  --with-normalized-path  add "normalizedPath", where the element is: {"value":...,"normalizedPath":
                          "$['rows'][0]"} lines (after path and key with --with-path)
  --ndjson                the input is NDJSON or concatenated values; $ is each value
${SKIP_INVALID}
  --limit N               stop after N elements: reading (or the download) stops at once
${ORDER}
${COMMON}

Examples:
  sluice select '$._embedded.articles[*]' export.json > articles.ndjson
  curl -s https://example.com/big.json | sluice select '$.data[*]' | head -n 3
  sluice select '$.data[*]' https://example.com/big.json --limit 10
  sluice select --ndjson '$.user' events.ndjson
  sluice select --ndjson --skip-invalid '$.user' events.ndjson 2> skipped.txt
  sluice select '$.meta' '$.rows[*]' --with-path dump.json
  sluice select '$.rows[-3:]' '$.items[?length(@.tags) > 2].id' dump.json
  sluice select --order arrival '$..tags' export.json

${EXIT_CODES}
`,
  get: `Usage: sluice get PATH [INPUT] [options]

Writes the one value at PATH (no wildcards) as JSON, reading the input only as far as the value ends
(or, when there is none, as far as its nearest container ends). Numbers and strings are written as
JSON.stringify writes what JSON.parse gave (1.50 is written 1.5). Exit code 1 when there is no value.

${INPUT}

Options:
${COMMON}

Examples:
  sluice get '$.total' export.json
  sluice get '$.meta.pages[0]' https://example.com/big.json
  sluice get '$.rows[-1].id' export.json

${EXIT_CODES}
`,
  count: `Usage: sluice count PATH [INPUT] [options]

Writes how many elements are at PATH (wildcards allowed), without keeping any of their bytes.

${INPUT}

Options:
  --ndjson                the input is NDJSON or concatenated values; $ is each value
${SKIP_INVALID}
${ORDER}
${COMMON}

Examples:
  sluice count '$._embedded.articles[*]' export.json
  sluice count --order arrival '$..id' export.json
  sluice count --ndjson '$' events.ndjson

${EXIT_CODES}
`,
  validate: `Usage: sluice validate [INPUT] [options]

Reads the whole input and exits with 0 when it is valid JSON (RFC 8259, strict UTF-8), writing
nothing. Otherwise it reports the first error on standard error: the code, the byte offset, line and
column, and the line with a caret under the offending byte.

${INPUT}

Options:
  --ndjson                the input is NDJSON or concatenated values
${SKIP_INVALID}
${COMMON}

Examples:
  sluice validate export.json && echo valid
  curl -s https://example.com/big.json | sluice validate

${EXIT_CODES}
`,
};

export function commandHelp(command: CommandName): string {
  return COMMAND_HELP[command];
}
