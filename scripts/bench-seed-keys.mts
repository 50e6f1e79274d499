// Inserts N extra keys (random digests, as real keys would have) for the benchmark's
// "100,000 keys" scenario: npm run bench calls it with DATABASE_URL set.
import { randomBytes } from "node:crypto";
process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
process.env.KEYPORT_LOG_TO_STDERR = "1";
const { db } = await import("../lib/db");
const { newKeyId } = await import("../lib/keys/format");

const count = Number(process.argv[2] ?? 100_000);
const user = await db.user.create({ data: { email: `bench-bulk-${Date.now()}@example.com` } });
for (let done = 0; done < count; done += 5_000) {
  const size = Math.min(5_000, count - done);
  await db.apiKey.createMany({
    data: Array.from({ length: size }, () => ({
      publicId: newKeyId(),
      userId: user.id,
      environment: "dev",
      label: "bench",
      digest: randomBytes(32).toString("hex"),
      displayFragment: "sk_dev_xxxx…xxxx",
    })),
  });
}
await db.$disconnect();
console.log(count);
