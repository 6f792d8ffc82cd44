// The tool call the example's "model" makes: create_itinerary's JSON arguments, and the deltas they arrive in
// (3 to 6 characters, cut anywhere: inside escapes, numbers and words, as model tokens are).

const CITIES = [
  ['Kyōto', 'Fushimi Inari at dawn', 'Nishiki market: “yuba” & matcha', 'Gion walk'],
  ['Ōsaka', 'Dōtonbori street food', 'Castle park', 'Shinsekai kushikatsu'],
  ['Nara', 'Tōdai-ji', 'Deer park \u{1F98C}', 'Isuien garden'],
  ['Hiroshima', 'Peace Memorial', 'Okonomiyaki on Nagarekawa', 'Shukkei-en'],
  ['Tōkyō', 'Tsukiji outer market', 'teamLab "Planets"', 'Shibuya crossing at night'],
];

/**
 * The arguments as a JSON text (with \u escapes and non-ASCII text, as models write them). `lateNight` adds a
 * ramen stop at "24:30" to day 2: a time the schema refuses, as a model sometimes writes one.
 */
export function itinerary(days, { lateNight = false } = {}) {
  const list = [];
  for (let d = 0; d < days; d++) {
    const [city, ...sights] = CITIES[d % CITIES.length];
    list.push({
      day: d + 1,
      city,
      activities: sights.map((name, i) => ({
        time: `${9 + i * 4}:00`.padStart(5, '0'),
        name,
        cost: (d + 1) * 12.5 + i * 7.25,
      })),
      notes: `Day ${d + 1} in ${city}.\nTake the JR pass; it's ¥${(d + 1) * 1470} otherwise.`,
    });
  }
  if (lateNight && list.length > 1) list[1].activities.push({ time: '24:30', name: 'Late-night ramen', cost: 9 });
  const value = {
    title: 'Japan in spring: temples, food & trains 🌸',
    travelers: 2,
    days: list,
    budget: { total: list.length * 214.75, currency: 'EUR', perDay: 214.75 },
    confirmed: false,
    tags: ['spring', 'food', 'rail'],
  };
  // JSON.stringify writes raw non-ASCII; a model's output often escapes some of it.
  return JSON.stringify(value, null, 1).replace(
    /ü|é|“|”/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The deltas: 3 to 6 characters each, from a fixed seed. */
export function tokens(text) {
  let seed = 20;
  const out = [];
  for (let at = 0; at < text.length; ) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const end = at + 3 + ((seed >>> 16) % 4);
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}
