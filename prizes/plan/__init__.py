"""The prize plan and the prize list (page, PDF, XLSX, public prize winners)."""
