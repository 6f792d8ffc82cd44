import { handle } from '../../handler.js';

export const dynamic = 'force-dynamic';

export function GET() {
  return handle('nodejs');
}
