"""The file formats of the exporter registry: XLSX (openpyxl, write-only) and PDF (WeasyPrint,
laid out in parts by worker processes for long prints)."""
