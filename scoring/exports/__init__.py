"""One exporter registry for every export: XLSX, PDF and print page from one table definition."""
