"""The build of the package romme-ledger (the metadata is in pyproject.toml).

One step more than setuptools' own: the project's top-level folders templates/, static/ and
locale/ (with the compiled .mo catalogues) are copied into the package romme of the wheel
(romme/templates, romme/static, romme/locale), where `romme.settings` finds them in an
installed copy; in the source tree they stay where developers have them."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
ASSETS = ("templates", "static", "locale")
# The catalogues' sources (.po) are for translators; the app reads the compiled .mo.
LEFT_OUT = shutil.ignore_patterns("*.po", "*~", ".*", "__pycache__")


class BuildWithAssets(build_py):
    def run(self):
        super().run()
        for name in ASSETS:
            source = ROOT / name
            if not source.is_dir():
                raise SystemExit(f"setup.py: the folder {name}/ is missing from the source")
            target = Path(self.build_lib) / "romme" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target, ignore=LEFT_OUT)
        missing = sorted(
            str(po.relative_to(ROOT))
            for po in (ROOT / "locale").glob("*/LC_MESSAGES/django.po")
            if not po.with_suffix(".mo").is_file()
        )
        if missing:
            raise SystemExit(f"setup.py: not compiled (make messages): {', '.join(missing)}")


setup(cmdclass={"build_py": BuildWithAssets})
