/** LIKE patterns from what people type: `%`, `_` and `\` stand for themselves. */

/** Text with LIKE's wildcards and escape character escaped (PostgreSQL's default escape is `\`). */
export const likeLiteral = (value: string): string => value.replace(/[\\%_]/g, '\\$&');

/** A LIKE pattern matching `text` literally anywhere. */
export const anywhere = (text: string): string => `%${likeLiteral(text)}%`;
