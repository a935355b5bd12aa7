// The prompt hook's channel to a running server (src/cli/hookChannel.ts), on real sockets: an ask
// is answered with the server's block; a second server of the same library leaves the channel to
// the first; a socket left by a server that was killed is taken over; other engine flags name
// another channel; no server, or a malformed ask, is a null answer for the hook (it routes itself).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { askHookChannel, hookChannelPath, serveHookChannel, type HookAsk } from '../../src/cli/hookChannel';
import { SILENT_LOGGER } from '../../src/core/types';

const ask: HookAsk = { prompt: 'extract the tables from a PDF', truncated: false, budget: 500 };

describe('cli: the prompt hook channel', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'skill-router-channel-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers an ask with the server\'s block; a second server of the same library leaves it to the first; other flags are another channel', async () => {
    const opts = { root: join(dir, 'lib-a') };
    const seen: HookAsk[] = [];
    const first = await serveHookChannel(opts, async (a) => (seen.push(a), `block for ${a.prompt} within ${a.budget}`), SILENT_LOGGER);
    assert.ok(first);
    try {
      assert.equal(await askHookChannel(opts, ask, 5000), 'block for extract the tables from a PDF within 500');
      assert.deepEqual(seen, [ask]);
      assert.equal(await serveHookChannel(opts, async () => 'second', SILENT_LOGGER), null);
      assert.equal(await askHookChannel(opts, ask, 5000), 'block for extract the tables from a PDF within 500');
      assert.notEqual(hookChannelPath({ ...opts, noModel: true }), hookChannelPath(opts));
      assert.equal(hookChannelPath({ ...opts, cacheDir: '/elsewhere', threads: 1 }), hookChannelPath(opts), 'the cache and threads do not change a ranking');
      assert.equal(await askHookChannel({ ...opts, noModel: true }, ask, 5000), null, 'no server with those flags');
    } finally {
      await first.close();
    }
    assert.equal(await askHookChannel(opts, ask, 5000), null, 'closed: nobody answers');
  });

  it('takes over a socket left by a server that was killed', async function () {
    if (process.platform === 'win32') this.skip();
    const opts = { root: join(dir, 'lib-b') };
    const where = hookChannelPath(opts);
    const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(where)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    assert.ok(existsSync(where), 'the killed server left its socket');
    const channel = await serveHookChannel(opts, async () => 'taken over', SILENT_LOGGER);
    assert.ok(channel);
    try {
      assert.equal(await askHookChannel(opts, ask, 5000), 'taken over');
    } finally {
      await channel.close();
    }
  });

  it('answers a line that is not an ask with an error, which the hook reads as no answer', async () => {
    const opts = { root: join(dir, 'lib-c') };
    const channel = await serveHookChannel(opts, async () => 'never', SILENT_LOGGER);
    assert.ok(channel);
    try {
      const reply = await new Promise<string>((resolve) => {
        let buf = '';
        const socket = net.connect(hookChannelPath(opts), () => socket.write('{"prompt": 42}\n'));
        socket.setEncoding('utf8');
        socket.on('data', (d: string) => (buf += d));
        socket.on('end', () => resolve(buf));
      });
      assert.deepEqual(JSON.parse(reply), { error: 'not a hook request' });
    } finally {
      await channel.close();
    }
  });
});
