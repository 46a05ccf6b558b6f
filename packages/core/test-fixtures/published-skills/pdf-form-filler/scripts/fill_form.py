"""Fill a PDF form's fields from a JSON file of name -> value."""
import json
import sys

from pypdf import PdfReader, PdfWriter

reader = PdfReader(sys.argv[1])
writer = PdfWriter()
writer.append(reader)
values = json.load(open(sys.argv[2]))
for page in writer.pages:
    writer.update_page_form_field_values(page, values)
with open(sys.argv[3], "wb") as out:
    writer.write(out)
