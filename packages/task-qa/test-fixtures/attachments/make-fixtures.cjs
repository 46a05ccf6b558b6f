// Writes the binary fixtures of this folder. Run it where exceljs and jszip resolve, e.g.
//   mkdir /tmp/fx && (cd /tmp/fx && npm i exceljs@4.4.0 jszip@3.10.1)
//   NODE_PATH=/tmp/fx/node_modules node make-fixtures.cjs .
const fs = require('node:fs');
const path = require('node:path');
const ExcelJS = require('exceljs');
const JSZip = require('jszip');

const out = process.argv[2] ?? __dirname;

/** A minimal PDF with one text line per entry of `pages` (Helvetica, no compression). */
function pdf(pages) {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = pages.map((_, i) => `${3 + i * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  const font = 3 + pages.length * 2;
  pages.forEach((lines, i) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + i * 2} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
    );
    const stream = `BT /F1 12 Tf 72 720 Td ${lines.map((l, j) => `${j ? '0 -16 Td ' : ''}(${l}) Tj`).join(' ')} ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  let body = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

async function docx(paragraphs) {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({
    type: 'nodebuffer',
    compression: 'DEFLATE',
    date: new Date(Date.UTC(2024, 0, 1)),
  });
}

(async () => {
  const workbook = new ExcelJS.Workbook();
  workbook.created = workbook.modified = new Date(Date.UTC(2024, 0, 1));
  const visits = workbook.addWorksheet('Visits');
  visits.addRows([
    ['city', 'visitors', 'opened'],
    ['Oslo', 120, new Date(Date.UTC(2021, 4, 17))],
    ['Bergen, west', 80, new Date(Date.UTC(2019, 0, 2))],
  ]);
  visits.getCell('B4').value = { formula: 'SUM(B2:B3)', result: 200 };
  visits.getCell('A4').value = 'total';
  workbook.addWorksheet('Notes').addRows([['note'], ['second sheet']]);
  fs.writeFileSync(path.join(out, 'visits.xlsx'), Buffer.from(await workbook.xlsx.writeBuffer()));
  fs.writeFileSync(
    path.join(out, 'report.pdf'),
    pdf([
      ['Annual report 2024', 'Total staff: 42'],
      ['Page two', 'Offices: Oslo and Bergen'],
    ]),
  );
  fs.writeFileSync(path.join(out, 'notes.docx'), await docx(['Meeting notes', 'The budget is 900 euros.']));
  // A 1×1 PNG and the first bytes of an MP3 (ID3 tag): enough for read_file to name the type.
  fs.writeFileSync(
    path.join(out, 'pixel.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  fs.writeFileSync(path.join(out, 'clip.mp3'), Buffer.from('494433030000000000000000fffb9064', 'hex'));
})();
