import type { Exclusion, FirewallSettings } from '../../../../contract/firewall-settings.ts';
import type { CrsCatalog } from '../engine/crs-catalog.ts';
import { compileCustomRules } from './custom-rules.ts';
import { commentText, regexLiteral, UnsafeValueError } from './escape.ts';
import { compilerRuleIds as ids } from './rule-ids.ts';

/** The rules file and the data files it reads (lists, country ranges), by name inside the config folder. */
export type ModsecurityFiles = { text: string; files: Record<string, string> };

const engine = { off: 'Off', detect: 'DetectionOnly', block: 'On' } as const;

const target =
  /^(ARGS|ARGS_GET|ARGS_POST|ARGS_NAMES|REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS|REQUEST_HEADERS_NAMES|REQUEST_BODY|REQUEST_URI|REQUEST_FILENAME|XML|FILES|FILES_NAMES)(:[A-Za-z0-9_.\-[\]]{1,128})?$/;

/** Engine settings of Debian's base file (`/etc/nginx/modsecurity.conf`) without its host paths, plus JSON bodies and the JSON audit log. */
function baseSettings(mode: FirewallSettings['mode'], signature: string): string {
  return `SecRuleEngine ${engine[mode]}
SecRequestBodyAccess On
SecRule REQUEST_HEADERS:Content-Type "@rx ^(?:application(?:/soap\\+|/)|text/)xml" \\
    "id:${ids.requestBodyXml},phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=XML"
SecRule REQUEST_HEADERS:Content-Type "@rx ^application/(?:[a-z0-9.-]+\\+)?json" \\
    "id:${ids.requestBodyJson},phase:1,t:none,t:lowercase,pass,nolog,ctl:requestBodyProcessor=JSON"
SecRequestBodyLimit 13107200
SecRequestBodyNoFilesLimit 131072
SecRequestBodyLimitAction Reject
SecRequestBodyJsonDepthLimit 512
SecArgumentsLimit 1000
SecRule &ARGS "@ge 1000" \\
    "id:${ids.argumentsLimit},phase:2,t:none,log,deny,status:400,msg:'Failed to fully parse request body due to large argument count',severity:2"
SecRule REQBODY_ERROR "!@eq 0" \\
    "id:${ids.requestBodyError},phase:2,t:none,log,deny,status:400,msg:'Failed to parse request body.',logdata:'%{reqbody_error_msg}',severity:2"
SecRule MULTIPART_STRICT_ERROR "!@eq 0" \\
    "id:${ids.multipartStrict},phase:2,t:none,log,deny,status:400,msg:'Multipart request body failed strict validation'"
SecRule MULTIPART_UNMATCHED_BOUNDARY "@eq 1" \\
    "id:${ids.multipartBoundary},phase:2,t:none,log,deny,msg:'Multipart parser detected a possible unmatched boundary.'"
SecPcreMatchLimit 1000
SecPcreMatchLimitRecursion 1000
SecRule TX:/^MSC_/ "!@streq 0" \\
    "id:${ids.internalError},phase:2,t:none,deny,msg:'ModSecurity internal error flagged: %{MATCHED_VAR_NAME}'"
SecResponseBodyAccess On
SecResponseBodyMimeType text/plain text/html text/xml
SecResponseBodyLimit 524288
SecResponseBodyLimitAction ProcessPartial
SecAuditEngine RelevantOnly
SecAuditLogRelevantStatus "^(?:5|4(?!04))"
SecAuditLogParts ABIJDEFHZ
SecAuditLogType Serial
SecAuditLogFormat JSON
SecArgumentSeparator &
SecCookieFormat 0
SecStatusEngine Off
SecComponentSignature "${signature}"`;
}

