import type { RouteHandler } from "./define-handler";
import { getApp, listApps, listMediaModels, listModels } from "./handlers/catalog-lists";
import { uploadFile } from "./handlers/files";
import {
  createAppGenerationHandler,
  createGenerationHandler,
  getAppGenerationHandler,
  getGenerationHandler,
} from "./handlers/generations";
import { createChatCompletion, createMessage, generateContent, streamGenerateContent } from "./handlers/models";
import type { RouteName } from "./routes";

/** The handler of each public route; the type makes every route name appear, with its own route's handler. */
export const routeHandlers: { [Name in RouteName]: RouteHandler<Name> } = {
  list_media_models: listMediaModels,
  list_apps: listApps,
  get_app: getApp,
  list_models: listModels,
  create_chat_completion: createChatCompletion,
  create_message: createMessage,
  generate_content: generateContent,
  stream_generate_content: streamGenerateContent,
  upload_file: uploadFile,
  create_generation: createGenerationHandler,
  get_generation: getGenerationHandler,
  create_app_generation: createAppGenerationHandler,
  get_app_generation: getAppGenerationHandler,
};
