import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The public API's request path: no `{ ...source, extra }`, a spread first and a field after it
// (lib/with-fields.ts says why; a spread after the first field is not copied that way).
const NO_SPREAD_THEN_FIELD = {
  selector: "ObjectExpression > SpreadElement:first-child ~ Property",
  message:
    "A spread followed by a field puts the copy in V8's old generation: use withFields (lib/with-fields.ts) or list the fields.",
};

// Process-wide objects are made in one place, the runtime (lib/runtime/create-runtime.ts),
// so a reader sees every one of them there: no module keeps state of its own.
const RUNTIME_ONLY = "is process-wide state: make it in the runtime (lib/runtime/create-runtime.ts) and pass it on.";
const NO_MODULE_STATE = [
  {
    selector: ":matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration[kind='let']",
    message: `A module-level \`let\` ${RUNTIME_ONLY}`,
  },
  {
    selector:
      ":matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > NewExpression[arguments.length=0]:matches([callee.name='Map'], [callee.name='Set'], [callee.name='WeakMap'])",
    message: `An empty module-level collection ${RUNTIME_ONLY}`,
  },
];
const NO_GLOBALS = [
  { name: "globalThis", message: `globalThis ${RUNTIME_ONLY} Only lib/runtime/runtime.ts publishes it.` },
  { name: "global", message: `global ${RUNTIME_ONLY}` },
];
/** The files that may touch globalThis: the runtime's one slot, and the native Date kept before Next wraps it. */
export const GLOBALS_ALLOWED = ["lib/runtime/runtime.ts", "lib/http/native-date.mjs", "lib/public-api/native-date.ts"];
/** What in lib/ is not the domain: the public API's wing, the web app's, the runtime that wires them, and the entries. */
export const DOMAIN_OUTSIDE = [
  "lib/public-api/**",
  "lib/http/**",
  "lib/errors/error-response.ts",
  "lib/errors/request-id.ts",
  "lib/web/**",
  "lib/docs/**",
  "lib/runtime/**",
  "lib/admin/**",
  "lib/startup-check.ts",
  "lib/health.ts",
  "lib/metrics/**",
  "lib/generated/**",
];
const DOMAIN_MAY_NOT_IMPORT = [
  {
    group: ["**/public-api", "**/public-api/**", "**/http/**", "**/errors/error-response", "**/errors/request-id"],
    message: "The domain does not import the public API: the API sits on the domain (docs/architecture.md).",
  },
  {
    group: ["**/web/**", "**/docs/**", "@/app/*", "@/components/*"],
    message: "The domain does not import the web app: the web app sits on the domain (docs/architecture.md).",
  },
];
/** Code that runs once per process by design, or in its own thread: its module state is the process's. */
const MODULE_STATE_ALLOWED = [
  "server.mjs",
  "lib/usage/sqlite-usage-worker.mjs",
  "lib/metrics/metrics-listener-worker.mjs",
  "scripts/**",
  ...GLOBALS_ALLOWED,
];

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
    // The wings (docs/architecture.md): the domain imports neither the public API nor the web app; both
    // sit on it. Everything in lib/ is the domain but the folders named here.
    files: ["lib/**/*.{ts,tsx,mjs}"],
    ignores: DOMAIN_OUTSIDE,
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_MAY_NOT_IMPORT }] },
  },
  {
    files: ["**/*.{ts,tsx,mjs,mts}"],
    ignores: ["tests/**", ...MODULE_STATE_ALLOWED],
    rules: { "no-restricted-syntax": ["error", ...NO_MODULE_STATE] },
  },
  {
    files: ["**/*.{ts,tsx,mjs,mts}"],
    ignores: GLOBALS_ALLOWED,
    rules: { "no-restricted-globals": ["error", ...NO_GLOBALS] },
  },
  {
    // The public API's request path (see NO_SPREAD_THEN_FIELD), with the rule above: one list per file.
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
    rules: { "no-restricted-syntax": ["error", NO_SPREAD_THEN_FIELD, ...NO_MODULE_STATE] },
  },
];

export default config;
