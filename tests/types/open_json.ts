// Proves the public types of openJson: requests resolve to what the caller names (unknown by default) or undefined,
// iterate() is an async iterable of the named element type, options are checked, JsonPassedError carries its
// fields. Compiled with `tsc --noEmit -p tests/types`; never run.
import { JsonPassedError, openJson, type IterateOptions, type JsonDocument, type OpenJsonOptions } from 'sluice';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}

interface Order {
  id: number;
  lines: AsyncIterable<{ amount: number }>;
}
declare const body: ReadableStream<Uint8Array>;
declare const response: Response;

export async function use(): Promise<void> {
  const doc: JsonDocument = openJson(body, { transient: true, maxDepth: 64, maxElementBytes: 1 << 20 });
  const transient: boolean = doc.transient;
  void transient;
  const total = await doc.get<number>('$.meta.total');
  expectType<Equal<typeof total, number | undefined>>();
  const anything = await doc.get('$.meta');
  expectType<Equal<typeof anything, unknown>>();

  const options: IterateOptions = { expand: ['lines'] };
  let sum = 0;
  for await (const order of doc.iterate<Order>('$.orders[*]', options)) {
    expectType<Equal<typeof order, Order>>();
    for await (const line of order.lines) sum += line.amount;
  }
  void sum;
  await doc.close();

  openJson(response);
  openJson('{"a":1}');
  openJson(new Uint8Array(0), {});
  const kept: OpenJsonOptions = { transient: false };
  void kept;
  // @ts-expect-error transient is a boolean
  openJson(body, { transient: 'yes' });
  // @ts-expect-error expand lists member names
  doc.iterate('$.orders[*]', { expand: 'lines' });
  // @ts-expect-error a number is not a source
  openJson(42);

  try {
    await doc.get('$.early');
  } catch (error) {
    if (error instanceof JsonPassedError) {
      const code: 'PATH_PASSED' = error.code;
      const path: string = error.path;
      const offset: number = error.offset;
      void [code, path, offset];
    }
  }
}
