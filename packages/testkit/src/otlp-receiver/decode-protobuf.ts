import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { OtlpDecodeError } from './otlp-decode-error.js';
import { plainInt } from './plain-int.js';
import type {
  ReceivedAttributes,
  ReceivedAttributeValue,
  ReceivedSpan,
  ReceivedSpanEvent,
  ReceivedSpanLink,
} from './types.js';

// The binary `ExportTraceServiceRequest` (opentelemetry/proto/collector/trace/v1/trace_service.proto and
// trace/v1/trace.proto, common/v1/common.proto, resource/v1/resource.proto), read field by field: only what
// a span needs is kept, every other field is skipped as protobuf readers do with unknown fields.

/** Each field of a length-delimited message, read by `onField` or skipped. */
function fields(
  bytes: Uint8Array,
  onField: (no: number, wire: WireType, reader: BinaryReader) => boolean,
): void {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [no, wire] = reader.tag();
    if (!onField(no, wire, reader)) reader.skip(wire, no);
  }
}

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
const big = (value: bigint | string) => (typeof value === 'bigint' ? value : BigInt(value));

function expect(wire: WireType, wanted: WireType, what: string): void {
  if (wire !== wanted) throw new OtlpDecodeError(`${what}: wire type ${wire}, expected ${wanted}`);
}

function anyValue(bytes: Uint8Array): ReceivedAttributeValue {
  let out: ReceivedAttributeValue = null;
  fields(bytes, (no, wire, r) => {
    switch (no) {
      case 1:
        expect(wire, WireType.LengthDelimited, 'AnyValue.string_value');
        out = r.string();
        return true;
      case 2:
        expect(wire, WireType.Varint, 'AnyValue.bool_value');
        out = r.bool();
        return true;
      case 3:
        expect(wire, WireType.Varint, 'AnyValue.int_value');
        out = plainInt(big(r.int64()));
        return true;
      case 4:
        expect(wire, WireType.Bit64, 'AnyValue.double_value');
        out = r.double();
        return true;
      case 5: {
        expect(wire, WireType.LengthDelimited, 'AnyValue.array_value');
        const values: ReceivedAttributeValue[] = [];
        fields(r.bytes(), (n, w, inner) => {
          if (n !== 1) return false;
          expect(w, WireType.LengthDelimited, 'ArrayValue.values');
          values.push(anyValue(inner.bytes()));
          return true;
        });
        out = values;
        return true;
      }
      case 6: {
        expect(wire, WireType.LengthDelimited, 'AnyValue.kvlist_value');
        const list: ReceivedAttributes = {};
        fields(r.bytes(), (n, w, inner) => {
          if (n !== 1) return false;
          expect(w, WireType.LengthDelimited, 'KeyValueList.values');
          keyValue(inner.bytes(), list);
          return true;
        });
        out = list;
        return true;
      }
      case 7:
        expect(wire, WireType.LengthDelimited, 'AnyValue.bytes_value');
        out = new Uint8Array(r.bytes());
        return true;
      default:
        return false;
    }
  });
  return out;
}

function keyValue(bytes: Uint8Array, into: ReceivedAttributes): void {
  let key = '';
  let value: ReceivedAttributeValue = null;
  fields(bytes, (no, wire, r) => {
    if (no === 1) {
      expect(wire, WireType.LengthDelimited, 'KeyValue.key');
      key = r.string();
      return true;
    }
    if (no === 2) {
      expect(wire, WireType.LengthDelimited, 'KeyValue.value');
      value = anyValue(r.bytes());
      return true;
    }
    return false;
  });
  into[key] = value;
}

/** Reads a `repeated KeyValue` field `attributesField` of a message. */
function withAttributes(
  bytes: Uint8Array,
  attributesField: number,
  onOther: (no: number, wire: WireType, r: BinaryReader) => boolean,
): ReceivedAttributes {
  const attributes: ReceivedAttributes = {};
  fields(bytes, (no, wire, r) => {
    if (no === attributesField) {
      expect(wire, WireType.LengthDelimited, 'attributes');
      keyValue(r.bytes(), attributes);
      return true;
    }
    return onOther(no, wire, r);
  });
  return attributes;
}

function event(bytes: Uint8Array): ReceivedSpanEvent {
  const out: ReceivedSpanEvent = { name: '', timeUnixNano: '0', attributes: {} };
  out.attributes = withAttributes(bytes, 3, (no, wire, r) => {
    if (no === 1 && wire === WireType.Bit64) out.timeUnixNano = big(r.fixed64()).toString();
    else if (no === 2 && wire === WireType.LengthDelimited) out.name = r.string();
    else return false;
    return true;
  });
  return out;
}

function link(bytes: Uint8Array): ReceivedSpanLink {
  const out: ReceivedSpanLink = { traceId: '', spanId: '', attributes: {} };
  out.attributes = withAttributes(bytes, 4, (no, wire, r) => {
    if (no === 1 && wire === WireType.LengthDelimited) out.traceId = hex(r.bytes());
    else if (no === 2 && wire === WireType.LengthDelimited) out.spanId = hex(r.bytes());
    else return false;
    return true;
  });
  return out;
}

