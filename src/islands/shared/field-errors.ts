/** The API's per-field messages of a firewall save (`exclusions.2.ruleId`), placed at their fields and their tabs. */

/** Messages by field path, as the API names them. */
export type FieldErrors = Readonly<Record<string, string>>;

/** The message for exactly this path. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  return errors[path];
}

/** The first message for a list field or one of its items (`hostnames` or `hostnames.1`), naming the line. */
export function listError(errors: FieldErrors, name: string): string | undefined {
  const entry = Object.entries(errors).find(([key]) => key === name || key.startsWith(`${name}.`));
  if (!entry) return undefined;
  const [key, message] = entry;
  const index = key.slice(name.length + 1).split('.')[0] ?? '';
  return index === '' ? message : `Line ${Number(index) + 1}: ${message}`;
}

/** The first message at a path or under it (`exclusions.2` covers `exclusions.2.ruleId`). */
export function errorUnder(errors: FieldErrors, path: string): string | undefined {
  const entry = Object.entries(errors).find(([key]) => key === path || key.startsWith(`${path}.`));
  return entry?.[1];
}

/** True when any message is at or under one of these top-level keys. */
export function hasErrorUnder(errors: FieldErrors, keys: readonly string[]): boolean {
  return Object.keys(errors).some((path) => keys.some((key) => path === key || path.startsWith(`${key}.`)));
}
