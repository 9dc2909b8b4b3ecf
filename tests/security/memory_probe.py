"""Run one import of a file in this process and print what happened and the peak memory.

Used by test_upload_bombs in a subprocess: ``python -m tests.security.memory_probe KIND PATH``
prints one JSON line {"outcome": ..., "message": ..., "peak_mb": ...}.
"""

import json
import os
import resource
import sys
from pathlib import Path


def main(kind: str, path: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "romme.settings")
    os.environ.setdefault("DEBUG", "1")
    import django

    django.setup()
    from django.utils import translation

    translation.activate("de")
    content = Path(path).read_bytes()
    outcome, message = "accepted", ""
    try:
        if kind == "archive":
            from scoring.archive.load import loads
            from scoring.archive.validate import ArchiveError

            try:
                loads(content)
            except ArchiveError as err:
                outcome, message = "refused", err.message
        else:
            from clubs.importing import ImportFileError, read_player_file

            try:
                read_player_file(f"upload.{kind}", content)
            except ImportFileError as err:
                outcome, message = "refused", str(err)
    except BaseException as err:  # a crash is a finding, reported as such
        outcome, message = "crashed", f"{type(err).__name__}: {str(err)[:300]}"
    print(json.dumps({"outcome": outcome, "message": message, "peak_mb": peak_kb() / 1024}))


def peak_kb() -> int:
    """This process's peak resident memory. Linux's VmHWM belongs to this program alone;
    ru_maxrss would also count the parent's memory at fork time (kept across exec)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
