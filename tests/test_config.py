"""sysop.ini: defaults, every kind of mistake as one clear line, exit code 2, no traceback."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from waiting import WAIT

from door.config import ConfigError, default_menu, load_settings, parse_settings

REPO = Path(__file__).resolve().parent.parent


def test_repository_sysop_ini_is_the_defaults(tmp_path: Path) -> None:
    settings = load_settings(REPO)
    empty = parse_settings("", tmp_path)
    assert settings.server == empty.server
    assert settings.limits == empty.limits
    assert settings.menu == default_menu() == empty.menu
    assert settings.server.bind == "127.0.0.1"
    assert (settings.server.telnet_port, settings.server.ssh_port) == (2323, 2222)
    assert empty.database_url == f"sqlite+aiosqlite:///{tmp_path / 'data' / 'reussite.db'}"
    assert settings.web == empty.web and not settings.web.enabled  # the web door is opt-in


def test_every_key_of_the_repository_file_is_commented() -> None:
    lines = (REPO / "sysop.ini").read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        key = line.lstrip(";").split("=")[0].strip()
        is_key = "=" in line and not line.startswith("; ") and key.replace("_", "").isalnum()
        if is_key and not line.startswith(";") and key not in {e.action for e in default_menu()}:
            assert lines[number - 1].startswith(";"), f"line {number + 1} has no comment: {line}"


@pytest.mark.parametrize(("text", "expected"), [
    ("[sever]\nbind = 127.0.0.1\n", ":1: [sever]: unknown section (expected one of"),
    ("[server]\nbnd = 127.0.0.1\n", ":2: [server] bnd: unknown key (expected one of bind,"),
    ("[server]\n\ntelnet_port = lots\n", ":3: [server] telnet_port: expected a whole number "
                                       "1–65535, got 'lots'"),
    ("[server]\ntelnet_port = 70000\n", ":2: [server] telnet_port: expected a whole number"),
    ("[limits]\nidle_timeout = 5\n", ":2: [limits] idle_timeout: expected a whole number 60–"),
    ("[database]\nurl = mysql://x\n", ":2: [database] url: expected empty (SQLite"),
    ("[montecarlo]\nconsolidation = loose\n", ":2: [montecarlo] consolidation: expected one of:"
                                              " strict, relaxed, got 'loose'"),
    ("[anciento]\nboard = 9x9\n", ":2: [anciento] board: expected one of: 8x12, 8x8"),
    ("[anciento]\neasy = maybe\n", ":2: [anciento] easy: expected on or off, got 'maybe'"),
    ("[mariant]\nface_down = 5\nface_up = 4\n", ":3: [mariant] face_up: expected face_down + "
                                                 "face_up ≤ 7"),
    ("bind = 1\n", ":1: expected a [section] header before 'bind = 1'"),
    ("[server]\nbind = a\nbind = b\n", ":3: [server] bind: key appears twice"),
    ("[server]\njust words\n", ":2: expected `key = value`, got 'just words'"),
    ("[menu]\nchess = C | Chess | on\nquit = Q | Quit | on\n",
     ":2: [menu] chess: unknown action (expected one of mariant,"),
    ("[menu]\nmariant = M | Mariant\nquit = Q | Quit | on\n",
     ":2: [menu] mariant: expected `hot key | label | on or off`"),
    ("[menu]\nmariant = MM | Mariant | on\nquit = Q | Quit | on\n",
     ":2: [menu] mariant: expected a one-character letter or digit hot key, got 'MM'"),
    ("[menu]\nmariant = Q | Mariant | on\nquit = q | Quit | on\n",
     ":3: [menu] quit: hot key Q is already used by mariant"),
    ("[menu]\nmariant = M | Mariant | sometimes\nquit = Q | Quit | on\n",
     ":2: [menu] mariant: expected on or off"),
    ("[menu]\nmariant = M | Mariant | on\nquit = Q | Quit | off\n",
     ":1: [menu]: expected an enabled quit entry"),
    ("[door]\ngoodbye_pause = 61\n", ":2: [door] goodbye_pause: expected seconds 0–60"),
    ("[server]\nrlogin_port = maybe\n", ":2: [server] rlogin_port: expected off or a port "
                                        "number 1–65535, got 'maybe'"),
    ("[server]\nworkers = 0\n", ":2: [server] workers: expected auto or a number of "
                              "processes 1–64, got '0'"),
    ("[boards]\nX-A = secret-123 | 127.0.0.1\n",
     ":2: [boards] x-a: expected a tag of 1 to 8 letters or digits"),
    ("[boards]\nXA = secret-123\n", ":2: [boards] xa: expected `secret | addresses | name`"),
    ("[boards]\nXA = short | 127.0.0.1\n",
     ":2: [boards] xa: expected a secret of at least 8 characters without spaces"),
    ("[boards]\nXA = secret-123 | localhost\n",
     ":2: [boards] xa: 'localhost' is not an IP address or network"),
    ("[boards]\nXA = secret-123 |  | Xanadu\n", ":2: [boards] xa: expected the board's "
                                                 "addresses"),
    ("[boards]\nXA = secret-123 | 10.0.0.1\nYB = secret-123 | 10.0.0.2\n",
     ":3: [boards] yb: the same secret as board XA: give each board its own"),
])
def test_bad_config_names_file_line_section_key(tmp_path: Path, text: str,
                                                expected: str) -> None:
    (tmp_path / "sysop.ini").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(tmp_path)
    message = str(error.value)
    assert message.startswith(str(tmp_path / "sysop.ini") + ":")
    assert expected in message
    assert "\n" not in message


@pytest.mark.parametrize(("text", "expected"), [
    ("[web]\nenabled = maybe\n", ":2: [web] enabled: expected on or off, got 'maybe'"),
    ("[web]\nport = 0\n", ":2: [web] port: expected a whole number 1–65535, got '0'"),
    ("[web]\ntls_cert = cert.pem\n", ":2: [web] tls_cert: expected tls_cert and tls_key "
                                      "together (or neither)"),
    ("[web]\norigins = bbs.example.org\n", ":2: [web] origins: expected origins such as "
                                            "https://bbs.example.org"),
    ("[web]\nproxies = proxy.lan\n", ":2: [web] proxies: expected IP addresses or networks"),
    ("[web]\ncache_seconds = 900\n", ":2: [web] cache_seconds: expected seconds 0–300"),
    ("[web]\nconnections_per_address = 0\n", ":2: [web] connections_per_address: expected a "
                                             "whole number 1–10000"),
    ("[web]\nmax_connections = lots\n", ":2: [web] max_connections: expected a whole number"),
])
def test_bad_web_settings(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_settings(text, tmp_path)
    assert expected in str(err.value)


def test_web_settings(tmp_path: Path) -> None:
    web = parse_settings("[web]\nenabled = on\nbind = ::1\nport = 8080\n"
                         "tls_cert = tls/cert.pem\ntls_key = tls/key.pem\n"
                         "origins = https://BBS.example.org/, http://[::1]:8080\n"
                         "proxies = 127.0.0.1, ::1\n", tmp_path)
    assert (web.web.enabled, web.web.bind, web.web.port) == (True, "::1", 8080)
    assert web.web.origins == ("https://bbs.example.org", "http://[::1]:8080")
    assert [str(n) for n in web.web.proxies] == ["127.0.0.1/32", "::1/128"]
    assert web.web_tls == (tmp_path / "tls/cert.pem", tmp_path / "tls/key.pem")


def test_boards_and_rlogin_port(tmp_path: Path) -> None:
    settings = parse_settings("[server]\nrlogin_port = 2513\n[boards]\n"
                              "xa = s3cret-xa | 203.0.113.7, 2001:db8::/64 | Xanadu BBS\n"
                              "YB2 = s3cret-yb | 198.51.100.0/24\n", tmp_path)
    assert settings.server.rlogin_port == 2513
    xa, yb = settings.boards
    assert (xa.tag, xa.secret, xa.name, yb.tag, yb.name) == ("XA", "s3cret-xa", "Xanadu BBS",
                                                             "YB2", "")
    assert xa.allows("203.0.113.7") and xa.allows("2001:db8::5")
    assert xa.allows("::ffff:203.0.113.7")  # an IPv4 caller on a dual-stack listener
    assert not xa.allows("203.0.113.8") and not xa.allows("bbs.example")
    assert yb.allows("198.51.100.200") and not yb.allows("203.0.113.7")
    assert parse_settings("", tmp_path).server.rlogin_port is None
    assert parse_settings("[server]\nrlogin_port = off\n", tmp_path).server.rlogin_port is None


def test_workers_auto_or_a_number(tmp_path: Path) -> None:
    assert parse_settings("", tmp_path).server.workers == 0  # auto: one per core
    assert parse_settings("[server]\nworkers = AUTO\n", tmp_path).server.workers == 0
    assert parse_settings("[server]\nworkers = 3\n", tmp_path).server.workers == 3


def test_a_byte_order_mark_from_notepad_is_accepted(tmp_path: Path) -> None:
    text = (REPO / "sysop.ini").read_text(encoding="utf-8").replace(";max_nodes = 32",
                                                                     "max_nodes = 7")
    (tmp_path / "sysop.ini").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert load_settings(tmp_path).server.max_nodes == 7
    (tmp_path / "sysop.ini").write_bytes(b"\xef\xbb\xbf[server]\nmax_nodes = 9\n")
    assert load_settings(tmp_path).server.max_nodes == 9  # the BOM right before a [section]


@pytest.mark.parametrize("text", [
    "[server]\ntelnet_port = {}\n",
    "[door]\nname = \x01{}\n",
    "[menu]\nmariant = M | Mariant | {}\nquit = Q | Quit | on\n",
    "[menu]\nmariant = {} | Mariant | on\nquit = Q | Quit | on\n",
    "[server]\n{} = 1\n",
    "[{}]\nx = 1\n",
    "{}\n",
    "[server]\n{}\n",
    "[boards]\nxa = s3cret-xa | {}\n",
    "[boards]\nxa = {}\n",
])
def test_an_oversized_bad_value_is_quoted_short(tmp_path: Path, text: str) -> None:
    huge = "x" * 5000
    (tmp_path / "sysop.ini").write_text(text.format(huge), encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_settings(tmp_path)
    message = str(error.value)
    assert "x" * 40 in message and "x" * 61 not in message
    assert len(message) < 300 + len(str(tmp_path)), message
    assert "\n" not in message


def test_bind_takes_several_addresses(tmp_path: Path) -> None:
    settings = parse_settings("[server]\nbind = 127.0.0.1,::1 ,  192.0.2.7\n", tmp_path)
    assert settings.server.bind == "127.0.0.1, ::1, 192.0.2.7"
    with pytest.raises(ConfigError, match=r"\[server\] bind: expected an IP address .* "
                                          r"several separated by commas, got '127.0.0.1,,::1'"):
        parse_settings("[server]\nbind = 127.0.0.1,,::1\n", tmp_path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"sysop\.ini: file not found \(run `reussite init"):
        load_settings(tmp_path)


def _run(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    import os
    environment = {k: v for k, v in os.environ.items() if k != "REUSSITE_HOME"}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "door", *args], cwd=cwd, env=environment,
                          capture_output=True, text=True, timeout=2 * WAIT)


@pytest.mark.slow
def test_cli_config_error_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "sysop.ini").write_text("[server]\ntelnet_port = x\n", encoding="utf-8")
    result = _run("serve", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "sysop.ini:2: [server] telnet_port: expected a whole number" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_cli_without_any_home_says_what_to_do(tmp_path: Path) -> None:
    result = _run("serve", cwd=tmp_path)
    assert result.returncode == 2
    assert "no sysop.ini found" in result.stderr and "reussite init" in result.stderr
    result = _run("--home", str(tmp_path / "nowhere"), "serve", cwd=tmp_path)
    assert result.returncode == 2 and "no such folder" in result.stderr


@pytest.mark.slow
def test_home_from_environment(tmp_path: Path) -> None:
    home = tmp_path / "door"
    assert _run("init", str(home), cwd=tmp_path).returncode == 0
    (home / "sysop.ini").write_text("[server]\nmax_nodes = 0\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = _run("serve", cwd=elsewhere, env={"REUSSITE_HOME": str(home)})
    assert result.returncode == 2 and str(home / "sysop.ini") in result.stderr


@pytest.mark.slow
def test_init_makes_a_working_home(tmp_path: Path) -> None:
    home = tmp_path / "newdoor"
    result = _run("init", str(home), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (home / "sysop.ini").read_bytes() == (REPO / "sysop.ini").read_bytes()
    assert (home / "data").is_dir() and (home / "ansi").is_dir()
    assert load_settings(home).menu == default_menu()
    again = _run("init", str(home), cwd=tmp_path)
    assert again.returncode == 0 and "kept" in again.stdout


@pytest.mark.slow
@pytest.mark.parametrize("command", [[], ["serve"], ["local"], ["init"], ["replay"]])
def test_help_of_every_command(command: list[str], tmp_path: Path) -> None:
    result = _run(*command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("usage: reussite")
    assert "--home" in result.stdout


@pytest.mark.slow
def test_version(tmp_path: Path) -> None:
    """Written once (door/__init__.py): the installed metadata reads it from there."""
    from importlib.metadata import version

    from door import __version__
    from door.compiled import build_name
    result = _run("--version", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"reussite {__version__}, {build_name()}"
    assert version("reussite") == __version__


def test_a_retired_key_is_ignored_with_a_log_line(tmp_path: Path, caplog) -> None:
    """[auntmary] passes is gone (the rules allow three passes only): old files still load."""
    text = "[auntmary]\npasses = 3\nwinnable_only = on\n"
    with caplog.at_level(logging.WARNING, logger="door.config"):
        settings = parse_settings(text, tmp_path)
    assert settings.games["auntmary"].winnable_only is True
    assert not hasattr(settings.games["auntmary"], "passes")
    assert [r.getMessage() for r in caplog.records] == [
        "sysop.ini:2: [auntmary] passes is no longer used (Aunt Mary always has three passes, "
        "as its rules say): ignored, and may be removed"]


@pytest.mark.parametrize("key", ["name", "sysop"])
def test_a_name_of_a_megabyte_is_refused_in_one_short_line(tmp_path: Path, key: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_settings(f"[door]\n{key} = {'N' * 1_000_000}\n", tmp_path)
    message = str(err.value)
    assert f":2: [door] {key}: expected text of at most 40 characters, got 'NNN" in message
    assert message.endswith("(1000000 characters)") and len(message) < 200
    assert parse_settings(f"[door]\n{key} = {'N' * 40}\n", tmp_path)
