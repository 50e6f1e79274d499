// A generation job waiting for a worker, made for one of the test's keys (as POST /api/v1/.../generations would
// queue it): what the metrics gauge counts and the tracing test's worker drains.
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";

export async function queuedGeneration(userId: string, keyPublicId: string): Promise<string> {
  const { teamId } = await db.apiKey.findUniqueOrThrow({ where: { publicId: keyPublicId }, select: { teamId: true } });
  const id = `gen_${randomUUID().replaceAll("-", "")}`.slice(0, 28);
  await db.generation.create({
    data: {
      id,
      teamId,
      userId,
      environment: "dev",
      apiKeyId: keyPublicId,
      model: "aurora-image-2",
      prompt: "a lighthouse",
      status: "queued",
    },
  });
  return id;
}
