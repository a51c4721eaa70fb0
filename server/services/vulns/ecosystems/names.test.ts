/** Package identity: names as each ecosystem compares them, and the Debian release a purl's distro names. */
import { describe, expect, test } from 'vitest';
import { debianRelease, normaliseName } from './names.ts';

describe('normaliseName', () => {
  test.each([
    ['PyPI', 'Django', 'django'],
    ['PyPI', 'zope.interface', 'zope-interface'],
    ['PyPI', 'Foo__Bar-.baz', 'foo-bar-baz'],
    ['npm', '@Babel/Core', '@babel/core'],
    ['Maven', 'org.apache.logging.log4j:log4j-core', 'org.apache.logging.log4j:log4j-core'],
    ['Go', 'github.com/Gin-Gonic/gin/', 'github.com/Gin-Gonic/gin'],
    ['Debian', 'OpenSSL', 'openssl'],
  ] as const)('%s %s → %s', (ecosystem, name, expected) => {
    expect(normaliseName(ecosystem, name)).toBe(expected);
  });
});

describe('debianRelease', () => {
  test.each([
    ['pkg:deb/debian/openssl@3.0.11-1~deb12u2?arch=amd64&distro=debian-12', '12'],
    ['pkg:deb/debian/openssl@3.0.11-1~deb12u2?distro=debian-12.5&arch=amd64', '12'],
    ['pkg:deb/debian/libssl1.1@1.1.1n-0+deb11u3?distro=bullseye', '11'],
    ['pkg:deb/debian/curl@7.88.1-10?distro=bookworm', '12'],
    ['pkg:deb/debian/curl@7.88.1-10?arch=amd64', null],
    ['pkg:deb/debian/curl@7.88.1-10?distro=sid', null],
    [null, null],
  ] as const)('%s → %s', (purl, expected) => {
    expect(debianRelease(purl)).toBe(expected);
  });
});
