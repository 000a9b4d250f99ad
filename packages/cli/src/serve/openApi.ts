/**
 * The OpenAPI 3.1 document `hearsay serve` publishes at /openapi.json: every path, its
 * parameters, and its request bodies' JSON Schemas derived from the same Effect Schemas
 * the server decodes them with, so the document cannot drift from what is accepted.
 */
import { Schema } from "effect";
import { ActionBody, TickBody, TurnBody } from "./ServeBodies.ts";

const jsonSchema = (s: Schema.Top): Record<string, unknown> => {
  const doc = Schema.toJsonSchemaDocument(s);
  const defs = doc.definitions as Record<string, unknown>;
  return {
    ...(doc.schema as Record<string, unknown>),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
};

const param = (name: string, where: "path" | "query" = "path", required = where === "path") => ({
  name,
  in: where,
  required,
  schema: { type: "string" },
});

const errors = {
  "400": { description: "A body or parameter that does not decode; `field` names it" },
  "401": { description: "Missing or wrong bearer token" },
  "403": {
    description:
      "The Host header does not name this server's address, or the Origin is another site's",
  },
  "404": { description: "Unknown save, NPC, conversation or task" },
  "413": { description: "Body larger than the server's limit" },
  "415": { description: "A POST without `Content-Type: application/json`" },
};

const body = (s: Schema.Top) => ({
  required: true,
  content: { "application/json": { schema: jsonSchema(s) } },
});

/** The document, for a server whose bodies are limited to `maxBodyBytes`. */
export const openApiDocument = (maxBodyBytes: number): Record<string, unknown> => ({
  openapi: "3.1.0",
  info: {
    title: "hearsay serve",
    version: "0.1.0",
    description: `A local service for a game: talk to NPCs, tell the world what happened, report what became of proposed actions. Bodies are JSON of at most ${maxBodyBytes} bytes; with a token set, every request needs \`Authorization: Bearer <token>\`. Every POST needs \`Content-Type: application/json\`; the Host header must name the address the server listens on, and a browser's Origin must be the server's own. Writes to one save are applied one at a time, in arrival order.`,
  },
  components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
  security: [{ bearer: [] }],
  paths: {
    "/saves": {
      get: { summary: "The saves in the database", responses: { "200": { description: "Saves" } } },
    },
    "/saves/{save}/npcs/{npc}/turn": {
      post: {
        summary:
          "A conversation turn: the player's message in, the NPC's reply out (streamed as NDJSON with `?stream=1`), with memory writes and proposed game actions",
        parameters: [param("save"), param("npc"), param("stream", "query")],
        requestBody: body(TurnBody),
        responses: {
          "200": {
            description:
              "The reply, the actions proposed (for the game to validate), what was remembered",
          },
          "502": { description: "No brain could answer; nothing was stored" },
          ...errors,
        },
      },
    },
    "/saves/{save}/npcs/{npc}/conversations/{conversation}/end": {
      post: {
        summary: "Ends a conversation: digests what is left of it",
        parameters: [param("save"), param("npc"), param("conversation")],
        responses: { "200": { description: "What was remembered" }, ...errors },
      },
    },
    "/saves/{save}/tick": {
      post: {
        summary:
          "A world tick: game events in, world events out with who learnt each (by its visibility); `camera` moves the camera (NPCs near it rank higher for the model)",
        parameters: [param("save")],
        requestBody: body(TickBody),
        responses: {
          "200": { description: "The world events recorded, and where the camera now is" },
          ...errors,
        },
      },
    },
    "/saves/{save}/actions": {
      post: {
        summary:
          "The result of a proposed action (accepted, rejected, completed, failed): task status, memories, regard",
        parameters: [param("save")],
        requestBody: body(ActionBody),
        responses: {
          "200": { description: "The task's new status" },
          "409": { description: "The task cannot move so" },
          ...errors,
        },
      },
    },
    "/saves/{save}/npcs/{npc}/dossier": {
      get: {
        summary: "What the NPC would be handed now",
        parameters: [param("save"), param("npc"), param("query", "query")],
        responses: { "200": { description: "The dossier, as data and as prompt text" }, ...errors },
      },
    },
    "/saves/{save}/npcs/{npc}/memories": {
      get: {
        summary: "The NPC's live memories (`?about=player` for those about the player)",
        parameters: [param("save"), param("npc"), param("about", "query")],
        responses: { "200": { description: "Memories, oldest first" }, ...errors },
      },
    },
    "/saves/{save}/export": {
      get: {
        summary: "The save's event log as JSON lines",
        parameters: [param("save")],
        responses: { "200": { description: "application/x-ndjson" }, ...errors },
      },
    },
  },
});
