export type GenerationStatus = "queued" | "running" | "succeeded" | "failed";

interface GenerationRow {
  id: string;
  status: string;
  model: string;
  app: string | null;
  prompt: string;
  inputFileId: string | null;
  output: string | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

const seconds = (date: Date | null) => (date ? Math.floor(date.getTime() / 1000) : null);

/** The API's view of a generation. */
export function toGenerationObject(row: GenerationRow) {
  return {
    id: row.id,
    object: "generation" as const,
    status: row.status as GenerationStatus,
    model: row.model,
    app: row.app,
    prompt: row.prompt,
    input_file_id: row.inputFileId,
    output: row.output ? (JSON.parse(row.output) as { type: string; url: string }) : null,
    error: row.error ? (JSON.parse(row.error) as { code: string; message: string }) : null,
    created_at: seconds(row.createdAt)!,
    started_at: seconds(row.startedAt),
    completed_at: seconds(row.completedAt),
  };
}

export type GenerationObject = ReturnType<typeof toGenerationObject>;
