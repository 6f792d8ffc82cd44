// An on-demand route on Node: the four APIs, then parseJsonArray's reshaped array through StreamedJsonResponse.
import { handle } from '../../handler.js';

export const prerender = false;

export function GET() {
  return handle('astro');
}
