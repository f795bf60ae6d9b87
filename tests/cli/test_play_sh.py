"""``./play.sh`` installs only when the sources changed since its last install.

The script is run for real (a real venv, a real ``pip install .``) on a small
project laid out as unokart is (pyproject.toml, src/unokart with an ``unokart``
command; a build backend of a few lines so that nothing is downloaded), outside
any git checkout: installing the real unokart would compile the rules core with
mypyc for half a minute per install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PYPROJECT = """\
[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]
"""

# A build backend in the project itself (PEP 517): pip builds and installs a real wheel
# in a second, with nothing to download.
BACKEND = """\
import base64, hashlib, os, zipfile

NAME, VERSION = "unokart", "0.0.1"
INFO = f"{NAME}-{VERSION}.dist-info"


def _files():
    yield f"{INFO}/METADATA", f"Metadata-Version: 2.1\\nName: {NAME}\\nVersion: {VERSION}\\n".encode()
    yield f"{INFO}/WHEEL", b"Wheel-Version: 1.0\\nGenerator: backend\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
    yield f"{INFO}/entry_points.txt", b"[console_scripts]\\nunokart = unokart.cli:main\\n"
    for folder, _dirs, names in os.walk("src"):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                yield os.path.relpath(path, "src"), handle.read()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    filename = f"{NAME}-{VERSION}-py3-none-any.whl"
    record = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w") as wheel:
        for arcname, data in _files():
            wheel.writestr(arcname, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{arcname},sha256={digest},{len(data)}")
        wheel.writestr(f"{INFO}/RECORD", "\\n".join(record + [f"{INFO}/RECORD,,"]) + "\\n")
    return filename
"""


def _project(root: Path, says: str) -> None:
    (root / "src" / "unokart").mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    (root / "backend.py").write_text(BACKEND)
    (root / "src" / "unokart" / "__init__.py").write_text("")
    (root / "src" / "unokart" / "cli.py").write_text(
        f"import sys\n\ndef main():\n    print({says!r}, *sys.argv[1:])\n")
    shutil.copy(REPO / "play.sh", root / "play.sh")


def _play(root: Path, *args: str) -> str:
    # Without the caller's PYTHONPATH: a checkout's src on it would be imported instead of the small project's.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(["bash", str(root / "play.sh"), *args], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _installed(root: Path) -> int:
    """When the installed package was last written (its dist-info RECORD)."""
    records = list((root / ".venv").glob("lib/python*/site-packages/unokart-*.dist-info/RECORD"))
    assert len(records) == 1, records
    return records[0].stat().st_mtime_ns


def test_play_sh_installs_once_and_again_only_after_a_source_changes(tmp_path):
    _project(tmp_path, "v1")
    assert _play(tmp_path, "--port", "9000") == "v1 serve --port 9000"  # installed, then `unokart serve ARGS`
    first = _installed(tmp_path)

    assert _play(tmp_path) == "v1 serve"
    assert _installed(tmp_path) == first, "the second start installed again, though nothing changed"

    (tmp_path / "src" / "unokart" / "cli.py").write_text(
        "import sys\n\ndef main():\n    print('v2', *sys.argv[1:])\n")
    assert _play(tmp_path) == "v2 serve"  # an edit is installed before the server starts
    assert _installed(tmp_path) != first

    (tmp_path / ".venv" / "bin" / "unokart").unlink()  # an install someone removed is made again
    assert _play(tmp_path) == "v2 serve"
