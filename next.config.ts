import type { NextConfig } from "next";
import { publicBaseUrl } from "./lib/env-schema";
import { API_SECURITY_HEADERS } from "./lib/security/api-headers";

// The deployment's own origin, read at build time (docs/configuration.md says
// to set PUBLIC_BASE_URL for `npm run build`): server actions posted from it are
// accepted even when the Host header names an instance behind a proxy.
const baseHost = new URL(publicBaseUrl()).host;
const baseHostname = new URL(publicBaseUrl()).hostname;

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `npm test` checks types before it builds (`npm run typecheck`: Next's route types, then tsc on the same
  // tsconfig) and says so with KEYPORT_TYPES_CHECKED=1; the build then does not check them a second time. Any other
  // build (`npm run build`, a deployment's) still checks them and fails on an error.
  typescript: { ignoreBuildErrors: process.env.KEYPORT_TYPES_CHECKED === "1" },
  // No page uses next/image. Left on, /_next/image fetched any path of this site it was handed
  // (`?url=/dashboard`) and failed with a 500 on the HTML that came back; off, it answers 404.
  images: { unoptimized: true },
  // The development server refuses other origins' requests for its scripts and
  // hot reload; a developer opens it at localhost or 127.0.0.1 (or the base URL's host).
  allowedDevOrigins: [...new Set(["localhost", "127.0.0.1", baseHostname])],
  // Native drivers stay outside the server bundle and load from node_modules.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
    "@node-rs/argon2",
    // Tracing's SDK, loaded by import() only when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/tracing/otel-tracing.ts):
    // from node_modules as the gate's bundle loads it, not copied into a chunk of Next's.
    "@opentelemetry/api",
    "@opentelemetry/sdk-trace-base",
    "@opentelemetry/exporter-trace-otlp-http",
    "@opentelemetry/resources",
  ],
  experimental: {
    // forbidden(): the session guard answers a page request that carries an API key with 403.
    authInterrupts: true,
    serverActions: { allowedOrigins: [baseHost] },
  },
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: API_SECURITY_HEADERS["X-Content-Type-Options"] },
          { key: "Referrer-Policy", value: API_SECURITY_HEADERS["Referrer-Policy"] },
        ],
      },
      // The public API answers JSON only; proxy.ts (which sets the pages' CSP) never sees it. These reach it
      // only when Next serves it (`next start`); server.mjs's gate sets the same itself.
      ...["/api/v1/:path*", "/api/v1beta/:path*"].map((source) => ({
        source,
        headers: [{ key: "Content-Security-Policy", value: API_SECURITY_HEADERS["Content-Security-Policy"] }],
      })),
    ];
  },
};

export default nextConfig;
