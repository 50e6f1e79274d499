#!/usr/bin/env node
// A stand-in for Prisma's native schema engine, for machines that cannot
// download it. Prisma's CLI starts the engine as a child process and speaks
// JSON-RPC to it over stdio; this program answers the same calls by forwarding
// them to @prisma/schema-engine-wasm, which reaches the database through the
// driver adapters. prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY here
// only when no native engine is installed.
import { readFile } from "node:fs/promises";
import readline from "node:readline";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import { createAdapterFactory, providerOf } from "./adapters.mjs";
import { parseEngineArgs } from "./args.mjs";
import { runCliCommand } from "./cli-commands.mjs";
import { createHandlers } from "./handlers.mjs";
import { loadSchemaEngineWasm } from "./load-wasm.mjs";
import { rpcError } from "./rpc-error.mjs";

function log(level, message) {
  process.stderr.write(
    JSON.stringify({
      timestamp: new Date().toISOString(),
      level,
      fields: { message },
      target: "schema_engine_bridge",
    }) + "\n",
  );
}

async function main() {
  const args = parseEngineArgs(process.argv.slice(2));
  if (args.version) {
    const { version } = await loadSchemaEngineWasm();
    process.stdout.write(`schema-engine-bridge ${version()}\n`);
    return;
  }
  // The CLI drops the first line it reads from the engine's stderr, so the
  // first line we write is one nobody needs.
  log("INFO", "Starting schema engine bridge (wasm)");
  if (args.cliCommand) {
    process.exitCode = await runCliCommand(args.cliCommand, args.datasource, log);
    return;
  }

  const datamodels = await Promise.all(args.datamodels.map(async (file) => [file, await readFile(file, "utf8")]));
  const provider = providerOf(args.datasource.url, datamodels);
  const factory = bindMigrationAwareSqlAdapterFactory(
    createAdapterFactory({ provider, ...args.datasource, baseDir: process.cwd() }),
  );
  const { SchemaEngine } = await loadSchemaEngineWasm();
  const engine = await SchemaEngine.new(
    { datamodels: datamodels.length > 0 ? datamodels : undefined },
    (message) => log("INFO", String(message)),
    factory,
  );

  const pending = new Map();
  let nextId = 1_000_000;
  const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
  // The native engine asks the CLI to print diff output with a "print" request.
  const print = (content) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send({ jsonrpc: "2.0", id, method: "print", params: { content } });
    });
  const handlers = createHandlers({ engine, factory, provider, print });

  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  const inFlight = new Set();
  lines.on("line", (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line);
    if (message.method === undefined) {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
      return;
    }
    const call = (async () => {
      try {
        const handler = handlers[message.method];
        if (!handler) throw Object.assign(new Error(`Unknown method: ${message.method}`), { rpcCode: -32601 });
        const result = await handler(message.params ?? {});
        send({ jsonrpc: "2.0", id: message.id, result: result ?? null });
      } catch (error) {
        log("ERROR", String(error?.message ?? error));
        send({ jsonrpc: "2.0", id: message.id, error: rpcError(error, factory) });
      }
    })();
    inFlight.add(call);
    call.finally(() => inFlight.delete(call));
  });
  lines.on("close", async () => {
    await Promise.allSettled([...inFlight]);
    try {
      engine.free();
    } catch {
      // already freed
    }
    process.exit(0);
  });
}

main().catch((error) => {
  log("ERROR", String(error?.stack ?? error));
  process.exit(1);
});
