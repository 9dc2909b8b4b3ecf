"""Template filters of the scoring app: qr_codes (the image of a QR code, in a PDF or on a page)."""
