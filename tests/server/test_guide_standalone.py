"""docs/sysop-standalone.md followed as a new sysop follows it, in a fresh home.

Its commands are read from the page and run as printed, with ``/srv/reussite`` a temporary
folder.  Two lines are not run: ``python3 -m venv`` and ``pip install``, whose virtualenv
is this interpreter's (the home's ``.venv`` is a link to it).  The ports are set in
sysop.ini's ``[server]``, as the page says, to free ones.  Then a real telnet client (GNU
telnet on a pty) makes an account with ``NEW``, ends a game and logs off; the OpenSSH
client comes back with that handle, trusts the host key and gives the password; the log
holds the lines of the Logs section; Ctrl-C stops the door.  The systemd unit's
``ExecStart`` runs in its ``WorkingDirectory`` with its ``LimitNOFILE``, and ``systemctl
stop`` (SIGTERM to every process of the unit) tells the caller what the page quotes.

Processes start outside any timed window, and every wait polls to a deadline.
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import shlex
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from docsnippets import ROOT, Snippet, read
from doorproc import PtyDoor, child_env
from homehelp import configure
from programs import need
from pyteterm import TelnetCaller
from waiting import WAIT, until

GUIDE = ROOT / "docs" / "sysop-standalone.md"
HOME = "/srv/reussite"
HANDLE, PASSWORD = "Alice", "alice-pw9"


def blocks() -> list[Snippet]:
    return read(GUIDE)[0]


def first_start() -> list[str]:
    """The First start block's lines, comments dropped."""
    block = next(b for b in blocks() if b.kind == "sh" and "reussite init" in b.text)
    return [re.sub(r"\s+#.*$", "", line) for line in block.text.splitlines() if line.strip()]


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


def in_home(line: str, home: Path) -> str:
    return line.replace(HOME, str(home))


def set_up(home: Path) -> list[str]:
    """The First start lines up to ``serve``: the virtualenv linked, ``init`` run; returns
    the lines left (``cd … && … serve``)."""
    lines = first_start()
    venv = next(line for line in lines if line.startswith("python3 -m venv "))
    assert venv.split()[-1] == f"{HOME}/.venv", venv
    home.mkdir()
    (home / ".venv").symlink_to(sys.prefix)
    pip = next(line for line in lines if " install " in line)
    assert pip.startswith(f"{HOME}/.venv/bin/pip install "), pip
    init = next(line for line in lines if " init " in line)
    done = subprocess.run(shlex.split(in_home(init, home)), capture_output=True, text=True,
                          env=child_env(), timeout=WAIT)
    assert done.returncode == 0, done.stderr
    assert (home / "sysop.ini").exists() and (home / "data").is_dir()
    return lines[lines.index(init) + 1:]


class Serve:
    """``reussite serve`` as the page starts it; its output in a file."""

    def __init__(self, argv: list[str], cwd: Path, **popen) -> None:
        self.out = cwd / "serve.out"
        with self.out.open("wb") as out:
            self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True, **popen)

    def output(self) -> str:
        return self.out.read_text(encoding="utf-8", errors="replace")

    def answering(self) -> str:
        """Wait for the start-up line that says where the door answers."""
        async def up() -> bool:
            assert self.proc.poll() is None, self.output()
            return "Réussite is answering" in self.output()
        asyncio.run(until(up, "the door answering"))
        return next(line for line in self.output().splitlines()
                    if line.startswith("Réussite is answering"))

    def stop(self, signum: int) -> int:
        """``signum`` to every process of the door (a terminal's Ctrl-C, systemd's stop)."""
        os.killpg(self.proc.pid, signum)
        return self.proc.wait(WAIT)

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "srv-reussite"


def ports_in_ini(home: Path) -> tuple[int, int]:
    telnet, ssh = free_port(), free_port()
    configure(home, "server", telnet_port=telnet, ssh_port=ssh)
    return telnet, ssh


def answering_shape() -> re.Pattern[str]:
    """The page's start-up line, its numbers any numbers."""
    shown = next(b.text for b in blocks() if b.text.startswith("Réussite is answering"))
    return re.compile(re.sub(r"\\?\d+", r"\\d+", re.escape(shown.strip())))


def log_shapes() -> list[re.Pattern[str]]:
    """The Logs section's example lines, as patterns for this caller's."""
    block = next(b.text for b in blocks() if "telnet connect from" in b.text)
    shapes = []
    for line in block.splitlines():
        pattern = re.sub(r"\d+", r"\\d+", re.escape(line.strip()))  # addresses too
        shapes.append(re.compile(pattern.replace("montecarlo", r"\w+").replace("won", r"\w+")))
    return shapes


def client(argv: list[str], home: Path, **options) -> PtyDoor:
    """A program of the system on a UTF-8 pty, answering the door's cursor probe."""
    program = PtyDoor(argv, home, env=child_env(TERM="xterm-256color"), **options)
    program.term.screen.write_process_input = lambda reply: program.send(reply.encode())
    return program


