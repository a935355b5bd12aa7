#!/usr/bin/env node
'use strict';
// dist/launch.js loads the CLI bundle with V8's code cache (src/cli/launch.ts). A prompt hook asks
// a running server first, from a small bundle (src/cli/hookFast.ts), and loads the CLI only when
// that does not answer.
const launch = (handover) => require('../dist/launch.js').launch(require.resolve('../dist/cli.js'), handover);
if (process.argv[2] === 'hook') require('../dist/hookFast.js').runHookFast(launch);
else launch();
