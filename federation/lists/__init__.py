"""The members' ranking list (national or of one region) and a player's card, read from the
newest snapshot: their pages, the sortable list table and the prints (PDF, XLSX, print page
through the one exporter registry)."""
