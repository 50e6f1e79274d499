import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/guard";

export const metadata: Metadata = { title: "API keys" };

export default async function DashboardPage() {
  await requirePageSession("/dashboard");
  return (
    <>
      <h1 className="text-2xl font-bold">API keys</h1>
      <p className="mt-6 rounded-md border border-dashed border-zinc-300 p-6 text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
        You have no API keys yet.
      </p>
    </>
  );
}
