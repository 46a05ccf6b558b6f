/** A request body that is not a valid `ExportTraceServiceRequest`: the receiver answers 400 (Bad Data). */
export class OtlpDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtlpDecodeError';
  }
}
