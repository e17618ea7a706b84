"""Where ``reussite serve`` listens, and why it cannot: each listener named by what set its
port and addresses (a sysop.ini key, or the command-line option that overrides it).

Before anything is bound, two listeners on one port of one address are refused
(:meth:`Plan.check`); a bind that fails (a port another program holds, an address this
machine does not have, a port below 1024 without the right) becomes one line naming the key
and its value (:meth:`Plan.bind_error`): a :class:`ConfigError`, so the command prints it and
exits 2, whether one process answers or a supervisor and its workers do.
"""

from __future__ import annotations

import errno
import socket
from dataclasses import dataclass, replace

from ..config import ConfigError, Settings
from .ports import Ports

WILDCARDS = {"0.0.0.0", "::", ""}


@dataclass(frozen=True)
class Listener:
    what: str  # "telnet", "SSH", "RLogin", "web"
    port: int  # 0: the system picks one
    port_key: str  # "[server] telnet_port", or "--telnet-port"
    hosts: tuple[str, ...]
    hosts_key: str  # "[server] bind", "--bind" or "[web] bind"

    def where(self) -> str:
        """The port as the sysop set it: ``[server] telnet_port = 23`` or
        ``--telnet-port 23``."""
        return _setting(self.port_key, str(self.port))

    def on(self) -> str:
        """The addresses as the sysop set them."""
        return _setting(self.hosts_key, ", ".join(self.hosts))

    @property
    def from_file(self) -> bool:
        """Whether what fails is sysop.ini's (the line then names the file too)."""
        return self.port_key.startswith("[")

    def shares_with(self, other: Listener) -> bool:
        """Both would bind one port of one address (a wildcard address holds them all)."""
        if not self.port or self.port != other.port:
            return False
        mine, theirs = set(self.hosts), set(other.hosts)
        return bool(mine & theirs) or bool((mine | theirs) & WILDCARDS)


def _setting(key: str, value: str) -> str:
    return f"{key} = {value}" if key.startswith("[") else f"{key} {value}"


def _hosts(text: str) -> tuple[str, ...]:
    return tuple(host.strip() for host in text.split(",") if host.strip())


@dataclass(frozen=True)
class Plan:
    """The listeners of one ``serve``: telnet always, SSH, RLogin and the web when on."""

    settings: Settings
    telnet: Listener
    ssh: Listener | None
    rlogin: Listener | None
    web: Listener | None

    @classmethod
    def of(cls, settings: Settings, bind: str, telnet_port: int, ssh_port: int | None = None,
           rlogin_port: int | None = None, web_port: int | None = None) -> Plan:
        """``serve``'s arguments (None: sysop.ini's value; -1: off) as named listeners."""
        server, web = settings.server, settings.web
        hosts = _hosts(bind)
        hosts_key = "[server] bind" if bind == server.bind else "--bind"

        def named(what: str, port: int, key: str, option: str, given: bool,
                  on: tuple[str, ...] = hosts, on_key: str = hosts_key) -> Listener | None:
            if port < 0:
                return None
            return Listener(what, port, option if given else key, on, on_key)

        telnet = named("telnet", telnet_port, "[server] telnet_port", "--telnet-port",
                       telnet_port != server.telnet_port)
        assert telnet is not None
        ssh = named("SSH", server.ssh_port if ssh_port is None else ssh_port,
                    "[server] ssh_port", "--ssh-port", ssh_port is not None)
        sysop_rlogin = -1 if server.rlogin_port is None else server.rlogin_port
        rlogin = named("RLogin", sysop_rlogin if rlogin_port is None else rlogin_port,
                       "[server] rlogin_port", "--rlogin-port", rlogin_port is not None)
        web_hosts = _hosts(web.bind) or hosts
        web_listener = named("web", (web.port if web.enabled else -1) if web_port is None
                             else web_port, "[web] port", "--web-port", web_port is not None,
                             web_hosts, "[web] bind" if _hosts(web.bind) else hosts_key)
        return cls(settings, telnet, ssh, rlogin, web_listener)

    def on_ports(self, ports: Ports) -> Plan:
        """The same listeners on the ports worker 1 got (``serve --workers``)."""
        def moved(listener: Listener | None, port: int | None) -> Listener | None:
            return None if listener is None or port is None else replace(listener, port=port)
        telnet = moved(self.telnet, ports.telnet)
        assert telnet is not None
        return replace(self, telnet=telnet, ssh=moved(self.ssh, ports.ssh),
                       rlogin=moved(self.rlogin, ports.rlogin), web=moved(self.web, ports.web))

    @property
    def listeners(self) -> list[Listener]:
        return [x for x in (self.telnet, self.ssh, self.rlogin, self.web) if x is not None]

    def check(self) -> None:
        """Raise ConfigError when two listeners would share a port of one address."""
        listeners = self.listeners
        for i, first in enumerate(listeners):
            for second in listeners[i + 1:]:
                if first.shares_with(second):
                    raise ConfigError(
                        f"{self._file(second.from_file)}{second.where()}: the same port as "
                        f"{first.port_key} ({first.what}): each listener needs a port of its "
                        "own")

    def probe(self) -> None:
        """Bind each fixed port as it will be bound, then let it go: a port in use or an
        address this machine lacks is found before any worker starts (ConfigError).  Port
        0 (the system picks) is bound too: the address must exist."""
        for listener in self.listeners:
            for host in listener.hosts:
                try:
                    infos = socket.getaddrinfo(host or None, listener.port,
                                               type=socket.SOCK_STREAM,
                                               flags=socket.AI_PASSIVE)
                    for family, kind, proto, _, address in infos:
                        with socket.socket(family, kind, proto) as probe:
                            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                            if family == socket.AF_INET6:
                                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                            probe.bind(address)
                except OSError as exc:
                    raise self.bind_error(listener, exc) from None

    def bind_error(self, listener: Listener, exc: OSError) -> ConfigError:
        """One line naming the key (or option) whose value could not be bound, and why."""
        hosts = ", ".join(listener.hosts)
        address_key = listener.hosts_key.startswith("[")
        if isinstance(exc, socket.gaierror):
            line = (f"{self._file(address_key)}{listener.on()}: no such address (the name "
                    f"does not resolve: {exc.strerror})")
        elif exc.errno == errno.EADDRNOTAVAIL:
            line = (f"{self._file(address_key)}{listener.on()}: this machine has no such "
                    f"address: {listener.what} cannot listen there")
        elif exc.errno == errno.EADDRINUSE:
            line = (f"{self._file(listener.from_file)}{listener.where()}: port "
                    f"{listener.port} on {hosts} is in use (another program, or another "
                    "door, listens there): choose another port")
        elif exc.errno == errno.EACCES:
            line = (f"{self._file(listener.from_file)}{listener.where()}: a port below 1024 "
                    "needs root or CAP_NET_BIND_SERVICE (docs/sysop-standalone.md)")
        else:
            line = (f"{self._file(listener.from_file)}{listener.where()} on {hosts}: "
                    f"{listener.what} cannot listen there: {exc.strerror or exc}")
        return ConfigError(line)

    def _file(self, named: bool) -> str:
        """``sysop.ini: `` before a line about one of its keys (``named``)."""
        source = self.settings.source
        return f"{source}: " if named and source is not None else ""