def test_first_start_a_telnet_caller_then_ssh_the_log_and_ctrl_c(home: Path) -> None:
    telnet_client = need("telnet", "apt-get install inetutils-telnet")
    ssh_client = need("ssh", "apt-get install openssh-client")
    serve_line, = set_up(home)
    where, command = (part.strip() for part in in_home(serve_line, home).split("&&"))
    assert where == f"cd {home}"
    telnet_port, ssh_port = ports_in_ini(home)
    serve = Serve(shlex.split(command), home, env=child_env())
    try:
        line = serve.answering()
        assert answering_shape().fullmatch(line), line
        assert f"port {telnet_port} and SSH on port {ssh_port}" in line

        telnet = client([telnet_client, "127.0.0.1", str(telnet_port)], home)
        try:
            telnet.wait_for("Handle:")
            telnet.send(b"NEW\r")
            telnet.wait_for("New user")
            telnet.send(f"{HANDLE}\r".encode())
            telnet.wait_for("Password:")
            telnet.send(f"{PASSWORD}\r".encode())
            telnet.wait_for("Again:")
            telnet.send(f"{PASSWORD}\r".encode())
            telnet.to_menu()
            telnet.send(b"n")  # Anciento, ended at once: a game for the hall of fame
            telnet.wait_for("New Anciento game")
            telnet.send(b"s7\r")
            telnet.wait_for("Anciento #7")
            telnet.send(b"x")
            telnet.wait_for("End the game now")
            telnet.send(b"y")
            telnet.wait_for("Final score")
            telnet.send(b"m")
            telnet.wait_for("Your choice")
            telnet.send(b"q")
            telnet.wait_for("Log off? (Y/n)")
            telnet.send(b"y")
            telnet.wait_for(f"Farewell, {HANDLE}.")
            telnet.send(b" ")
            assert telnet.finish() == 0  # telnet ends when the door hangs up
        finally:
            telnet.close()

        known_hosts = home.parent / "known_hosts"  # not the account's own ~/.ssh
        ssh = client([ssh_client, "-p", str(ssh_port), "-o",
                      f"UserKnownHostsFile={known_hosts}", f"{HANDLE.lower()}@127.0.0.1"],
                     home, controlling=True)
        try:
            ssh.wait_for("continue connecting")
            ssh.send(b"yes\r")
            ssh.wait_for("assword")
            ssh.send(f"{PASSWORD}\r".encode())
            ssh.to_menu()  # straight to the title: no login screen
            ssh.send(b"qy")
            ssh.wait_for(f"Farewell, {HANDLE}.")
            ssh.send(b" ")
            ssh.finish()  # ssh ends when the door hangs up
            assert ssh.proc.poll() is not None
        finally:
            ssh.close()

        log = (home / "data" / "reussite.log").read_text(encoding="utf-8")
        for shape in log_shapes():
            assert any(shape.search(line) for line in log.splitlines()), \
                f"no line like {shape.pattern!r} in data/reussite.log:\n{log}"
        assert f"{HANDLE} finished anciento #7: " in log  # ended at once
        assert serve.stop(signal.SIGINT) == 0  # Ctrl-C in the terminal
    finally:
        serve.close()


def unit() -> dict[str, str]:
    """The page's systemd unit, [Service]'s settings."""
    block = next(b.text for b in blocks() if "/etc/systemd/system/" in b.text)
    service = block.split("[Service]", 1)[1].split("\n[", 1)[0]
    return dict(line.split("=", 1) for line in service.splitlines() if "=" in line)


def stop_notice() -> str:
    """What the Stopping section says every caller is told."""
    found = re.search(r'every caller is told "([^"]+)"', GUIDE.read_text(encoding="utf-8"))
    assert found, "the Stopping section quotes no notice"
    return " ".join(found.group(1).split())


def test_the_systemd_unit_starts_the_door_and_its_stop_tells_the_callers(
        home: Path) -> None:
    set_up(home)
    service = unit()
    assert service["WorkingDirectory"] == HOME
    argv = shlex.split(in_home(service["ExecStart"], home))
    assert argv[0] == f"{home}/.venv/bin/reussite"
    files = int(service["LimitNOFILE"])
    telnet_port, _ = ports_in_ini(home)

    def limits() -> None:  # what systemd applies before it starts the program
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        wanted = files if hard == resource.RLIM_INFINITY else min(files, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))

    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}  # no $HOME, no TERM
    serve = Serve(argv, Path(in_home(service["WorkingDirectory"], home)), env=env,
                  preexec_fn=limits)
    try:
        serve.answering()

        async def a_caller_told() -> str:
            caller = await TelnetCaller.connect(telnet_port)
            await caller.wait_for("Handle:")
            code = await asyncio.get_running_loop().run_in_executor(
                None, serve.stop, signal.SIGTERM)  # systemctl stop: the whole unit
            await caller.wait_for(stop_notice())
            await caller.wait_closed()
            return str(code)

        assert asyncio.run(a_caller_told()) == "0"
    finally:
        serve.close()
