import { randomBase62 } from "./keys/base62";

/** Public ids of API records: a prefix and 24 base62 characters (about 143 bits), unguessable. */
export const newFileId = () => `file_${randomBase62(24)}`;
export const newGenerationId = () => `gen_${randomBase62(24)}`;
export const newKeyRequestId = () => `req_${randomBase62(24)}`;
