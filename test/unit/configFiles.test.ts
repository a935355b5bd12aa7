import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { CONFIG_FILE_NAMES, findConfigFile, findTestsFile, firstExisting, TESTS_FILE_NAMES, type ConfigFileAccess } from '../../src/core/configFiles';

/** Discovery over an in-memory set of `/`-separated paths. */
function access(files: string[]): ConfigFileAccess & { probed: string[] } {
  const probed: string[] = [];
  return {
    probed,
    exists: async (file) => {
      probed.push(file);
      return files.includes(file);
    },
    resolve: (dir, rel) => path.posix.resolve(dir, rel),
  };
}

describe('config discovery (core/configFiles: the CLI and the editor both use it)', () => {
  it('looks for skill-router.yaml, .yml, then .json, and takes the first', async () => {
    assert.deepEqual(CONFIG_FILE_NAMES, ['skill-router.yaml', 'skill-router.yml', 'skill-router.json']);
    const fs = access(['/ws/skill-router.yml', '/ws/skill-router.json']);
    assert.equal(await findConfigFile('/ws', fs), '/ws/skill-router.yml');
    assert.deepEqual(fs.probed, ['/ws/skill-router.yaml', '/ws/skill-router.yml']);
    assert.equal(await findConfigFile('/elsewhere', fs), undefined);
    assert.equal(await firstExisting('/ws', ['x', 'skill-router.json'], fs), '/ws/skill-router.json');
  });

  it('takes the config tests key as it is, existing or not, relative to the config folder', async () => {
    const fs = access(['/ws/checks/routing.yaml', '/ws/skill-router.tests.yaml']);
    assert.deepEqual(await findTestsFile({ configDir: '/ws', tests: 'checks/routing.yaml', libraryDir: '/ws/lib' }, fs), {
      file: '/ws/checks/routing.yaml',
      exists: true,
      configured: true,
    });
    assert.deepEqual(await findTestsFile({ configDir: '/ws', tests: '/abs/t.yaml' }, fs), { file: '/abs/t.yaml', exists: false, configured: true });
  });

  it('else finds a tests file next to the config, then in the library folder', async () => {
    assert.equal(TESTS_FILE_NAMES[0], 'skill-router.tests.yaml');
    const both = access(['/ws/skill-router.tests.json', '/ws/lib/skill-router.tests.yaml']);
    assert.equal((await findTestsFile({ configDir: '/ws', libraryDir: '/ws/lib' }, both))?.file, '/ws/skill-router.tests.json');
    assert.equal((await findTestsFile({ libraryDir: '/ws/lib' }, both))?.file, '/ws/lib/skill-router.tests.yaml', 'no config: the library only');
    assert.equal(await findTestsFile({ configDir: '/ws/other' }, both), undefined);
  });
});
