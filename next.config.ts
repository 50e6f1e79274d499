import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Native drivers stay outside the server bundle and load from node_modules.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
    "@node-rs/argon2",
  ],
  experimental: {
    // forbidden(): the session guard answers a page request that carries an API key with 403.
    authInterrupts: true,
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
      // The public API answers JSON only; proxy.ts (which sets the pages' CSP) never sees it.
      ...["/api/v1/:path*", "/api/v1beta/:path*"].map((source) => ({
        source,
        headers: [
          {
            key: "Content-Security-Policy",
            value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
          },
        ],
      })),
    ];
  },
};

export default nextConfig;
