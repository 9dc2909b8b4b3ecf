"""The shape every export renders: an `ExportTable` of typed `Column`s and rows, the same
for the workbook, the PDF and the print page; and the progress callback of long exports."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["text", "int", "decimal", "date"]
KINDS = ("text", "int", "decimal", "date")
FORMATS = ("xlsx", "pdf", "html")
# Formats an exporter writes itself (`Exporter.render_file`), not from tables.
FILE_FORMATS = ("json",)


# (done, total, unit) -> None; unit is "row", "page" or "step".
Progress = Callable[[int, int, str], None]


@dataclass
class Column:
    key: str
    header: str
    kind: Kind = "text"
    # In characters; None sizes the column from its content.
    width: int | None = None
    # Excel number format; None uses the kind's German default (see xlsx.NUMBER_FORMATS).
    number_format: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r}")

    @property
    def numeric(self) -> bool:
        return self.kind in ("int", "decimal")


@dataclass
class ExportTable:
    """One table: a worksheet in the workbook, a <table> in the PDF and on the print page."""

    title: str
    columns: list[Column]
    # Each row is a mapping keyed by column key, or a sequence in column order.
    rows: list[Mapping[str, Any] | Sequence[Any]] = field(default_factory=list)
    # An optional totals row, in the same shape as a row; written in bold below the rows.
    footer: Mapping[str, Any] | Sequence[Any] | None = None
    # The worksheet name; defaults to the title (cut to Excel's 31 characters).
    sheet_name: str | None = None
    # A column key: the PDF and print page draw a line where its value changes.
    group_by: str | None = None
    # A short table that goes on below the one before it (a summary), not on a new page.
    same_page: bool = False

    def values(self, row) -> list[Any]:
        if isinstance(row, Mapping):
            return [row.get(column.key) for column in self.columns]
        values = list(row)
        return values + [None] * (len(self.columns) - len(values))

    def value_rows(self) -> list[list[Any]]:
        return [self.values(row) for row in self.rows]

    def footer_values(self) -> list[Any] | None:
        return None if self.footer is None else self.values(self.footer)
