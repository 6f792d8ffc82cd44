// sluice, measured by demo.mjs: each article arrives as soon as its last byte has, while the body still streams.
// Usage: node examples/node/fetch_sluice.mjs ORIGIN   (demo.mjs serves ORIGIN/articles.json and runs this)
import { init, parseJsonArray } from 'sluice';
import { measure } from './child_run.mjs';

await init(); // Loads the WebAssembly module once per process, before the clock starts, as a server would at boot.

await measure(async (url, progress) => {
  const res = await fetch(url);
  for await (const article of parseJsonArray(res.body, { path: '$._embedded.articles[*]' })) {
    progress.onArticle(article);
  }
});
