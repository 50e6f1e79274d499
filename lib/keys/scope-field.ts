import type { Scope } from "./scopes";

/** The form field of each scope's checkbox: "scope:catalog:read" (the forms and key.schema.ts share it). */
export const scopeField = (scope: Scope) => `scope:${scope}`;