function span(bytes: Uint8Array, resource: ReceivedAttributes, scope: ReceivedSpan['scope']): ReceivedSpan {
  let start = 0n;
  let end = 0n;
  let traceId = '';
  let spanId = '';
  const rest: Partial<ReceivedSpan> = {};
  const events: ReceivedSpanEvent[] = [];
  const links: ReceivedSpanLink[] = [];
  const status: ReceivedSpan['status'] = { code: 0 };
  let name = '';
  let kind = 0;
  const attributes = withAttributes(bytes, 9, (no, wire, r) => {
    switch (no) {
      case 1:
        expect(wire, WireType.LengthDelimited, 'Span.trace_id');
        traceId = hex(r.bytes());
        return true;
      case 2:
        expect(wire, WireType.LengthDelimited, 'Span.span_id');
        spanId = hex(r.bytes());
        return true;
      case 3:
        expect(wire, WireType.LengthDelimited, 'Span.trace_state');
        rest.traceState = r.string() || undefined;
        return true;
      case 4: {
        expect(wire, WireType.LengthDelimited, 'Span.parent_span_id');
        const parent = r.bytes();
        if (parent.length > 0) rest.parentSpanId = hex(parent);
        return true;
      }
      case 5:
        expect(wire, WireType.LengthDelimited, 'Span.name');
        name = r.string();
        return true;
      case 6:
        expect(wire, WireType.Varint, 'Span.kind');
        kind = r.int32();
        return true;
      case 7:
        expect(wire, WireType.Bit64, 'Span.start_time_unix_nano');
        start = big(r.fixed64());
        return true;
      case 8:
        expect(wire, WireType.Bit64, 'Span.end_time_unix_nano');
        end = big(r.fixed64());
        return true;
      case 11:
        expect(wire, WireType.LengthDelimited, 'Span.events');
        events.push(event(r.bytes()));
        return true;
      case 13:
        expect(wire, WireType.LengthDelimited, 'Span.links');
        links.push(link(r.bytes()));
        return true;
      case 15:
        expect(wire, WireType.LengthDelimited, 'Span.status');
        fields(r.bytes(), (n, w, s) => {
          if (n === 2 && w === WireType.LengthDelimited) {
            const message = s.string();
            if (message) status.message = message;
          } else if (n === 3 && w === WireType.Varint) status.code = s.int32();
          else return false;
          return true;
        });
        return true;
      case 16:
        expect(wire, WireType.Bit32, 'Span.flags');
        rest.flags = r.fixed32();
        return true;
      default:
        return false;
    }
  });
  if (traceId.length !== 32 || spanId.length !== 16) {
    throw new OtlpDecodeError(`a span needs a 16-byte trace_id and an 8-byte span_id (span "${name}")`);
  }
  const out: ReceivedSpan = {
    traceId,
    spanId,
    name,
    kind,
    startTimeUnixNano: start.toString(),
    endTimeUnixNano: end.toString(),
    durationMs: Number(end - start) / 1e6,
    attributes,
    events,
    links,
    status,
    resource,
    scope,
  };
  if (rest.parentSpanId) out.parentSpanId = rest.parentSpanId;
  if (rest.traceState) out.traceState = rest.traceState;
  if (rest.flags !== undefined) out.flags = rest.flags;
  return out;
}

function scopeSpans(bytes: Uint8Array, resource: ReceivedAttributes, into: ReceivedSpan[]): void {
  const scope: ReceivedSpan['scope'] = { name: '', attributes: {} };
  const raw: Uint8Array[] = [];
  fields(bytes, (no, wire, r) => {
    if (no === 1 && wire === WireType.LengthDelimited) {
      scope.attributes = withAttributes(r.bytes(), 3, (n, w, s) => {
        if (n === 1 && w === WireType.LengthDelimited) scope.name = s.string();
        else if (n === 2 && w === WireType.LengthDelimited) {
          const version = s.string();
          if (version) scope.version = version;
        } else return false;
        return true;
      });
      return true;
    }
    if (no === 2) {
      expect(wire, WireType.LengthDelimited, 'ScopeSpans.spans');
      // Spans are decoded once the scope is known (the scope field may come after them).
      raw.push(r.bytes());
      return true;
    }
    return false;
  });
  for (const bytesOfSpan of raw) into.push(span(bytesOfSpan, resource, scope));
}

/** Decodes a binary protobuf `ExportTraceServiceRequest` into plain spans; throws `OtlpDecodeError` on bad data. */
export function decodeProtobufTraces(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  try {
    fields(body, (no, wire, r) => {
      if (no !== 1) return false;
      expect(wire, WireType.LengthDelimited, 'ExportTraceServiceRequest.resource_spans');
      let resource: ReceivedAttributes = {};
      const scopes: Uint8Array[] = [];
      fields(r.bytes(), (n, w, rs) => {
        if (n === 1 && w === WireType.LengthDelimited) {
          resource = withAttributes(rs.bytes(), 1, () => false);
          return true;
        }
        if (n === 2 && w === WireType.LengthDelimited) {
          scopes.push(rs.bytes());
          return true;
        }
        return false;
      });
      for (const scope of scopes) scopeSpans(scope, resource, spans);
      return true;
    });
  } catch (error) {
    if (error instanceof OtlpDecodeError) throw error;
    throw new OtlpDecodeError(
      `the body is not a protobuf ExportTraceServiceRequest: ${(error as Error).message}`,
    );
  }
  return spans;
}
