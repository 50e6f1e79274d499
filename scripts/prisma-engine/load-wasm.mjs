// Loads @prisma/schema-engine-wasm by hand. Its entry file imports the .wasm
// as an ES module, which Node 20 cannot do, so we instantiate the bytes and
// hand the exports to the wasm-bindgen glue ourselves.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

export async function loadSchemaEngineWasm() {
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const pkgDir = path.dirname(gluePath);
  const glue = await import(gluePath);
  const bytes = await readFile(path.join(pkgDir, "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start?.();
  return glue;
}
