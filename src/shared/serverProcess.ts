/**
 * How the language server's process is started, shared by the extension (which forks it) and the
 * test client and benches (which spawn it the same way, so that what they measure is what users
 * run).
 *
 * `--max-semi-space-size=8` caps V8's young generation at 8 MB per semi-space (Node 20's default
 * grows it to 16 MB). The server allocates steadily in small pieces (every skill's pair scan,
 * every diagnostics message); with the default it was ready at 2,817 skills holding 511-554 MB,
 * with 1, 2 or 4 MB 421-429 MB, edit latency unchanged (bench/lsp.ts; README "Performance"). But
 * routing a request allocates a lot that dies young (its candidates' analysed fields): at 19,909
 * skills, with 2 MB a third of the main thread's time over 185 requests went to collections and
 * the p50 was 82-97 ms (p95 228-242 ms); with 8 MB 68 ms (p95 137 ms), 16 MB 67 ms, 32 MB 70 ms,
 * at the same RSS as 2 MB at index ready (745 vs 743-752 MB; 16 MB: 760, 32 MB: 819).
 *
 * `--heap-growing-percent=30`: after each full collection V8 lets the old generation grow to 1.3x
 * what survived it, not the up to 4x it picks by default. The pair scan allocates at a steady rate
 * with little kept, and the default let the heap grow to three times the live data and stay there:
 * the language server held 1,329 MB of heap for ~410 MB live once the corpus's cross-skill checks
 * were done (1,636 MB RSS), and 763-792 MB with the flag, the scan no slower; a cold `check` of the
 * corpus peaked at 1,665 MB and 880 MB with it, the same report (bench/lsp.ts --node-args; README
 * "Performance"). The server and the CLI's long commands each set it as they start
 * (`setFlagsFromString`: V8 reads the factor at every collection), so it holds however they are
 * launched.
 */
export const HEAP_GROWING_FLAG = '--heap-growing-percent=30';

export const SERVER_NODE_ARGS: readonly string[] = ['--max-semi-space-size=8'];

/**
 * Environment added to the server's. `MALLOC_ARENA_MAX=2`: glibc gives each thread that allocates
 * (the encoder's worker, onnxruntime's and libuv's pools) its own arena of up to 64 MB, and
 * freed memory in one arena is not reused by another; two arenas held the ready server 15-19 MB
 * lower in the same runs, edit latency unchanged. Other C libraries ignore it.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
