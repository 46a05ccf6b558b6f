export { OtlpDecodeError } from './otlp-decode-error.js';
export { startOtlpReceiver } from './start-otlp-receiver.js';
export type {
  OtlpReceiver,
  OtlpReceiverOptions,
  ReceivedAttributes,
  ReceivedAttributeValue,
  ReceivedExport,
  ReceivedSpan,
  ReceivedSpanEvent,
  ReceivedSpanLink,
} from './types.js';
