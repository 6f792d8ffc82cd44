// The llm-stream page: reads the worker's events with EventSource and draws each snapshot. A snapshot arrives as
// the changes since the one before (changes.js); applying them copies only the changed paths, so a day that did
// not change is the same object as before and keeps its card (a WeakMap from day object to card).
import { applyChanges } from './changes.js';

const $ = (id) => document.getElementById(id);

/** One day's card. */
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

/** Draws the latest snapshot once per frame, redrawing only the days whose object changed. */
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
        // flush() may have drawn it already: the frame then has nothing to draw.
        requestAnimationFrame(() => scheduled && draw());
      }
    },
    flush() {
      if (scheduled) draw();
    },
  };
}

function run(prompt) {
  const view = renderer();
  // What the page saw, for the smoke test: `value` is the last snapshot, `final` the worker's validated value.
  const state = { status: 'streaming', snapshots: 0, value: undefined, final: undefined, error: undefined };
  window.llmStream = state;
  $('status').textContent = 'streaming…';
  $('error').textContent = '';
  const started = performance.now();
  const source = new EventSource(`/itinerary?prompt=${encodeURIComponent(prompt)}`);
  const finish = (status, text) => {
    source.close(); // or EventSource reconnects when the stream ends
    view.flush();
    Object.assign(state, { status, cardsDrawn: view.counts.drawn, cardsReused: view.counts.reused });
    $('status').textContent = text;
    $('stats').textContent =
      `${state.snapshots} snapshots, ${view.counts.drawn} day cards drawn, ${view.counts.reused} reused, ` +
      `${Math.round(performance.now() - started)} ms`;
  };
  source.addEventListener('snapshot', (event) => {
    state.value = applyChanges(state.value, JSON.parse(event.data));
    state.snapshots++;
    view.show(state.value);
  });
  source.addEventListener('done', (event) => {
    // The last snapshot already shows it: the final value is only kept, not drawn again.
    state.final = JSON.parse(event.data);
    finish('done', 'done');
  });
  source.addEventListener('error', (event) => {
    if (event.data === undefined) {
      // Not the worker's error event: the connection failed or ended early.
      if (state.status === 'streaming') finish('failed', 'failed: the connection to the worker was lost');
      return;
    }
    state.error = JSON.parse(event.data);
    const { name, message, path } = state.error;
    $('error').textContent = `${name}: ${message}`;
    finish('error', 'stopped: the model broke the schema');
    // The violation's path says which day holds it.
    if (path?.[0] === 'days') $('days').children[path[1]]?.classList.add('bad');
  });
}

$('ask').addEventListener('submit', (event) => {
  event.preventDefault();
  run($('prompt').value);
});
