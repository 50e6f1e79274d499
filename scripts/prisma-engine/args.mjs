// The command line the Prisma CLI gives its schema engine:
// --datamodels <file> (repeated), --datasource <json>, --enabled-preview-features <list>,
// and for one-shot commands `cli <command>`.
export function parseEngineArgs(argv) {
  const result = { datamodels: [], datasource: {}, previewFeatures: [], version: false, cliCommand: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--version" || arg === "-V") {
      result.version = true;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined) continue;
    if (arg === "--datamodels") result.datamodels.push(value);
    else if (arg === "--datasource") result.datasource = JSON.parse(value);
    else if (arg === "--enabled-preview-features") result.previewFeatures = value.split(",").filter(Boolean);
    else if (arg === "cli") result.cliCommand = value;
    else if (arg !== "--extension-types") continue;
    i++;
  }
  return result;
}
