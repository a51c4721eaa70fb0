/** The password strength rules: plain values, no zod, for the API's schema and the sign-up page's meter (passwords.ts applies them). */

export const passwordRules = { minLength: 10, maxLength: 200 } as const;
