import type { Handler } from "./handler";
import { getApp, listApps, listMediaModels, listModels } from "./handlers/catalog";
import { uploadFile } from "./handlers/files";
import {
  createAppGenerationHandler,
  createGenerationHandler,
  getAppGenerationHandler,
  getGenerationHandler,
} from "./handlers/generations";
import { createChatCompletion, createMessage, generateContent, streamGenerateContent } from "./handlers/models";
import type { RouteName } from "./routes";

/** The handler of each public route; the type makes every route name appear. */
export const routeHandlers: Record<RouteName, Handler> = {
  list_media_models: listMediaModels as Handler,
  list_apps: listApps as Handler,
  get_app: getApp as Handler,
  list_models: listModels as Handler,
  create_chat_completion: createChatCompletion as Handler,
  create_message: createMessage as Handler,
  generate_content: generateContent as Handler,
  stream_generate_content: streamGenerateContent as Handler,
  upload_file: uploadFile as Handler,
  create_generation: createGenerationHandler as Handler,
  get_generation: getGenerationHandler as Handler,
  create_app_generation: createAppGenerationHandler as Handler,
  get_app_generation: getAppGenerationHandler as Handler,
};
