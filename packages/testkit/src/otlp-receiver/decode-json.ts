import { OtlpDecodeError } from './otlp-decode-error.js';
import { plainInt } from './plain-int.js';
import type {
  ReceivedAttributes,
  ReceivedAttributeValue,
  ReceivedSpan,
  ReceivedSpanEvent,
  ReceivedSpanLink,
} from './types.js';

// The OTLP JSON Protobuf Encoding (opentelemetry-proto docs/specification.md, "JSON Protobuf Encoding"): the
// proto3 JSON mapping with lowerCamelCase keys, trace and span ids as case-insensitive hex (not base64),
// enums as integers only, 64-bit integers as decimal strings or numbers, unknown fields ignored.

type Json = Record<string, unknown>;

function object(value: unknown, where: string): Json | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new OtlpDecodeError(`${where}: expected an object, got ${JSON.stringify(value)}`);
  }
  return value as Json;
}

function array(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new OtlpDecodeError(`${where}: expected an array`);
  return value;
}

function string(value: unknown, where: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new OtlpDecodeError(`${where}: expected a string`);
  return value;
}

/** An enum: "Values of enum fields MUST be encoded as integer values … the enum name strings MUST NOT be used." */
function enumValue(value: unknown, where: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw new OtlpDecodeError(
    `${where}: enum values must be integers in OTLP/JSON (the enum name strings must not be used), got ${JSON.stringify(value)}`,
  );
}

/** A 64-bit integer: "encoded as decimal strings, and either numbers or strings are accepted when decoding". */
function int64(value: unknown, where: string): bigint {
  if (value === undefined || value === null) return 0n;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new OtlpDecodeError(`${where}: expected a 64-bit integer (a decimal string or a number)`);
}

function uint32(value: unknown, where: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  throw new OtlpDecodeError(`${where}: expected an unsigned integer`);
}

/** A trace or span id: hex, case-insensitive, of exactly `bytes` bytes; '' (or absent) is none. */
function hexId(value: unknown, bytes: number, where: string): string | undefined {
  const text = string(value, where);
  if (text === '') return undefined;
  if (!new RegExp(`^[0-9a-fA-F]{${2 * bytes}}$`).test(text)) {
    throw new OtlpDecodeError(`${where}: expected ${2 * bytes} hex digits, got ${JSON.stringify(text)}`);
  }
  return text.toLowerCase();
}

function double(value: unknown, where: string): number {
  if (typeof value === 'number') return value;
  // proto3 JSON: NaN and the infinities as strings; any number may also come as a string.
  if (value === 'NaN') return Number.NaN;
  if (value === 'Infinity') return Number.POSITIVE_INFINITY;
  if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  throw new OtlpDecodeError(`${where}: expected a double`);
}

function anyValue(value: unknown, where: string): ReceivedAttributeValue {
  const v = object(value, where);
  if (!v) return null;
  if (v.stringValue !== undefined && v.stringValue !== null)
    return string(v.stringValue, `${where}.stringValue`);
  if (v.boolValue !== undefined && v.boolValue !== null) {
    if (typeof v.boolValue !== 'boolean') throw new OtlpDecodeError(`${where}.boolValue: expected a boolean`);
    return v.boolValue;
  }
  if (v.intValue !== undefined && v.intValue !== null)
    return plainInt(int64(v.intValue, `${where}.intValue`));
  if (v.doubleValue !== undefined && v.doubleValue !== null)
    return double(v.doubleValue, `${where}.doubleValue`);
  if (v.arrayValue !== undefined && v.arrayValue !== null) {
    const values = array(object(v.arrayValue, `${where}.arrayValue`)?.values, `${where}.arrayValue.values`);
    return values.map((item, i) => anyValue(item, `${where}.arrayValue.values[${i}]`));
  }
  if (v.kvlistValue !== undefined && v.kvlistValue !== null) {
    return attributes(object(v.kvlistValue, `${where}.kvlistValue`)?.values, `${where}.kvlistValue.values`);
  }
  if (v.bytesValue !== undefined && v.bytesValue !== null) {
    // Other bytes fields keep proto3 JSON's base64; only trace and span ids are hex.
    return new Uint8Array(Buffer.from(string(v.bytesValue, `${where}.bytesValue`), 'base64'));
  }
  return null;
}

