/** A value that survives `JSON.stringify` / `JSON.parse` unchanged: everything that crosses a disk or a process. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
