"""Where the door's home is (README "Where things live"), and ``reussite init``: --home first,
then the folder holding sysop.ini from the current folder up, then $REUSSITE_HOME; ``init``
writes the package's own sysop.ini (a file of its own, kept equal to the repository's),
never a sysop's edited copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
DEFAULTS = REPO / "door" / "defaults" / "sysop.ini"


def run(*args: str, cwd: Path, home_env: Path | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "REUSSITE_HOME"}
    if home_env is not None:
        env["REUSSITE_HOME"] = str(home_env)
    return subprocess.run([sys.executable, "-m", "door", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60)


def marked_home(folder: Path) -> Path:
    """A home whose sysop.ini stops `serve` at once with an error naming that file."""
    folder.mkdir(parents=True)
    (folder / "sysop.ini").write_text("[server]\nmax_nodes = 0\n", encoding="utf-8")
    return folder


def chosen(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2 and "max_nodes" in result.stderr, result.stderr
    return Path(result.stderr.split(": ", 1)[1].split(":", 1)[0]).parent.name


@pytest.mark.slow
def test_home_is_chosen_in_the_order_the_readme_gives(tmp_path: Path) -> None:
    given, found, from_env = (marked_home(tmp_path / name) for name in ("given", "found", "env"))
    below = found / "below"
    below.mkdir()
    assert chosen(run("--home", str(given), "serve", cwd=below, home_env=from_env)) == "given"
    assert chosen(run("serve", cwd=below, home_env=from_env)) == "found"
    assert chosen(run("serve", cwd=tmp_path, home_env=from_env)) == "env"
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    assert ("`--home DIR` when given, else the folder holding `sysop.ini` (the current folder "
            "or a parent), else `$REUSSITE_HOME`") in readme


@pytest.mark.slow
def test_init_takes_its_folder_as_dir_or_as_home(tmp_path: Path) -> None:
    made = run("init", "--home", str(tmp_path / "a"), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "a" / "sysop.ini").is_file() and (tmp_path / "a" / "data").is_dir()
    same = run("--home", str(tmp_path / "b"), "init", str(tmp_path / "b"), cwd=tmp_path)
    assert same.returncode == 0 and (tmp_path / "b" / "sysop.ini").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--home", "one", "init", "two"], ["init"]])
def test_init_refuses_two_folders_or_none(args: list[str], tmp_path: Path) -> None:
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("reussite: init")
    assert list(tmp_path.iterdir()) == []  # nothing made


@pytest.mark.slow
def test_init_writes_the_packages_file_not_the_sysops(tmp_path: Path) -> None:
    """A sysop who edits the checkout's sysop.ini (its boards' secrets, say) and then makes
    another home gets the commented defaults there, not their edits."""
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO / "door", checkout / "door", symlinks=True,  # links stay links
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(REPO / "ansi", checkout / "ansi")
    (checkout / "sysop.ini").write_text("[boards]\nXA = my-own-secret | 127.0.0.1\n", "utf-8")
    result = run("init", str(tmp_path / "new"), cwd=checkout)  # python -m: the copy's door
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "new" / "sysop.ini").read_bytes() == DEFAULTS.read_bytes()


def test_the_defaults_are_a_file_equal_to_the_repositorys() -> None:
    """door/defaults/sysop.ini is what init writes; sysop.ini at the root is the one a sysop
    running from the checkout edits.  In the repository they are the same file: after
    changing the root one, `cp sysop.ini door/defaults/sysop.ini`."""
    assert DEFAULTS.is_file() and not DEFAULTS.is_symlink()
    root, defaults = committed("sysop.ini"), committed("door/defaults/sysop.ini")
    if root is None or defaults is None:  # not a git checkout: the files as unpacked
        root, defaults = (REPO / "sysop.ini").read_bytes(), DEFAULTS.read_bytes()
    assert root == defaults, "cp sysop.ini door/defaults/sysop.ini (and commit both)"


def committed(path: str) -> bytes | None:
    """``path`` as git's index holds it (what a commit takes), or None outside git."""
    git = shutil.which("git")
    if git is None:
        return None
    result = subprocess.run([git, "-C", str(REPO), "show", f":{path}"], capture_output=True,
                            timeout=60)
    return result.stdout if result.returncode == 0 else None
