// Errors in the shape the Prisma CLI reads from its engine: a JSON-RPC error
// whose data carries the user-facing message and, when there is one, the
// Prisma error code (P1001, P3005, ...).
const ENGINE_ERROR = 4466;

export function rpcError(error, factory) {
  if (error?.rpcCode) return { code: error.rpcCode, message: error.message };
  const registered = typeof error?.id === "number" ? factory.errorRegistry.consumeError(error.id) : undefined;
  const cause = registered?.error ?? error;
  const message = String(cause?.message ?? cause?.kind ?? cause);
  const isPanic = error instanceof WebAssembly.RuntimeError || /unreachable|panicked/.test(message);
  return {
    code: ENGINE_ERROR,
    message: "An error happened. Check the data field for details.",
    data: {
      is_panic: isPanic,
      message,
      meta: error?.meta ?? null,
      error_code: typeof error?.code === "string" ? error.code : null,
    },
  };
}
