#!/usr/bin/env node
// The `sluice` executable (package.json "bin"): `npx sluice select '$.data[*]' big.json`. docs/cli.md.
import { main } from './main.js';
import { nodeProcess } from './node_process.js';

main(nodeProcess.argv.slice(2)).then((code) => nodeProcess.exit(code));
