// Proves the public types of lazyParse/releaseLazy: the result is what the caller names (unknown by default, like a
// JSON.parse the caller has to narrow), inputs are text or bytes, options are checked. Compiled with
// `tsc --noEmit -p tests/types`; never run.
import { lazyParse, releaseLazy, type LazyParseOptions } from 'sluice';

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): void {}

interface Tweet {
  statuses: { user: { screen_name: string } }[];
}
declare const bytes: Uint8Array;
declare const buffer: ArrayBuffer;

const tweets = lazyParse<Tweet>(bytes);
expectType<Equal<typeof tweets, Tweet>>();
const name: string = tweets.statuses[3]!.user.screen_name;
void name;
expectType<Equal<ReturnType<typeof lazyParse>, unknown>>();
const fromText = lazyParse('{"a":1}', { maxDepth: 64 });
expectType<Equal<typeof fromText, unknown>>();
lazyParse(buffer, {});
lazyParse(buffer, { integers: 'bigint' });

const options: LazyParseOptions = { maxDepth: 10 };
void options;
// @ts-expect-error maxDepth is a number
lazyParse(bytes, { maxDepth: '10' });
// @ts-expect-error not an option of lazyParse
lazyParse(bytes, { path: '$' });
// @ts-expect-error a number is not a document
lazyParse(42);

const released: boolean = releaseLazy(tweets);
void released;
