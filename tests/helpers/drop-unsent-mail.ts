// Runs before each integration test file: mail that earlier files of this
// worker queued and never sent is dropped. Files of one worker share its
// database, and a file that sends its own mail (drainMail) sends everything
// queued there: after the roles test (hundreds of membership notices)
// sign-up.test.ts spent its 60 seconds sending another file's mail, and
// failed. Plain SQL on its own connection, before the file loads any of the
// app's modules (or its mocks of them).
import Database from "better-sqlite3";
import pg from "pg";
import { beforeAll } from "vitest";

const DROP = 'DELETE FROM "MailMessage" WHERE "sentAt" IS NULL';

beforeAll(async () => {
  const url = process.env.DATABASE_URL!;
  if (url.startsWith("file:")) {
    const sqlite = new Database(url.slice("file:".length));
    try {
      sqlite.exec(DROP);
    } finally {
      sqlite.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(DROP);
  } finally {
    await client.end();
  }
});