function attributes(value: unknown, where: string): ReceivedAttributes {
  const out: ReceivedAttributes = {};
  array(value, where).forEach((kv, i) => {
    const entry = object(kv, `${where}[${i}]`);
    if (!entry) return;
    out[string(entry.key, `${where}[${i}].key`)] = anyValue(entry.value, `${where}[${i}].value`);
  });
  return out;
}

function event(value: unknown, where: string): ReceivedSpanEvent {
  const e = object(value, where) ?? {};
  return {
    name: string(e.name, `${where}.name`),
    timeUnixNano: int64(e.timeUnixNano, `${where}.timeUnixNano`).toString(),
    attributes: attributes(e.attributes, `${where}.attributes`),
  };
}

function link(value: unknown, where: string): ReceivedSpanLink {
  const l = object(value, where) ?? {};
  return {
    traceId: hexId(l.traceId, 16, `${where}.traceId`) ?? '',
    spanId: hexId(l.spanId, 8, `${where}.spanId`) ?? '',
    attributes: attributes(l.attributes, `${where}.attributes`),
  };
}

/** Decodes a JSON `ExportTraceServiceRequest` into plain spans; throws `OtlpDecodeError` on bad data. */
export function decodeJsonTraces(text: string): ReceivedSpan[] {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new OtlpDecodeError(`the body is not JSON: ${(error as Error).message}`);
  }
  const request = object(root, 'request') ?? {};
  const spans: ReceivedSpan[] = [];
  array(request.resourceSpans, 'resourceSpans').forEach((rs, r) => {
    const where = `resourceSpans[${r}]`;
    const resourceSpans = object(rs, where) ?? {};
    const resource = attributes(
      object(resourceSpans.resource, `${where}.resource`)?.attributes,
      `${where}.resource.attributes`,
    );
    array(resourceSpans.scopeSpans, `${where}.scopeSpans`).forEach((ss, s) => {
      const at = `${where}.scopeSpans[${s}]`;
      const scopeSpans = object(ss, at) ?? {};
      const scopeJson = object(scopeSpans.scope, `${at}.scope`) ?? {};
      const scope: ReceivedSpan['scope'] = {
        name: string(scopeJson.name, `${at}.scope.name`),
        attributes: attributes(scopeJson.attributes, `${at}.scope.attributes`),
      };
      const version = string(scopeJson.version, `${at}.scope.version`);
      if (version) scope.version = version;
      array(scopeSpans.spans, `${at}.spans`).forEach((sp, i) => {
        const w = `${at}.spans[${i}]`;
        const span = object(sp, w) ?? {};
        const traceId = hexId(span.traceId, 16, `${w}.traceId`);
        const spanId = hexId(span.spanId, 8, `${w}.spanId`);
        if (!traceId || !spanId) throw new OtlpDecodeError(`${w}: a span needs a traceId and a spanId`);
        const start = int64(span.startTimeUnixNano, `${w}.startTimeUnixNano`);
        const end = int64(span.endTimeUnixNano, `${w}.endTimeUnixNano`);
        const statusJson = object(span.status, `${w}.status`) ?? {};
        const status: ReceivedSpan['status'] = { code: enumValue(statusJson.code, `${w}.status.code`) };
        const message = string(statusJson.message, `${w}.status.message`);
        if (message) status.message = message;
        const out: ReceivedSpan = {
          traceId,
          spanId,
          name: string(span.name, `${w}.name`),
          kind: enumValue(span.kind, `${w}.kind`),
          startTimeUnixNano: start.toString(),
          endTimeUnixNano: end.toString(),
          durationMs: Number(end - start) / 1e6,
          attributes: attributes(span.attributes, `${w}.attributes`),
          events: array(span.events, `${w}.events`).map((e, k) => event(e, `${w}.events[${k}]`)),
          links: array(span.links, `${w}.links`).map((l, k) => link(l, `${w}.links[${k}]`)),
          status,
          resource,
          scope,
        };
        const parent = hexId(span.parentSpanId, 8, `${w}.parentSpanId`);
        if (parent) out.parentSpanId = parent;
        const traceState = string(span.traceState, `${w}.traceState`);
        if (traceState) out.traceState = traceState;
        if (span.flags !== undefined && span.flags !== null) out.flags = uint32(span.flags, `${w}.flags`);
        spans.push(out);
      });
    });
  });
  return spans;
}
