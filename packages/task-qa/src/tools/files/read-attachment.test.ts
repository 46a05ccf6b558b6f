import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { attachmentFormat } from './attachment-format.js';
import { readAttachment } from './read-attachment.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../../test-fixtures/attachments/${name}`, import.meta.url));

async function textOf(name: string): Promise<string> {
  const read = await readAttachment(fixture(name));
  if (!read.readable) throw new Error(`${name}: ${read.reason}`);
  return read.text;
}

describe('readAttachment', () => {
  it('reads text, CSV and JSON (pretty-printed) as they are', async () => {
    expect(await textOf('plain.txt')).toBe('line one\nline two\n');
    expect(await textOf('sales.csv')).toBe('month,revenue_usd\nJanuary,1200\nFebruary,950\n');
    expect(await textOf('data.json')).toBe(
      '{\n  "name": "skillrl",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "count": 3\n}',
    );
    const csv = await readAttachment(fixture('sales.csv'));
    expect(csv).toMatchObject({ readable: true, summary: '3 lines', format: { kind: 'csv', label: 'CSV' } });
  });

  it('reads an HTML file as its visible text, without scripts', async () => {
    const text = await textOf('menu.html');
    expect(text).toContain('Menu');
    expect(text).toContain('Soup: 4 EUR');
    expect(text).not.toContain('bad()');
  });

  it('reads every sheet of an .xlsx as CSV: formula results, ISO dates, quoted commas (exceljs)', async () => {
    expect(await textOf('visits.xlsx')).toBe(
      [
        '## Sheet: Visits (4 rows × 3 columns)',
        'city,visitors,opened',
        'Oslo,120,2021-05-17',
        '"Bergen, west",80,2019-01-02',
        'total,200',
        '',
        '## Sheet: Notes (2 rows × 1 columns)',
        'note',
        'second sheet',
      ].join('\n'),
    );
    const read = await readAttachment(fixture('visits.xlsx'));
    expect(read).toMatchObject({ readable: true, summary: '2 sheets' });
  });

  it('reads a PDF page by page (unpdf) and a .docx as paragraphs (mammoth)', async () => {
    expect(await textOf('report.pdf')).toBe(
      '## Page 1\nAnnual report 2024\nTotal staff: 42\n\n## Page 2\nPage two\nOffices: Oslo and Bergen',
    );
    expect(await readAttachment(fixture('report.pdf'))).toMatchObject({ summary: '2 pages' });
    expect(await textOf('notes.docx')).toBe('Meeting notes\n\nThe budget is 900 euros.');
  });

  it('says plainly that an image or audio file cannot be read, naming its type', async () => {
    const image = await readAttachment(fixture('pixel.png'));
    expect(image.readable).toBe(false);
    if (!image.readable)
      expect(image.reason).toMatch(/^it is an image \(PNG image, image\/png\); .*no vision or OCR/);
    const audio = await readAttachment(fixture('clip.mp3'));
    if (audio.readable) throw new Error('audio read as text');
    expect(audio.reason).toMatch(/^it is an audio file \(MP3 audio, audio\/mpeg\); .*no speech-to-text/);
  });

  it('names a file by its bytes when the extension is missing or wrong, and refuses unknown binary', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(attachmentFormat('scan', png)).toMatchObject({ kind: 'image', mediaType: 'image/png' });
    expect(attachmentFormat('scan.txt', new TextEncoder().encode('%PDF-1.4\n'))).toMatchObject({
      kind: 'pdf',
    });
    expect(attachmentFormat('blob.bin', new Uint8Array([1, 0, 2, 3]))).toMatchObject({
      kind: 'unsupported',
      label: 'binary file (.bin) of unknown type',
    });
    expect(attachmentFormat('slides.pptx', new Uint8Array([0x50, 0x4b, 3, 4]))).toMatchObject({
      kind: 'unsupported',
    });
    expect(attachmentFormat('code.py', new TextEncoder().encode('print(1)\n'))).toMatchObject({
      kind: 'text',
      label: 'text (.py)',
    });
    const broken = await readAttachment('broken.xlsx', new Uint8Array([0x50, 0x4b, 3, 4, 9, 9]));
    expect(broken).toMatchObject({ readable: false });
    if (!broken.readable) expect(broken.reason).toMatch(/^the workbook could not be parsed/);
  });
});
