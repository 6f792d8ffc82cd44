// The llm-stream example: a streamed tool call rendered while it arrives. The README's snippet is the loop in
// run(); the rest draws the snapshot, redrawing only the days whose snapshot object changed.
import { partialJson } from 'sluice';
import { toolCallArguments } from './sse.js';

const $ = (id) => document.getElementById(id);

/** One day's card. Snapshots share unchanged subtrees, so a day object seen before needs no new card. */
function dayCard(day) {
  const card = document.createElement('div');
  card.className = 'day fresh';
  const heading = document.createElement('b');
  heading.textContent = `Day ${day.day ?? '…'}: ${day.city ?? ''}`;
  const list = document.createElement('ul');
  for (const activity of day.activities ?? []) {
    const item = document.createElement('li');
    item.textContent = `${activity.time ?? ''} ${activity.name ?? ''}${activity.cost === undefined ? '' : ` (€${activity.cost})`}`;
    list.append(item);
  }
  const notes = document.createElement('div');
  notes.textContent = day.notes ?? '';
  card.append(heading, list, notes);
  return card;
}

function renderer() {
  const cards = new WeakMap(); // day snapshot -> its card
  const counts = { drawn: 0, reused: 0 };
  let latest;
  let scheduled = false;
  const draw = () => {
    scheduled = false;
    const value = latest;
    $('title').textContent = value.title ?? '…';
    const days = (value.days ?? []).map((day) => {
      let card = cards.get(day);
      if (card === undefined) {
        card = dayCard(day);
        cards.set(day, card);
        counts.drawn++;
      } else {
        card.className = 'day';
        counts.reused++;
      }
      return card;
    });
    $('days').replaceChildren(...days);
    const budget = value.budget;
    $('budget').textContent = budget ? `Budget: ${budget.total ?? '…'} ${budget.currency ?? ''}` : '';
    $('raw').textContent = JSON.stringify(value, null, 1);
  };
  return {
    counts,
    show(value) {
      latest = value;
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(draw);
      }
    },
    flush() {
      if (scheduled) draw();
    },
  };
}

async function run() {
  $('status').textContent = 'streaming…';
  const view = renderer();
  const started = performance.now();
  const results = { snapshots: 0, deltas: 0, titles: new Set() };
  const res = await fetch('/v1/chat/completions', { method: 'POST' });
  const deltas = (async function* () {
    for await (const delta of toolCallArguments(res.body)) {
      results.deltas++;
      yield delta;
    }
  })();
  let last;
  for await (const args of partialJson(deltas)) {
    results.snapshots++;
    results.titles.add(args.title);
    view.show(args);
    last = args;
  }
  view.flush();
  const expected = await (await fetch('/arguments.json')).json();
  const report = {
    deltas: results.deltas,
    snapshots: results.snapshots,
    titlesShown: results.titles.size,
    // Snapshots of containers still open are copies, not frozen; the final value is.
    frozen: Object.isFrozen(last),
    matches: JSON.stringify(last) === JSON.stringify(expected),
    cardsDrawn: view.counts.drawn,
    cardsReused: view.counts.reused,
    ms: Math.round(performance.now() - started),
  };
  $('stats').textContent =
    `${report.deltas} deltas, ${report.snapshots} snapshots, ${report.cardsDrawn} day cards ` +
    `drawn, ${report.cardsReused} reused, ${report.ms} ms`;
  $('status').textContent = report.matches ? 'done' : 'failed: the final value differs from /arguments.json';
  return report;
}

$('run').addEventListener('click', () => {
  run().then(
    (report) => {
      window.llmStreamResults = report;
    },
    (error) => {
      $('status').textContent = `failed: ${error.message}`;
      window.llmStreamResults = { error: error.message };
    },
  );
});
