import type { KeyEnvironment } from "./keys/format";

/**
 * Who owns what the public API creates: the key's team, user and
 * environment. Every query for files and generations puts the team and the
 * environment in its where: any key of a team and environment reads what the
 * others made, a dev key never sees what a prod key made, and one team never
 * sees another's. The user (the key's maker) is stored with each row.
 */
export interface Owner {
  teamId: string;
  userId: string;
  environment: KeyEnvironment;
  apiKeyId: string;
}

/** What a key's requests own: its team, its user, its environment, and the key itself. */
export function ownerOf(key: { id: string; teamId: string; userId: string; environment: KeyEnvironment }): Owner {
  return { teamId: key.teamId, userId: key.userId, environment: key.environment, apiKeyId: key.id };
}
