import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "lib/generated/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      // The public API's bundle, built by scripts/build-gate.mjs from lib/.
      "dist/**",
    ],
  },
  {
    // Dependencies point app -> components -> lib, never back: a component
    // takes its server actions from lib/, not from a route folder.
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/app/*", "@/app"], message: "components/ must not import from app/." }] },
      ],
    },
  },
  {
    // Dependencies point app -> lib, never back.
    files: ["lib/**/*.ts", "lib/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/app/*", "@/components/*"], message: "lib/ must not import from app/ or components/." },
          ],
        },
      ],
    },
  },
  {
    // The public API's request path: no `{ ...source, extra }`, a spread first and a field after it
    // (lib/with-fields.ts says why; a spread after the first field is not copied that way).
    files: [
      "lib/public-api/gate.ts",
      "lib/public-api/count-request.ts",
      "lib/public-api/rate-limit.ts",
      "lib/public-api/define-handler.ts",
      "lib/public-api/credentials.ts",
      "lib/keys/verify.ts",
      "lib/keys/key-cache.ts",
      "lib/keys/key-store.ts",
      "lib/usage/buffer.ts",
      "lib/usage/event.ts",
      "lib/errors/error-response.ts",
      "lib/http/*.ts",
      "lib/log.ts",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ObjectExpression > SpreadElement:first-child ~ Property",
          message:
            "A spread followed by a field puts the copy in V8's old generation: use withFields (lib/with-fields.ts) or list the fields.",
        },
      ],
    },
  },
];

export default config;
