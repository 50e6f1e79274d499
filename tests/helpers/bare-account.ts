import { insertAccount } from "@/lib/auth/accounts";
import { db } from "@/lib/db";

/**
 * An account without a password (a GitHub-style account), made as the app
 * makes every account (lib/auth/accounts.ts insertAccount: its empty activity
 * chain signed, its personal team), in one transaction. For tests that need
 * an owner for keys and nothing of sign-up.
 */
export async function bareAccount(email: string): Promise<{ id: string; email: string }> {
  return db.$transaction((tx) => insertAccount(tx, { email }));
}
