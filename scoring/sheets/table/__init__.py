"""Phones at the table: table links and seat codes, PINs, one hand at a time entered and
confirmed by the table, the phone page and the director's page of a series' links.

A phone's hand takes the sheet's own route (`scoring.sheets.grid`, `storage`)."""
