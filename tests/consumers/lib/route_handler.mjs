// What the framework projects' route handlers do, copied beside them by their build scripts: the four APIs on the
// server, then an upstream JSON array (bytes in uneven chunks) read with parseJsonArray, reshaped, and streamed
// back with StreamedJsonResponse.
import * as sluice from 'sluice';
import { exercise } from './usage.mjs';

export const ITEMS = 3000; // as in ../lib/route_check.mjs

function upstream() {
  const text = JSON.stringify(
    Array.from({ length: ITEMS }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['t', i % 7] })),
  );
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 997));
      at += 997;
    },
  });
}

async function* reshaped() {
  for await (const item of sluice.parseJsonArray(upstream(), { path: '$[*]' }))
    yield { id: item.id, tag: item.tags[1] };
}

export async function handle(runtime) {
  try {
    const checked = await exercise(sluice);
    return new sluice.StreamedJsonResponse({ runtime, checked, items: reshaped() });
  } catch (error) {
    return Response.json({ runtime, error: `${error?.name}: ${error?.message}\n${error?.stack}` }, { status: 500 });
  }
}
