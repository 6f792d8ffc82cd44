// The usual way, measured by demo.mjs: `await res.json()` waits for the whole body, then parses it at once.
// Usage: node examples/node/fetch_res_json.mjs ORIGIN   (demo.mjs serves ORIGIN/articles.json and runs this)
import { measure } from './child_run.mjs';

await measure(async (url, progress) => {
  const res = await fetch(url);
  const document = await res.json();
  for (const article of document._embedded.articles) progress.onArticle(article);
});
