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
];

export default config;
