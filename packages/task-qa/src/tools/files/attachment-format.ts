import { extname } from 'node:path';

/** What kind of file an attachment is, and so how `read_file` treats it. */
export type AttachmentKind =
  | 'text'
  | 'csv'
  | 'json'
  | 'html'
  | 'xlsx'
  | 'pdf'
  | 'docx'
  | 'image'
  | 'audio'
  | 'video'
  | 'unsupported';

export interface AttachmentFormat {
  kind: AttachmentKind;
  /** A short name for people and models: `CSV`, `PDF`, `PNG image`. */
  label: string;
  /** The media type, where one is known. */
  mediaType?: string;
}

const TEXT_EXTENSIONS = new Set(
  (
    'txt md markdown rst log tsv jsonl ndjson xml yaml yml toml ini cfg conf tex bib srt vtt sql ' +
    'py js mjs cjs ts tsx jsx c h cpp hpp cc java kt scala go rs rb php pl r jl m swift cs sh bash ' +
    'css scss pdb fasta fa gff gtf sdf mol'
  ).split(' '),
);

const BY_EXTENSION: Record<string, AttachmentFormat> = {
  csv: { kind: 'csv', label: 'CSV', mediaType: 'text/csv' },
  json: { kind: 'json', label: 'JSON', mediaType: 'application/json' },
  jsonld: { kind: 'json', label: 'JSON-LD', mediaType: 'application/ld+json' },
  html: { kind: 'html', label: 'HTML', mediaType: 'text/html' },
  htm: { kind: 'html', label: 'HTML', mediaType: 'text/html' },
  xlsx: {
    kind: 'xlsx',
    label: 'Excel workbook (.xlsx)',
    mediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
  xlsm: {
    kind: 'xlsx',
    label: 'Excel workbook (.xlsm)',
    mediaType: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  },
  pdf: { kind: 'pdf', label: 'PDF', mediaType: 'application/pdf' },
  docx: {
    kind: 'docx',
    label: 'Word document (.docx)',
    mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  png: { kind: 'image', label: 'PNG image', mediaType: 'image/png' },
  jpg: { kind: 'image', label: 'JPEG image', mediaType: 'image/jpeg' },
  jpeg: { kind: 'image', label: 'JPEG image', mediaType: 'image/jpeg' },
  gif: { kind: 'image', label: 'GIF image', mediaType: 'image/gif' },
  bmp: { kind: 'image', label: 'BMP image', mediaType: 'image/bmp' },
  webp: { kind: 'image', label: 'WebP image', mediaType: 'image/webp' },
  tif: { kind: 'image', label: 'TIFF image', mediaType: 'image/tiff' },
  tiff: { kind: 'image', label: 'TIFF image', mediaType: 'image/tiff' },
  svg: { kind: 'image', label: 'SVG image', mediaType: 'image/svg+xml' },
  heic: { kind: 'image', label: 'HEIC image', mediaType: 'image/heic' },
  mp3: { kind: 'audio', label: 'MP3 audio', mediaType: 'audio/mpeg' },
  wav: { kind: 'audio', label: 'WAV audio', mediaType: 'audio/wav' },
  m4a: { kind: 'audio', label: 'M4A audio', mediaType: 'audio/mp4' },
  flac: { kind: 'audio', label: 'FLAC audio', mediaType: 'audio/flac' },
  ogg: { kind: 'audio', label: 'Ogg audio', mediaType: 'audio/ogg' },
  aac: { kind: 'audio', label: 'AAC audio', mediaType: 'audio/aac' },
  mp4: { kind: 'video', label: 'MP4 video', mediaType: 'video/mp4' },
  mov: { kind: 'video', label: 'QuickTime video', mediaType: 'video/quicktime' },
  avi: { kind: 'video', label: 'AVI video', mediaType: 'video/x-msvideo' },
  mkv: { kind: 'video', label: 'Matroska video', mediaType: 'video/x-matroska' },
  webm: { kind: 'video', label: 'WebM video', mediaType: 'video/webm' },
  xls: { kind: 'unsupported', label: 'legacy Excel workbook (.xls)', mediaType: 'application/vnd.ms-excel' },
  doc: { kind: 'unsupported', label: 'legacy Word document (.doc)', mediaType: 'application/msword' },
  pptx: {
    kind: 'unsupported',
    label: 'PowerPoint presentation (.pptx)',
    mediaType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  zip: { kind: 'unsupported', label: 'ZIP archive', mediaType: 'application/zip' },
};

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

/** The few signatures that name a file without an extension (or with a wrong one). */
function sniff(bytes: Uint8Array): AttachmentFormat | undefined {
  const ascii = (at: number, text: string) =>
    startsWith(
      bytes,
      [...text].map((c) => c.charCodeAt(0)),
      at,
    );
  if (ascii(0, '%PDF-')) return BY_EXTENSION.pdf;
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return BY_EXTENSION.png;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return BY_EXTENSION.jpg;
  if (ascii(0, 'GIF8')) return BY_EXTENSION.gif;
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return BY_EXTENSION.webp;
  if (ascii(0, 'RIFF') && ascii(8, 'WAVE')) return BY_EXTENSION.wav;
  if (ascii(0, 'ID3') || startsWith(bytes, [0xff, 0xfb])) return BY_EXTENSION.mp3;
  if (ascii(0, 'OggS')) return BY_EXTENSION.ogg;
  if (ascii(0, 'fLaC')) return BY_EXTENSION.flac;
  if (ascii(4, 'ftyp')) return { kind: 'video', label: 'MP4/QuickTime media', mediaType: 'video/mp4' };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return BY_EXTENSION.zip;
  return undefined;
}

/** Bytes a text file would not hold: NUL, or a high share of control characters. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number;
    if (b === 0) return true;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return n > 0 && control / n > 0.1;
}

/**
 * The format of an attachment: by extension first (GAIA names its files `<task id>.<ext>`), then by the
 * first bytes, so a PDF or an image without an extension is still named rightly. A file whose extension
 * promises text but whose bytes are binary is reported by its signature, or as unknown binary.
 */
export function attachmentFormat(path: string, bytes: Uint8Array): AttachmentFormat {
  const ext = extname(path).slice(1).toLowerCase();
  const known = BY_EXTENSION[ext];
  const sniffed = sniff(bytes);
  if (
    known &&
    known.kind !== 'text' &&
    known.kind !== 'csv' &&
    known.kind !== 'json' &&
    known.kind !== 'html'
  ) {
    // A zip container is what .xlsx/.docx/.pptx are: trust the extension for those.
    return known;
  }
  if (sniffed && sniffed !== BY_EXTENSION.zip) return sniffed;
  if (looksBinary(bytes)) {
    return sniffed ?? { kind: 'unsupported', label: `binary file${ext ? ` (.${ext})` : ''} of unknown type` };
  }
  if (known) return known;
  return { kind: 'text', label: ext && TEXT_EXTENSIONS.has(ext) ? `text (.${ext})` : 'text' };
}