/** CRS set-up (what crs-setup.conf would hold): default actions, paranoia, thresholds, application packages, set-up version. */
function crsSetup(settings: FirewallSettings, catalog: CrsCatalog): string {
  const rules = settings.managedRules;
  const apps = rules.applications.filter((app) => catalog.applications.includes(app));
  const missing = rules.applications.filter((app) => !catalog.applications.includes(app));
  const paranoia = (level: number) => Math.min(4, Math.max(1, Math.trunc(level)));
  const threshold = (value: number) => Math.max(1, Math.trunc(value));
  return [
    'SecDefaultAction "phase:1,log,auditlog,pass"',
    'SecDefaultAction "phase:2,log,auditlog,pass"',
    'SecCollectionTimeout 600',
    `SecAction "id:900000,phase:1,pass,t:none,nolog,setvar:tx.paranoia_level=${paranoia(rules.paranoiaLevel)}"`,
    ...(rules.executingParanoiaLevel === undefined
      ? []
      : [
          `SecAction "id:900001,phase:1,pass,t:none,nolog,setvar:tx.executing_paranoia_level=${paranoia(rules.executingParanoiaLevel)}"`,
        ]),
    `SecAction "id:900110,phase:1,pass,t:none,nolog,setvar:tx.inbound_anomaly_score_threshold=${threshold(rules.inboundThreshold)},setvar:tx.outbound_anomaly_score_threshold=${threshold(rules.outboundThreshold)}"`,
    ...(apps.length === 0
      ? []
      : [
          `SecAction "id:900130,phase:1,pass,t:none,nolog,${[...apps]
            .sort()
            .map((app) => `setvar:tx.crs_exclusions_${app}=1`)
            .join(',')}"`,
        ]),
    ...missing.map((app) => `# Application package "${app}" is not part of this CRS: left out.`),
    `SecAction "id:900990,phase:1,pass,t:none,nolog,setvar:tx.crs_setup_version=${Math.trunc(catalog.setupVersion)}"`,
  ].join('\n');
}

/** IP allow, IP deny and country block as `@ipMatchFromFile` rules over their data files; empty lists write nothing. */
function listRules(files: Record<string, string>): string {
  const lines: string[] = [];
  if (files['ip-allow.txt'] !== undefined) {
    lines.push(
      '# IP allow list: the rest of the evaluation is skipped for these clients',
      `SecRule REMOTE_ADDR "@ipMatchFromFile ip-allow.txt" "id:${ids.ipAllow},phase:1,pass,nolog,t:none,ctl:ruleEngine=Off,skipAfter:END_SPACEGUARD_ALLOW"`,
    );
  }
  if (files['ip-deny.txt'] !== undefined) {
    lines.push(
      '# IP deny list',
      `SecRule REMOTE_ADDR "@ipMatchFromFile ip-deny.txt" "id:${ids.ipDeny},phase:1,deny,status:403,log,auditlog,t:none,msg:'Client IP in the deny list',tag:'spaceguard/ip-deny'"`,
    );
  }
  if (files['country-block.txt'] !== undefined) {
    lines.push(
      '# Country block',
      `SecRule REMOTE_ADDR "@ipMatchFromFile country-block.txt" "id:${ids.countryBlock},phase:1,deny,status:403,log,auditlog,t:none,msg:'Client IP in a blocked country',tag:'spaceguard/country-block'"`,
    );
  }
  return lines.join('\n');
}

/** Variables that are not collections: libmodsecurity refuses `REQUEST_URI:x` (measured with nginx -t). */
const scalarTargets = new Set(['REQUEST_BODY', 'REQUEST_URI', 'REQUEST_FILENAME']);

/** Why an exclusion target cannot be written, or null: a member of a variable that has none. */
export function exclusionTargetProblem(value: string): string | null {
  const [variable = '', member] = value.split(/:(.*)/s);
  if (member !== undefined && scalarTargets.has(variable)) {
    return `${variable} is one value, not a collection: name it without ":${member}".`;
  }
  return null;
}

function checkedTarget(value: string): string {
  if (!target.test(value)) throw new UnsafeValueError(`Not an exclusion target: ${JSON.stringify(value)}`);
  return value;
}

function checkedRuleId(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 99_999_999) {
    throw new UnsafeValueError(`Not a rule id: ${JSON.stringify(value)}`);
  }
  return value;
}

function exclusionComment(exclusion: Exclusion): string {
  const parts = [`rule ${exclusion.ruleId}`];
  if (exclusion.target) parts.push(`target ${exclusion.target}`);
  if (exclusion.path) parts.push(`path ${exclusion.path}`);
  if (exclusion.method) parts.push(`method ${exclusion.method}`);
  return `# Exclusion: ${commentText(parts.join(', '))}${exclusion.comment ? `: ${commentText(exclusion.comment)}` : ''}`;
}

