import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxCheck } from './nginx-check.ts';

// The helper the golden, property and connector tests rely on: a private prefix, the real nginx -t, nothing left behind.

let workDir = '';
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'spaceguard-check-test-'));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

const files = (
  server: string,
  modsecurity = 'SecRuleEngine On\nInclude host.conf\nInclude crs/rules/REQUEST-901-INITIALIZATION.conf\n',
) => ({
  'http.conf': '# nothing at http level\n',
  'server.conf': server,
  'modsecurity.conf': modsecurity,
});

describe('nginxCheck', () => {
  test('passes a valid folder (the crs link and host.conf are laid out beside the files)', async () => {
    expect(
      await nginxCheck(files('modsecurity on;\nlocation / { proxy_pass http://127.0.0.1:3000; }\n'), { workDir }),
    ).toEqual({
      ok: true,
    });
    expect(readdirSync(workDir)).toEqual([]);
  });

  test.each([
    [
      'an nginx error',
      files('no_such_directive on;\n'),
      /unknown directive "no_such_directive" in <prefix>\/conf\/spaceguard\/server\.conf:1/,
    ],
    [
      'a ModSecurity error',
      files('modsecurity on;\n', 'SecNoSuchThing On\n'),
      /modsecurity_rules_file.*<prefix>\/conf\/spaceguard\/modsecurity\.conf/,
    ],
    [
      'a missing data file',
      files('modsecurity on;\n', 'SecRule REMOTE_ADDR "@ipMatchFromFile nope.txt" "id:1,phase:1,pass"\n'),
      /nope\.txt/,
    ],
  ])('answers %s with its message, the temporary prefix shown as <prefix>', async (_, broken, message) => {
    const result = await nginxCheck(broken, { workDir });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toMatch(message);
      expect(result.message).not.toContain(workDir);
    }
    expect(readdirSync(workDir)).toEqual([]);
  });

  test.each(['../escape.conf', '/etc/passwd', 'a b.conf'])('refuses the file name %j', async (name) => {
    await expect(nginxCheck({ ...files('modsecurity on;\n'), [name]: 'x' }, { workDir })).rejects.toThrow(
      /outside the config folder/,
    );
  });
});
