import "server-only";
import { PrismaAdapter } from "@next-auth/prisma-adapter";
import type { NextAuthOptions } from "next-auth";
import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import GitHubProvider from "next-auth/providers/github";
import { headers } from "next/headers";
import { db } from "../db";
import { getEnv } from "../env";
import { log } from "../log";
import { insertAccount } from "./accounts";
import { clientIp } from "./client-ip";
import { cookieOptions, isHttps, sessionCookieName } from "./cookies";
import { SESSION_ABSOLUTE_LIFETIME_MS } from "./limits";
import { createSession, deleteSessionByToken, readSession } from "./session-store";

async function requestContext() {
  const requestHeaders = await headers();
  return { ip: clientIp(requestHeaders, getEnv().TRUST_PROXY), userAgent: requestHeaders.get("user-agent") };
}

/**
 * The Prisma adapter, with sessions created by our store so they record IP and
 * browser, and account links stored without the provider's tokens.
 */
function keyportAdapter(): Adapter {
  // The adapter is typed for @prisma/client's PrismaClient; ours is generated
  // from the same models, so the calls it makes are the same.
  const adapter = PrismaAdapter(db as never);
  return {
    ...adapter,
    // An account made by a first GitHub sign-in starts as any account does: its chain signed, its personal team made.
    async createUser({ email, emailVerified, name, image }: AdapterUser) {
      return db.$transaction((tx) =>
        insertAccount(tx, { email, emailVerified, name: name ?? null, image: image ?? null }),
      );
    },
    async linkAccount(account: AdapterAccount) {
      // No bearer secret at rest: Keyport never calls GitHub on the user's behalf, so GitHub's tokens are not kept.
      // The fields are named, not spread: a field GitHub adds (refresh_token_expires_in) has no column.
      const { userId, type, provider, providerAccountId } = account;
      const [expires_at, token_type, scope] = [
        account.expires_at ?? null,
        account.token_type ?? null,
        account.scope ?? null,
      ];
      await db.account.create({ data: { userId, type, provider, providerAccountId, expires_at, token_type, scope } });
    },
    async createSession({ userId }) {
      const { ip, userAgent } = await requestContext();
      return createSession(userId, ip, userAgent);
    },
  };
}

// eslint-disable-next-line no-restricted-syntax -- a memo: the options are the same on every call, built from the parsed environment.
let cached: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  const env = getEnv();
  process.env.NEXTAUTH_URL ??= env.PUBLIC_BASE_URL;
  const adapter = keyportAdapter();
  const secure = isHttps(env.PUBLIC_BASE_URL);
  const options = cookieOptions(env.PUBLIC_BASE_URL);

  // GitHub only. Email and password sign-in is our own server action
  // (lib/web/actions/sign-in.ts), which can hold the two-factor step;
  // next-auth's Credentials provider could not, so it is gone, and with it
  // any way to sign in with a password alone.
  const providers: NextAuthOptions["providers"] = [];
  if (env.GITHUB_ID && env.GITHUB_SECRET) {
    providers.push(GitHubProvider({ clientId: env.GITHUB_ID, clientSecret: env.GITHUB_SECRET }));
  }

  cached = {
    adapter,
    providers,
    secret: env.AUTH_SECRET,
    useSecureCookies: secure,
    session: { strategy: "jwt", maxAge: SESSION_ABSOLUTE_LIFETIME_MS / 1000 },
    cookies: {
      sessionToken: { name: sessionCookieName(env.PUBLIC_BASE_URL), options },
      csrfToken: { name: secure ? "__Host-keyport.csrf" : "keyport.csrf", options },
      callbackUrl: { name: secure ? "__Secure-keyport.callback-url" : "keyport.callback-url", options },
    },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    // next-auth's own messages go to our structured log, by code only: its
    // metadata can hold tokens and stacks. (A refused cookie logs JWT_SESSION_ERROR.)
    logger: {
      error: (code) => log.warn("auth.next_auth_error", { code }),
      warn: (code) => log.warn("auth.next_auth_warning", { code }),
      debug: () => {},
    },
    // The "JWT" is our opaque session token: encode hands next-auth the token
    // of the Session row created at sign-in, and decode looks it up, so the
    // cookie means nothing once its row is gone.
    jwt: {
      encode: async ({ token }) => (typeof token?.sessionToken === "string" ? token.sessionToken : ""),
      decode: async ({ token }) => {
        const session = await readSession(token ?? undefined);
        return session ? { sub: session.userId, email: session.email, sessionToken: session.sessionToken } : null;
      },
    },
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          const session = await adapter.createSession!({ sessionToken: "", userId: user.id, expires: new Date() });
          log.info("auth.sign_in", { user_id: user.id, session_id: (session as { id?: string }).id });
          return { sub: user.id, email: user.email, sessionToken: session.sessionToken };
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub, email: token.email } };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sessionToken === "string") await deleteSessionByToken(token.sessionToken);
        log.info("auth.sign_out", { user_id: token?.sub });
      },
    },
  };
  return cached;
}
