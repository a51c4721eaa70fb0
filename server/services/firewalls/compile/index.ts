/** The firewall compiler's public face: what the API, the preview and the connector's tests use. */
export { checkRegex, type RegexJudge, regexJudge } from './check-regex.ts';
export { type CompiledFirewall, type CompileInput, compileFirewall, hashFiles, nextExpiry } from './compile.ts';
export { UnsafeValueError } from './escape.ts';
export { exclusionTargetProblem } from './modsecurity-conf.ts';
export { compilerRuleIds, customRuleIds, withCustomRuleIds } from './rule-ids.ts';
