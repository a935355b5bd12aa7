#!/usr/bin/env node
'use strict';
// dist/launch.js loads the CLI bundle with V8's code cache (src/cli/launch.ts).
require('../dist/launch.js').launch(require.resolve('../dist/cli.js'));
