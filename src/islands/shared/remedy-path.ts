/** The path an exclusion starts from: the request's path without its query string, `/` when there is none. */
export const pathOnly = (path: string | null | undefined): string => (path ? path.split('?')[0] || '/' : '/');
