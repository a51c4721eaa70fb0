/** `getStaticPaths` parameters of a dynamic route's one shell: every segment set to the placeholder. */
import { paramNames, SHELL_SEGMENT } from './routes.ts';

export function shellParams(pattern: string): Record<string, string> {
  return Object.fromEntries(paramNames(pattern).map((name) => [name, SHELL_SEGMENT]));
}
