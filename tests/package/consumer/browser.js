// Browser consumer, bundled by esbuild into one file: the default loader finds the .wasm next to the bundle
// (`new URL('./sluice.simd.wasm', import.meta.url)`; esbuild does not copy such assets, the test copies them as
// an application's build would). Leaves its result on window for the test.
import { parseJsonArray } from 'sluice';

async function main() {
  const response = await fetch('./data.json');
  const ids = [];
  for await (const item of parseJsonArray(response.body, { path: '$.items[*].id' })) ids.push(item);
  return { ids };
}

main().then(
  (result) => {
    window.result = result;
  },
  (error) => {
    window.result = { error: `${error.name}: ${error.message}` };
  },
);
