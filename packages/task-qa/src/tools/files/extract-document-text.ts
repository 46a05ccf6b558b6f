// The document libraries are loaded on first use: a run that never opens a workbook, a PDF or a Word file
// never loads exceljs, unpdf or mammoth (together several MB of JavaScript).
import type { CellValue, Workbook } from 'exceljs';

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    // Excel dates have no zone; exceljs gives them as UTC. A date without a time reads as the date alone.
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
  }
  if (typeof value === 'object') {
    if ('result' in value && value.result !== undefined) return cellText(value.result as CellValue);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return String(value.error);
    if ('formula' in value || 'sharedFormula' in value) return '';
    return JSON.stringify(value);
  }
  return String(value);
}

/** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Every sheet of an .xlsx as CSV under a `## Sheet: <name> (<rows> rows × <columns> columns)` heading:
 * formula cells show their cached result (exceljs does not recompute), dates ISO 8601, rich text as its
 * plain text. Empty trailing cells of a row are dropped.
 */
export async function extractXlsxText(bytes: Uint8Array): Promise<{ text: string; sheets: number }> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook: Workbook = new ExcelJS.Workbook();
  // exceljs's typings want a Node Buffer; the bytes are one.
  await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as never);
  const parts: string[] = [];
  for (const sheet of workbook.worksheets) {
    const rows: string[] = [];
    let width = 0;
    for (let r = 1; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const cells: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) cells.push(cellText(row.getCell(c).value));
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      width = Math.max(width, cells.length);
      rows.push(cells.map(csvField).join(','));
    }
    while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
    parts.push(`## Sheet: ${sheet.name} (${rows.length} rows × ${width} columns)\n${rows.join('\n')}`);
  }
  return { text: parts.join('\n\n'), sheets: workbook.worksheets.length };
}

/** The text of each page of a PDF (pdf.js through unpdf), under `## Page N` headings. */
export async function extractPdfText(bytes: Uint8Array): Promise<{ text: string; pages: number }> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  // pdf.js takes ownership of (and detaches) the buffer it is given: hand it a copy.
  const document = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { totalPages, text } = await extractText(document, { mergePages: false });
    const pages = text.map((page, i) => `## Page ${i + 1}\n${page.trim()}`);
    return { text: pages.join('\n\n'), pages: totalPages };
  } finally {
    await document.loadingTask.destroy();
  }
}

/** The raw text of a .docx (mammoth): paragraphs separated by blank lines. */
export async function extractDocxText(bytes: Uint8Array): Promise<{ text: string; warnings: number }> {
  const mammoth = await import('mammoth');
  const extract = (mammoth.default ?? mammoth).extractRawText;
  const result = await extract({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  return { text: result.value.replace(/\n{3,}/g, '\n\n').trim(), warnings: result.messages.length };
}