/** Exclusions limited to a path or a method: `ctl:` rules that run before the CRS, for the matching requests only. */
function runtimeExclusions(exclusions: readonly Exclusion[]): string {
  const blocks: string[] = [];
  for (const [index, exclusion] of exclusions.entries()) {
    if (!exclusion.path && !exclusion.method) continue;
    const problem = exclusion.target ? exclusionTargetProblem(exclusion.target) : null;
    if (problem) {
      blocks.push(`${exclusionComment(exclusion)}\n# Not applied: ${commentText(problem)}`);
      continue;
    }
    const id = ids.firstExclusion + index;
    const ruleId = checkedRuleId(exclusion.ruleId);
    const ctl = exclusion.target
      ? `ctl:ruleRemoveTargetById=${ruleId};${checkedTarget(exclusion.target)}`
      : `ctl:ruleRemoveById=${ruleId}`;
    const tests: Array<[string, string]> = [];
    if (exclusion.path) tests.push(['REQUEST_URI', `@rx \\A${regexLiteral(exclusion.path)}`]);
    if (exclusion.method) tests.push(['REQUEST_METHOD', `@rx \\A${regexLiteral(exclusion.method)}\\z`]);
    const lines = tests.map(([variable, operator], at) => {
      const chain = at < tests.length - 1 ? ',chain' : '';
      return at === 0
        ? `SecRule ${variable} "${operator}" "id:${id},phase:1,pass,nolog,t:none,${ctl}${chain}"`
        : `    SecRule ${variable} "${operator}" "t:none${chain}"`;
    });
    blocks.push([exclusionComment(exclusion), ...lines].join('\n'));
  }
  return blocks.join('\n');
}

/** Exclusions for every request: whole rules or targets taken out of the loaded CRS (after it). */
function staticExclusions(exclusions: readonly Exclusion[]): string {
  return exclusions
    .filter((exclusion) => !exclusion.path && !exclusion.method)
    .map((exclusion) => {
      const ruleId = checkedRuleId(exclusion.ruleId);
      const problem = exclusion.target ? exclusionTargetProblem(exclusion.target) : null;
      if (problem) return `${exclusionComment(exclusion)}\n# Not applied: ${commentText(problem)}`;
      const line = exclusion.target
        ? `SecRuleUpdateTargetById ${ruleId} "!${checkedTarget(exclusion.target)}"`
        : `SecRuleRemoveById ${ruleId}`;
      return `${exclusionComment(exclusion)}\n${line}`;
    })
    .join('\n');
}

/** The CRS rule files, one `Include` each (libmodsecurity3 ignores `IncludeOptional`), minus the groups turned off. */
function crsIncludes(settings: FirewallSettings, catalog: CrsCatalog): string {
  const disabled = new Set(settings.managedRules.disabledGroups);
  return catalog.groups
    .map((group) => {
      if (!/^rules\/[A-Za-z0-9.-]+\.conf$/.test(group.file)) {
        throw new UnsafeValueError(`Not a CRS rule file: ${JSON.stringify(group.file)}`);
      }
      if (disabled.has(group.name) && group.optional) return `# ${group.name} (${group.title}): turned off`;
      if (disabled.has(group.name)) {
        return `# ${group.name} (${group.title}) holds the CRS together: kept although the settings turn it off\nInclude crs/${group.file}`;
      }
      return `Include crs/${group.file}`;
    })
    .join('\n');
}

/** Sections in evaluation order, each under a heading; empty sections are left out. */
function sections(parts: Array<[string, string]>): string {
  return parts
    .filter(([, body]) => body.trim() !== '')
    .map(([title, body]) => `# --- ${title}\n${body}\n`)
    .join('\n');
}

/** `modsecurity.conf` and its data files: engine, host settings, CRS set-up, lists, custom rules, exclusions, the CRS. */
export function compileModsecurity(input: {
  firewallId: string;
  settings: FirewallSettings;
  catalog: CrsCatalog;
  lists: Record<string, string>;
}): ModsecurityFiles {
  const { settings, catalog } = input;
  const custom = compileCustomRules(settings.customRules);
  const signature = `spaceguard/${input.firewallId}`;
  const text = sections([
    ['Engine', baseSettings(settings.mode, signature)],
    [
      'Host settings (audit log path, unicode map, temporary folders): host.conf, written by the host',
      'Include host.conf',
    ],
    [`OWASP CRS ${catalog.version} set-up`, crsSetup(settings, catalog)],
    ['Exclusions limited to a path or method (before the rules they exclude)', runtimeExclusions(settings.exclusions)],
    ['IP lists and countries', listRules(input.lists)],
    ['Custom rules, in order', custom.text],
    [`OWASP CRS ${catalog.version}`, crsIncludes(settings, catalog)],
    ['Exclusions for every request (after the CRS)', staticExclusions(settings.exclusions)],
    ['End of the rules skipped by allow rules', 'SecMarker END_SPACEGUARD_ALLOW'],
  ]);
  return { text, files: custom.files };
}
