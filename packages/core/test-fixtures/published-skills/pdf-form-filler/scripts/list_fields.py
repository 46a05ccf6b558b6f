"""List the fillable fields of a PDF form as JSON."""
import json
import sys

from pypdf import PdfReader

fields = PdfReader(sys.argv[1]).get_fields() or {}
json.dump({name: field.get("/FT") for name, field in fields.items()}, sys.stdout, indent=2)
