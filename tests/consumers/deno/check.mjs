// Deno with an `npm:` import, offline: the runner installed the tarball into node_modules with npm, and
// "nodeModulesDir": "manual" makes Deno resolve npm: specifiers from there (no registry).
import * as sluice from 'npm:sluice';
import { exercise } from '../lib/usage.mjs';

const result = await exercise(sluice);
console.log(`deno ${Deno.version.deno}: ${JSON.stringify(result)}`);
