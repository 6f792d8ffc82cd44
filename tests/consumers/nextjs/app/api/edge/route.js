import { handle } from '../../handler.js';

export const runtime = 'edge';
export const dynamic = 'force-dynamic';

export function GET() {
  return handle('edge');
}
