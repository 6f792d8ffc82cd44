// openJson and lazyParse over fetch() in a page (tests/browser/lazy.test.ts): a response body read as a kept and
// as a transient document, closing a document cancels its request, lazyParse of a fetched document and of the
// copied corpus equals JSON.parse.
import { init, lazyParse, openJson, releaseLazy } from '/dist/index.js';
import { loadedBuildKind } from '/dist/internal.js';
import { firstDifference } from '/support/deep_equal.mjs';

const ARTICLES = '$._embedded.articles[*]';
const CORPUS = ['twitter.json', 'citm_catalog.json', 'canada.json'];

export async function lazyOverFetch({ build, id }) {
  await init(`/dist/sluice.${build}.wasm`);
  const kind = loadedBuildKind();
  const differences = [];
  const note = (what, found) => {
    if (found !== null && differences.length < 5) differences.push(`${what}: ${found}`);
  };
  const whole = await (await fetch('/data/small.json')).text();
  const expected = JSON.parse(whole);
  const counts = {};

  // Kept: the total (after the array) first, then the articles from the bytes kept.
  const kept = openJson((await fetch('/data/small.json')).body);
  note('kept $.total', firstDifference(await kept.get('$.total'), expected.total));
  counts.kept = 0;
  for await (const article of kept.iterate(ARTICLES))
    note(`kept article ${counts.kept}`, firstDifference(article, expected._embedded.articles[counts.kept++]));
  note(
    'kept $._embedded.articles[17]',
    firstDifference(await kept.get('$._embedded.articles[17]'), expected._embedded.articles[17]),
  );

  // Transient: the articles as they stream by, then the total after them.
  const transient = openJson((await fetch('/data/small.json')).body, { transient: true });
  counts.transient = 0;
  for await (const article of transient.iterate(ARTICLES))
    note(
      `transient article ${counts.transient}`,
      firstDifference(article, expected._embedded.articles[counts.transient++]),
    );
  note('transient $.total', firstDifference(await transient.get('$.total'), expected.total));

  // close() cancels the body of a paced response whose last chunk the server holds (until a mark never sent).
  const paced = openJson((await fetch(`/data/articles.json?paced=${id}`)).body, { transient: true });
  note('paced article 3 id', firstDifference((await paced.get('$._embedded.articles[3]'))?.id, 4));
  await paced.close();

  const doc = lazyParse(await (await fetch('/data/small.json')).arrayBuffer());
  note(
    'lazyParse article 123 title',
    firstDifference(doc._embedded.articles[123].title, expected._embedded.articles[123].title),
  );
  note('lazyParse whole', firstDifference(doc, expected));
  note('lazyParse stringify', JSON.stringify(doc) === JSON.stringify(expected) ? null : 'JSON.stringify differs');
  releaseLazy(doc);
  for (const name of CORPUS) {
    const bytes = new Uint8Array(await (await fetch(`/corpus/jsonexamples/${name}`)).arrayBuffer());
    const value = lazyParse(bytes);
    const reference = JSON.parse(new TextDecoder().decode(bytes));
    note(name, firstDifference(value, reference));
    note(`${name} stringify`, JSON.stringify(value) === JSON.stringify(reference) ? null : 'JSON.stringify differs');
    releaseLazy(value);
  }
  return { kind, counts, differences };
}
