"""``reussite serve`` that cannot listen where sysop.ini (or an option) says: two listeners on
one port, a port another program holds, an address this machine does not have.  Each is one
line naming the key (or option) and its value, and exit code 2; never an OSError."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from serverhelp import configure
from waiting import WAIT

from door.config import ConfigError, load_settings
from door.serve.server import serve as serve_door


def serve(home: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "door", "--home", str(home), "serve",
                           "--log-level", "warning", *options],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=WAIT)


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("reussite: "), lines
    assert "Traceback" not in result.stderr and result.stdout == ""
    return lines[0]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_telnet_and_ssh_on_one_port(door_home: Path, workers: str) -> None:
    port = free_port()
    configure(door_home, telnet_port=port, ssh_port=port)
    line = one_line(serve(door_home, "--workers", workers))
    assert line == (f"reussite: {door_home / 'sysop.ini'}: [server] ssh_port = {port}: the "
                    "same port as [server] telnet_port (telnet): each listener needs a port "
                    "of its own")


def test_the_web_on_the_rlogin_port_by_options(door_home: Path) -> None:
    port = free_port()
    line = one_line(serve(door_home, "--telnet-port", "0", "--ssh-port", "-1",
                          "--rlogin-port", str(port), "--web-port", str(port)))
    assert line == (f"reussite: --web-port {port}: the same port as --rlogin-port "
                    "(RLogin): each listener needs a port of its own")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use(door_home: Path, workers: str) -> None:
    with socket.create_server(("127.0.0.1", 0)) as holder:  # another program's listener
        port = holder.getsockname()[1]
        configure(door_home, ssh_port=port)
        line = one_line(serve(door_home, "--telnet-port", "0", "--workers", workers))
    assert line == (f"reussite: {door_home / 'sysop.ini'}: [server] ssh_port = {port}: port "
                    f"{port} on 127.0.0.1 is in use (another program, or another door, "
                    "listens there): choose another port")


@pytest.mark.parametrize(("bind", "says"), [
    ("192.0.2.7", "this machine has no such address: telnet cannot listen there"),
    ("nowhere.invalid", "no such address (the name does not resolve"),
])
def test_an_address_this_machine_lacks(door_home: Path, bind: str, says: str) -> None:
    """A documentation address (no machine has it) and a name that resolves nowhere."""
    configure(door_home, bind=bind)
    line = one_line(serve(door_home, "--telnet-port", "0", "--ssh-port", "-1"))
    assert line.startswith(f"reussite: {door_home / 'sysop.ini'}: [server] bind = {bind}: "
                           f"{says}"), line


async def test_serve_itself_refuses_a_clash_and_a_port_in_use(door_home: Path) -> None:
    """The check is serve()'s own too (a caller of it that skips the command's), and a bind
    that fails once it runs is the same kind of line."""
    port = free_port()
    with pytest.raises(ConfigError, match=rf"^--web-port {port}: the same port as "
                                          r"--telnet-port \(telnet\)"):
        await serve_door(load_settings(door_home), "127.0.0.1", port, ssh_port=-1,
                         web_port=port)
    with socket.create_server(("127.0.0.1", 0)) as holder:
        taken = holder.getsockname()[1]
        configure(door_home, "web", enabled="on", port=taken)
        with pytest.raises(ConfigError, match=rf"\[web\] port = {taken}: port {taken} on "
                                              r"127\.0\.0\.1 is in use"):
            await asyncio.wait_for(serve_door(load_settings(door_home), "127.0.0.1", 0,
                                              ssh_port=-1), WAIT)
