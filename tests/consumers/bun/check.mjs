// Bundled by `bun build`, run by Bun: the package's .wasm found beside the bundle (./x.wasm, copied by bun build or
// read from the package).
import * as sluice from 'sluice';
import { exercise } from '../lib/usage.mjs';

const result = await exercise(sluice);
console.log(`bun ${Bun.version}: ${JSON.stringify(result)}`);
