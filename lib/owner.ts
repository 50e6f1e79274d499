import type { KeyEnvironment } from "./keys/format";

/**
 * Who owns what the public API creates: the key's user and environment. Every
 * query for files and generations puts both in its where, so a dev key never
 * sees what a prod key made, and one user never sees another's.
 */
export interface Owner {
  userId: string;
  environment: KeyEnvironment;
  apiKeyId: string;
}
