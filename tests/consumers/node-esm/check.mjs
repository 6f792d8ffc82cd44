// Node, ES modules, no bundler: `import ... from 'sluice'` with the default init() (the wasm beside the package).
import * as sluice from 'sluice';
import { exercise } from '../lib/usage.mjs';

const result = await exercise(sluice);
console.log(`node-esm ${process.version}: ${JSON.stringify(result)}`);
