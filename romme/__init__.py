"""The project: settings, URLs, the hall mode's process (`romme.hall`), the command line
`romme-ledger` (`romme.cli`), the doctor and the health check. Its version is
`common.version.__version__`."""

from common.version import __version__

__all__ = ["__version__"]
