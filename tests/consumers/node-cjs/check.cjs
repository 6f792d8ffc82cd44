// Node, CommonJS: `require('sluice')`, as a CommonJS package or a script written in 2019 would.
const sluice = require('sluice');

(async () => {
  // usage.mjs is an ES module; the package itself is what must load through require().
  const { exercise } = await import('../lib/usage.mjs');
  const result = await exercise(sluice);
  if (typeof require.resolve('sluice') !== 'string') throw new Error('sluice does not resolve through require()');
  console.log(`node-cjs ${process.version}: ${JSON.stringify(result)}`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
