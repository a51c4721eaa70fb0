/** Two real OSV records (lodash prototype pollution, Log4Shell), for the tests that assess an inventory against a library. */
export const vulnRecords = [
  {
    schema_version: '1.6.0',
    id: 'GHSA-jf85-cpcp-j695',
    aliases: ['CVE-2019-10744'],
    summary: 'Prototype Pollution in lodash',
    modified: '2024-03-01T00:00:00Z',
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }],
    affected: [
      {
        package: { ecosystem: 'npm', name: 'lodash' },
        ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '4.17.12' }] }],
      },
    ],
  },
  {
    schema_version: '1.6.0',
    id: 'GHSA-jfh8-c2jp-5v3q',
    aliases: ['CVE-2021-44228'],
    summary: 'Remote code injection in Log4j',
    modified: '2024-02-01T00:00:00Z',
    severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H' }],
    affected: [
      {
        package: { ecosystem: 'Maven', name: 'org.apache.logging.log4j:log4j-core' },
        ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '2.0-beta9' }, { fixed: '2.15.0' }] }],
      },
    ],
    database_specific: { cwe_ids: ['CWE-917'] },
  },
];
