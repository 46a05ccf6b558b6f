import { readFile } from 'node:fs/promises';
import { htmlToPage } from '../web/html-to-page.js';
import { type AttachmentFormat, attachmentFormat } from './attachment-format.js';
import { extractDocxText, extractPdfText, extractXlsxText } from './extract-document-text.js';

/** An attachment read as text, or the plain reason it cannot be. */
export type AttachmentText =
  | { format: AttachmentFormat; text: string; summary: string; readable: true }
  | { format: AttachmentFormat; reason: string; readable: false };

function unreadable(format: AttachmentFormat, why: string): AttachmentText {
  return { format, readable: false, reason: why };
}

function decodeUtf8(bytes: Uint8Array): string {
  // A byte-order mark is not part of the text; invalid sequences become U+FFFD rather than failing.
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
}

function lines(text: string): string {
  const n = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return `${n} line${n === 1 ? '' : 's'}`;
}

/**
 * Reads a task attachment as text: plain text and code, CSV, JSON (pretty-printed), HTML (visible text),
 * .xlsx (every sheet as CSV, through exceljs), PDF (text per page, through unpdf/pdf.js) and .docx (through
 * mammoth). Images, audio and video are not turned into text: the result says so and names the type, so
 * the model knows it was not shown the content (no OCR, vision or transcription here).
 */
export async function readAttachment(path: string, bytes?: Uint8Array): Promise<AttachmentText> {
  const data = bytes ?? new Uint8Array(await readFile(path));
  const format = attachmentFormat(path, data);
  switch (format.kind) {
    case 'image':
      return unreadable(
        format,
        `it is an image (${format.label}${format.mediaType ? `, ${format.mediaType}` : ''}); read_file returns text only and this setup has no vision or OCR tool`,
      );
    case 'audio':
      return unreadable(
        format,
        `it is an audio file (${format.label}${format.mediaType ? `, ${format.mediaType}` : ''}); read_file returns text only and this setup has no speech-to-text tool`,
      );
    case 'video':
      return unreadable(
        format,
        `it is a video (${format.label}${format.mediaType ? `, ${format.mediaType}` : ''}); read_file returns text only`,
      );
    case 'unsupported':
      return unreadable(format, `read_file cannot read this format: ${format.label}`);
    case 'xlsx': {
      try {
        const { text, sheets } = await extractXlsxText(data);
        return { format, readable: true, text, summary: `${sheets} sheet${sheets === 1 ? '' : 's'}` };
      } catch (error) {
        return unreadable(format, `the workbook could not be parsed (${(error as Error).message})`);
      }
    }
    case 'pdf': {
      try {
        const { text, pages } = await extractPdfText(data);
        const empty = text.replace(/## Page \d+/g, '').trim() === '';
        const summary = `${pages} page${pages === 1 ? '' : 's'}${empty ? ', no text layer (a scan?)' : ''}`;
        return { format, readable: true, text, summary };
      } catch (error) {
        return unreadable(format, `the PDF could not be parsed (${(error as Error).message})`);
      }
    }
    case 'docx': {
      try {
        const { text } = await extractDocxText(data);
        return { format, readable: true, text, summary: lines(text) };
      } catch (error) {
        return unreadable(format, `the document could not be parsed (${(error as Error).message})`);
      }
    }
    case 'json': {
      const raw = decodeUtf8(data);
      try {
        const text = JSON.stringify(JSON.parse(raw), null, 2);
        return { format, readable: true, text, summary: 'pretty-printed' };
      } catch {
        return { format, readable: true, text: raw, summary: 'not valid JSON, shown as it is' };
      }
    }
    case 'html': {
      const page = htmlToPage(decodeUtf8(data), 'file:///');
      const text = page.title ? `${page.title}\n\n${page.text}` : page.text;
      return { format, readable: true, text, summary: 'visible text' };
    }
    case 'csv': {
      const text = decodeUtf8(data);
      return { format, readable: true, text, summary: lines(text) };
    }
    default: {
      const text = decodeUtf8(data);
      return { format, readable: true, text, summary: lines(text) };
    }
  }
}
