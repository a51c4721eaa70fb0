import { readPurl, readSbom, sbomMaxDepth } from './read-inventory.ts';

describe('readPurl', () => {
  test.each([
    ['pkg:npm/%40angular/core@16.2.0', 'npm', '@angular/core', '16.2.0'],
    ['pkg:npm/lodash@4.17.21', 'npm', 'lodash', '4.17.21'],
    ['pkg:pypi/Django_REST@3.14.0', 'PyPI', 'django-rest', '3.14.0'],
    [
      'pkg:maven/org.apache.logging.log4j/log4j-core@2.14.1?type=jar',
      'Maven',
      'org.apache.logging.log4j:log4j-core',
      '2.14.1',
    ],
    ['pkg:golang/github.com/gin-gonic/gin@v1.9.0', 'Go', 'github.com/gin-gonic/gin', 'v1.9.0'],
    ['pkg:golang/golang.org/x/net@v0.17.0', 'Go', 'golang.org/x/net', 'v0.17.0'],
    // OSV names Debian source packages: the upstream qualifier (with its version, when it has one) names the component.
    ['pkg:deb/debian/libssl3@3.0.11-1~deb12u2?arch=amd64&upstream=openssl', 'Debian', 'openssl', '3.0.11-1~deb12u2'],
    ['pkg:deb/debian/libc6@2.36-9+deb12u3?upstream=glibc%402.36-9%2Bdeb12u4', 'Debian', 'glibc', '2.36-9+deb12u4'],
    ['pkg:deb/debian/curl@7.88.1-10+deb12u5?arch=amd64', 'Debian', 'curl', '7.88.1-10+deb12u5'],
    ['pkg:cargo/serde@1.0.130', 'cargo', 'serde', '1.0.130'],
    ['pkg:nuget/Newtonsoft.Json@13.0.1', 'nuget', 'Newtonsoft.Json', '13.0.1'],
    ['pkg:github/actions/checkout@v4', 'github', 'actions/checkout', 'v4'],
  ])('%s → %s %s %s', (purl, ecosystem, name, version) => {
    expect(readPurl(purl)).toEqual({ purl, ecosystem, name, version });
  });

  test('a purl without a version takes the component’s; a Maven purl needs a group; junk is named', () => {
    expect(readPurl('pkg:npm/qs', '6.7.0')).toMatchObject({ name: 'qs', version: '6.7.0' });
    expect(readPurl('pkg:npm/qs')).toEqual({ problem: '"pkg:npm/qs" has no version (add @version)' });
    expect(readPurl('pkg:maven/log4j-core@2')).toEqual({
      problem: expect.stringMatching(/maven requires a "namespace"/),
    });
    expect(readPurl('lodash@4')).toEqual({
      problem: expect.stringMatching(/^"lodash@4" is not a package URL \(.+\)$/),
    });
  });
});

describe('readSbom', () => {
  const bom = (extra: Record<string, unknown>) => ({ bomFormat: 'CycloneDX', specVersion: '1.4', ...extra });

  test('CycloneDX 1.4 tools (an array), 1.6 too; no components is an empty inventory', () => {
    const read = readSbom(
      bom({
        serialNumber: 'urn:uuid:1',
        metadata: { tools: [{ vendor: 'anchore', name: 'syft', version: '0.90.0' }], component: { name: 'box' } },
      }),
    );
    expect(read).toEqual({
      components: [],
      meta: {
        specVersion: '1.4',
        serialNumber: 'urn:uuid:1',
        version: null,
        timestamp: null,
        tools: ['anchore syft 0.90.0'],
        component: { name: 'box', version: null, purl: null },
        fileName: null,
      },
    });
    expect(readSbom(bom({ specVersion: '1.6' }))).toMatchObject({ components: [] });
  });

  test('each list, then its components’ nested lists; a component without a purl is kept as unknown', () => {
    const read = readSbom(
      bom({
        components: [
          { purl: 'pkg:npm/a@1', components: [{ purl: 'pkg:npm/b@1', components: [{ purl: 'pkg:npm/c@1' }] }] },
          { name: 'libfoo', group: 'acme', version: '2.0' },
        ],
      }),
    );
    expect('components' in read && read.components.map((c) => `${c.ecosystem}:${c.name}@${c.version}`)).toEqual([
      'npm:a@1',
      'unknown:acme/libfoo@2.0',
      'npm:b@1',
      'npm:c@1',
    ]);
  });

  test('too deep a nesting is refused with its path', () => {
    let components: unknown[] = [{ purl: 'pkg:npm/leaf@1' }];
    for (let depth = 0; depth < sbomMaxDepth; depth += 1) components = [{ purl: 'pkg:npm/x@1', components }];
    const read = readSbom(bom({ components }));
    expect(read).toEqual({
      problem: expect.stringMatching(
        /^sbom\.components\[0\](\.components\[0\])+\.components: components nest deeper than 32 levels$/,
      ),
    });
  });

  test.each([
    [{ components: [{ purl: 5 }] }, 'sbom.components[0].purl: must be a string'],
    [{ components: [{ purl: 'pkg:npm/a@1', version: 1 }] }, 'sbom.components[0].version: must be a string'],
    [
      { components: [{ purl: 'pkg:npm/a@1', components: 'x' }] },
      'sbom.components[0].components: must be an array of components',
    ],
  ])('%o → %s', (extra, problem) => {
    expect(readSbom(bom(extra))).toEqual({ problem });
  });
});
