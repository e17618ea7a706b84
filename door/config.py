"""sysop.ini into typed settings, with one clear error line naming file, line, section and key.

Every key is optional: what the file leaves out takes the embedded default, so an empty
sysop.ini is a working door.  Unknown sections and keys are errors (a typo must not be
silently ignored), and so is any bad value.
"""

from __future__ import annotations

import configparser
import ipaddress
import logging
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from .catalog import registry as gamelist
from .catalog.record import OptionError
from .ini.door_section import DOOR_KEYS, DoorSettings
from .ini.file import CONFIG_NAME as CONFIG_NAME
from .ini.file import HOME_ENV as HOME_ENV
from .ini.file import ConfigError as ConfigError
from .ini.file import cut as _cut
from .ini.file import find_home as find_home
from .ini.file import parse_ini, read_ini
from .ini.file import quote as _quote
from .ini.values import int_between as _int_between
from .ini.values import on_off as _bool
from .ini.values import seconds_between as _seconds_between
from .ini.values import text as _text
from .term.codes import parse_color
from .term.screen import Attr

GameSettings = TypeVar("GameSettings")
"""One game's settings dataclass (door/catalog/registry.py: ``MariantSettings`` …)."""

log = logging.getLogger(__name__)

FEATURE_ACTIONS = ("daily", "messages", "halloffame", "instructions", "whosonline", "watch",
                   "settings", "quit")
"""The main menu's actions besides the games (:mod:`door.catalog.registry`)."""


def menu_actions() -> tuple[str, ...]:
    return (*gamelist.names(), *FEATURE_ACTIONS)


@dataclass(frozen=True)
class MenuEntry:
    action: str
    key: str
    label: str
    enabled: bool = True


@dataclass(frozen=True)
class ServerSettings:
    bind: str = "127.0.0.1"
    telnet_port: int = 2323
    ssh_port: int = 2222
    max_nodes: int = 32
    max_per_address: int = 4  # connections at once from one IP address
    login_pool: int = 64  # connections at once still logging in (not yet on a node)
    login_per_address: int = 3  # of those, from one address
    first_byte_timeout: int = 15  # seconds a new connection may send nothing
    login_prefix_v4: int = 24  # the login pool shares its room fairly by these networks
    login_prefix_v6: int = 48
    login_early_drop: tuple[int, int, int] = (50, 30, 100)  # start:rate:full, % of login_pool
    rlogin_port: int | None = None  # RLogin for the member boards of [boards]; None: off
    workers: int = 0  # processes answering callers (serve); 0: one per core


Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


@dataclass(frozen=True)
class WebSettings:
    """``reussite serve``'s HTTP listener: the play page, its WebSocket, the public pages."""

    enabled: bool = False
    bind: str = ""  # empty: [server] bind
    port: int = 8023
    tls_cert: Path | None = None  # both set: HTTPS and wss:// (else plain, or a proxy's)
    tls_key: Path | None = None
    origins: tuple[str, ...] = ()  # more origins the play page may be opened from
    public_url: str = ""  # scheme://host[:port] callers' browsers use; "": an address only
    proxies: Networks = ()  # addresses whose X-Forwarded-For names the caller
    cache_seconds: float = 5.0  # public pages and /api answers are this old at most
    connections_per_address: int = 20  # HTTP connections (WebSockets too) from one address
    max_connections: int = 512  # HTTP connections from everyone together


@dataclass(frozen=True)
class LeagueSettings:
    """The InterBBS league (docs/league.md): this board's name in it, and how it syncs."""

    enabled: bool = False
    name: str = ""  # this board's name in the league; empty: [door] name
    hub: bool = False  # this server is a league hub: boards join it, it serves the roster
    join_code: str = ""  # hub only: the code a joining board must give; empty: no joins
    sync_seconds: float = 20.0  # push and pull this often (a failing peer backs off)
    accept_days: int = 14  # results older than this many days are refused
    requests_per_minute: int = 120  # league requests one address may make (more: 429)
    results_per_minute: int = 5000  # results one address may push in a minute (more: 429)


@dataclass(frozen=True)
class Board:
    """A BBS that sends its callers to ``reussite serve`` over RLogin ([boards])."""

    tag: str  # upper case; its callers are known as handle@TAG
    secret: str  # carried in an RLogin user-name field
    networks: Networks
    name: str = ""

    def allows(self, address: str) -> bool:
        return address_in(address, self.networks)


@dataclass(frozen=True)
class BridgeSettings:
    """``reussite bridge``: the Réussite hub this BBS sends its callers to over RLogin."""

    host: str = ""  # empty: `reussite bridge --hub` must name it
    port: int = 513  # the hub's [server] rlogin_port
    board: str = ""  # this board's tag on the hub, sent as [TAG] before the handle
    secret: str = ""  # this board's secret in the hub's [boards]
    game: str = ""  # start this game at once (RLogin terminal type xtrn=GAME); empty: menu


def address_in(address: str, networks: Networks) -> bool:
    """Whether an IP address (IPv4 seen through IPv6 as IPv4) is in one of ``networks``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in networks)


@dataclass(frozen=True)
class LimitsSettings:
    idle_timeout: int = 300
    minutes_per_call: int = 60
    messages_per_hour: int = 10  # messages one caller may send in an hour (flood control)
    message_length: int = 2000  # characters in one message's body
    watch_minutes: int = 60  # watching a live game counts as activity for this long a key


@dataclass(frozen=True)
class AccountsSettings:
    """Direct callers' logins (``reussite serve``)."""

    guest: bool = False  # a GUEST login without a password
    login_attempts: int = 5  # failed logins on a handle from one address before a lockout
    lockout_minutes: int = 15
    login_timeout: int = 120  # seconds to finish logging in (slow or silent connections)
    login_hashes_per_minute: int = 60  # password checks a minute from one network (0: any)


@dataclass(frozen=True)
class DatabaseSettings:
    url: str = ""  # empty: SQLite file data/reussite.db
    save_every: float = 2.0  # seconds: a game's moves reach the database within this long


def _default_workers() -> int:
    """Half the machine's cores, at least one: the door's callers keep the rest."""
    return max(1, (os.cpu_count() or 2) // 2)


@dataclass(frozen=True)
class SolverSettings:
    """The solvers' process pool (``door.solvers.pool``)."""

    workers: int = field(default_factory=_default_workers)
    budget: float = 10.0  # CPU seconds one verdict may take before it is "unknown"
    hint_budget: float = 5.0  # CPU seconds a card game's hint may take (door/ui/solver_hint)


def _default_color(text: str) -> Callable[[], Attr]:
    return lambda: parse_color(text)


@dataclass(frozen=True)
class ColorsSettings:
    """Colours of the Monte Carlo door's instruction codes ``@E@ @H@ @B@ @N@``."""

    heading: Attr = field(default_factory=_default_color("bright yellow"))
    highlight: Attr = field(default_factory=_default_color("bright white"))
    body: Attr = field(default_factory=_default_color("cyan"))
    normal: Attr = field(default_factory=_default_color("white"))

    @property
    def palette(self) -> dict[str, Attr]:
        return {"heading": self.heading, "highlight": self.highlight, "body": self.body,
                "normal": self.normal}


QUIT_TO_BBS = "Quit to the BBS"
QUIT_DIRECT = "Log off"
"""What the default Quit label reads to a caller who came straight to the door (telnet or
SSH to ``reussite serve``, or the sysop's local play): there is no BBS to go back to."""

FEATURE_MENU = (
    MenuEntry("daily", "D", "Daily Challenge"),
    MenuEntry("halloffame", "H", "Hall of Fame"),
    MenuEntry("messages", "E", "Message Centre"),
    MenuEntry("instructions", "I", "Instructions"),
    MenuEntry("whosonline", "W", "Who's Online"),
    MenuEntry("watch", "V", "Watch a Game"),
    MenuEntry("settings", "S", "Terminal Settings"),
    MenuEntry("quit", "Q", QUIT_TO_BBS),
)
"""The default menu after the games."""


def default_menu() -> tuple[MenuEntry, ...]:
    """The main menu when sysop.ini has no [menu]: each game's own entry, then the rest."""
    return (*(MenuEntry(info.name, info.menu_key, info.label) for info in gamelist.games()),
            *FEATURE_MENU)


@dataclass(frozen=True)
class Settings:
    """Everything in sysop.ini, typed.  Paths are absolute (resolved against ``home``)."""

    home: Path
    source: Path | None = None
    door: DoorSettings = field(default_factory=DoorSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    menu: tuple[MenuEntry, ...] = field(default_factory=default_menu)
    limits: LimitsSettings = field(default_factory=LimitsSettings)
    accounts: AccountsSettings = field(default_factory=AccountsSettings)
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    games: dict[str, object] = field(default_factory=gamelist.default_options)
    """Each game's section (:mod:`door.catalog.registry`): its record's ``settings`` dataclass, read
    typed through :meth:`game_settings`."""
    solver: SolverSettings = field(default_factory=SolverSettings)
    colors: ColorsSettings = field(default_factory=ColorsSettings)
    boards: tuple[Board, ...] = ()
    bridge: BridgeSettings = field(default_factory=BridgeSettings)
    web: WebSettings = field(default_factory=WebSettings)
    league: LeagueSettings = field(default_factory=LeagueSettings)

    def game_settings(self, name: str, kind: type[GameSettings]) -> GameSettings:
        """A game's sysop.ini section as its record's settings class, so that the type checker
        knows each key's type: ``settings.game_settings("mariant", MariantSettings).face_down``
        is an ``int``.  TypeError when ``kind`` is not that game's settings class."""
        found = self.games[name]
        if not isinstance(found, kind):
            raise TypeError(f"[{name}] is read as {type(found).__name__}, not {kind.__name__}")
        return found

    @property
    def ansi_dir(self) -> Path:
        return self.home / self.door.ansi_dir

    @property
    def data_dir(self) -> Path:
        return self.home / self.door.data_dir

    @property
    def web_tls(self) -> tuple[Path, Path] | None:
        """[web] tls_cert and tls_key, resolved against ``home``; None: plain HTTP."""
        if self.web.tls_cert is None or self.web.tls_key is None:
            return None
        return self.home / self.web.tls_cert, self.home / self.web.tls_key

    @property
    def league_name(self) -> str:
        """This board's name in the league: [league] name, else [door] name (cut to fit)."""
        return self.league.name or _league_name(self.door.name)

    @property
    def database_url(self) -> str:
        return self.database.url or f"sqlite+aiosqlite:///{self.data_dir / 'reussite.db'}"

    @property
    def enabled_menu(self) -> tuple[MenuEntry, ...]:
        return tuple(entry for entry in self.menu if entry.enabled)


# -- value parsers (more in door.ini.values): each returns the value or raises ValueError ----

def _addresses(value: str) -> str:
    """One address, or several separated by commas (``127.0.0.1, ::1``)."""
    parts = [part.strip() for part in value.split(",")]
    if not all(parts) or not all(re.fullmatch(r"[0-9A-Za-z.:\-]+", part) for part in parts):
        raise ValueError("expected an IP address or host name such as 127.0.0.1, or several "
                         "separated by commas")
    return ", ".join(parts)


def _db_url(value: str) -> str:
    value = value.strip()
    if value and not re.match(r"^(sqlite|postgresql)(\+\w+)?://", value):
        raise ValueError("expected empty (SQLite in data/) or a sqlite:// or postgresql:// URL")
    return value


_PORT = _int_between(1, 65535)


def _workers(value: str) -> int:
    """``auto`` (0: one per core) or a number of processes."""
    if value.strip().lower() == "auto":
        return 0
    try:
        return _int_between(1, 64)(value)
    except ValueError:
        raise ValueError("expected auto or a number of processes 1–64") from None


def _early_drop(value: str) -> tuple[int, int, int]:
    """``start:rate:full`` in per cent, as OpenSSH's MaxStartups (of the login pool)."""
    try:
        start, rate, full = (int(part) for part in value.split(":"))
    except ValueError:
        start = rate = full = -1
    if not (0 <= start < full <= 100 and 0 <= rate <= 100):
        raise ValueError("expected start:rate:full in per cent, such as 50:30:100 "
                         "(start < full <= 100)")
    return start, rate, full


def _port_or_off(value: str) -> int | None:
    if value.strip().lower() in ("off", "no", "none", ""):
        return None
    try:
        return _PORT(value)
    except ValueError:
        raise ValueError("expected off or a port number 1–65535") from None

def _league_name(value: str) -> str:
    """A board name as the league accepts it (door/league/results.py BOARD_NAME)."""
    plain = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    name = re.sub(r"[^A-Za-z0-9 ._\-]", "", plain).strip()[:30].strip()
    return name or "Reussite"


def _board_name(value: str) -> str:
    name = value.strip()
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 ._\-]{0,29}", name):
        raise ValueError("expected 1-30 letters, digits, spaces, dots, dashes or underscores")
    return name


def _join_code(value: str) -> str:
    code = value.strip()
    if code and (len(code) < 8 or len(code) > 100 or not code.isprintable()):
        raise ValueError("expected empty (no joins) or a code of 8-100 printable characters")
    return code


def _optional_addresses(value: str) -> str:
    return _addresses(value) if value.strip() else ""


def _optional_path(value: str) -> Path | None:
    return Path(value.strip()) if value.strip() else None


def _origins(value: str) -> tuple[str, ...]:
    """``https://bbs.example.org, http://localhost:8023``: scheme, host and port only."""
    origins = tuple(part.strip().rstrip("/").lower() for part in value.split(",")
                    if part.strip())
    for origin in origins:
        if not re.fullmatch(r"https?://[0-9a-z.\-\[\]:]+", origin):
            raise ValueError("expected origins such as https://bbs.example.org, separated by "
                             "commas (scheme and host, no path)")
    return origins


def _public_url(value: str) -> str:
    """``https://bbs.example.org`` (scheme, host, port; no path): the origin as a browser
    writes it, lower case, without the scheme's default port; "" for none."""
    text = value.strip().rstrip("/").lower()
    if not text:
        return ""
    try:
        url = urlsplit(text)
        port = url.port
    except ValueError:
        port, url = -1, urlsplit("")
    if (url.scheme not in ("http", "https") or not url.hostname or port == -1 or url.path
            or url.query or url.fragment or url.username or url.password):
        raise ValueError("expected the address callers' browsers use, scheme and host and "
                         "port if not the usual: https://bbs.example.org or "
                         "http://bbs.example.org:8023 (no path)")
    host = f"[{url.hostname}]" if ":" in url.hostname else url.hostname
    default = 443 if url.scheme == "https" else 80
    return f"{url.scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def _proxy_addresses(value: str) -> Networks:
    try:
        return tuple(ipaddress.ip_network(part.strip(), strict=False)
                     for part in value.split(",") if part.strip())
    except ValueError:
        raise ValueError("expected IP addresses or networks separated by commas, such as "
                         "127.0.0.1, ::1") from None


def _host(value: str) -> str:
    """One host name or IP address, or nothing."""
    value = value.strip()
    if value and not re.fullmatch(r"[0-9A-Za-z.:\-]+", value):
        raise ValueError("expected a host name or IP address such as hub.example.org")
    return value


def _board_tag(value: str) -> str:
    value = value.strip()
    if value and not BOARD_TAG.fullmatch(value):
        raise ValueError("expected a tag of 1 to 8 letters or digits")
    return value.upper()


def _secret(value: str) -> str:
    """A member board's secret: at least SECRET_MIN characters, no spaces (the hub's
    [boards] and the bridge's [bridge] both keep it)."""
    value = value.strip()
    if len(value) < SECRET_MIN or any(c.isspace() or ord(c) < 32 for c in value):
        raise ValueError(f"expected a secret of at least {SECRET_MIN} characters without "
                         "spaces")
    return value


def _optional_game(value: str) -> str:
    value = value.strip().lower()
    if value and value not in gamelist.names():
        raise ValueError(f"expected one of {', '.join(gamelist.names())}, or nothing")
    return value


# section -> (dataclass, {key: parser})
_SECTIONS: dict[str, tuple[type, dict[str, Callable[[str], Any]]]] = {
    "door": (DoorSettings, DOOR_KEYS),
    "server": (ServerSettings, {"bind": _addresses, "telnet_port": _PORT, "ssh_port": _PORT,
                                "max_nodes": _int_between(1, 10000),
                                "max_per_address": _int_between(1, 10000),
                                "login_pool": _int_between(1, 10000),
                                "login_per_address": _int_between(1, 10000),
                                "first_byte_timeout": _int_between(2, 300),
                                "login_prefix_v4": _int_between(8, 32),
                                "login_prefix_v6": _int_between(16, 128),
                                "login_early_drop": _early_drop,
                                "rlogin_port": _port_or_off, "workers": _workers}),
    "limits": (LimitsSettings, {"idle_timeout": _int_between(60, 86400),
                                "minutes_per_call": _int_between(1, 1440),
                                "messages_per_hour": _int_between(1, 1000),
                                "message_length": _int_between(100, 20000),
                                "watch_minutes": _int_between(1, 1440)}),
    "accounts": (AccountsSettings, {"guest": _bool, "login_attempts": _int_between(1, 100),
                                    "lockout_minutes": _int_between(1, 1440),
                                    "login_timeout": _int_between(2, 3600),
                                    "login_hashes_per_minute": _int_between(0, 100000)}),
    "database": (DatabaseSettings, {"url": _db_url,
                                    "save_every": _seconds_between(0.5, 60)}),
    "solver": (SolverSettings, {"workers": _int_between(1, 64),
                                "budget": _seconds_between(1, 300),
                                "hint_budget": _seconds_between(0.5, 60)}),
    "web": (WebSettings, {"enabled": _bool, "bind": _optional_addresses,
                          "port": _PORT, "tls_cert": _optional_path,
                          "tls_key": _optional_path, "origins": _origins,
                          "public_url": _public_url,
                          "proxies": _proxy_addresses,
                          "cache_seconds": _seconds_between(0, 300),
                          "connections_per_address": _int_between(1, 10000),
                          "max_connections": _int_between(1, 100000)}),
    "bridge": (BridgeSettings, {"host": _host, "port": _PORT, "board": _board_tag,
                                "secret": _secret, "game": _optional_game}),
    "league": (LeagueSettings, {"enabled": _bool, "name": _board_name, "hub": _bool,
                                "join_code": _join_code,
                                "sync_seconds": _seconds_between(0.2, 86400),
                                "accept_days": _int_between(1, 366),
                                "requests_per_minute": _int_between(1, 100_000),
                                "results_per_minute": _int_between(1, 10_000_000)}),
    "colors": (ColorsSettings, {"heading": parse_color, "highlight": parse_color,
                                "body": parse_color, "normal": parse_color}),
}


def load_settings(home: Path) -> Settings:
    """Read ``home/sysop.ini`` into :class:`Settings`; raise ConfigError with one clear line."""
    text, path = read_ini(home)
    return parse_settings(text, home, path)


def parse_settings(text: str, home: Path, path: Path | None = None) -> Settings:
    where = str(path or CONFIG_NAME)
    parser, plain = parse_ini(text, where)

    lines = _Locator(plain)
    values: dict[str, Any] = {}
    games = gamelist.default_options()
    sections = {**_SECTIONS, **{info.name: (info.settings, info.options)
                                for info in gamelist.games()}}
    retired = {info.name: info.retired for info in gamelist.games()}
    for section in parser.sections():
        if section == "menu":
            values["menu"] = _parse_menu(parser["menu"], lines, where)
            continue
        if section == "boards":
            values["boards"] = _parse_boards(parser["boards"], lines, where)
            continue
        if section not in sections:
            known = ", ".join(f"[{s}]" for s in (*sections, "menu", "boards"))
            raise ConfigError(f"{where}:{lines.section(section)}: [{_cut(section)}]: "
                              "unknown section "
                              f"(expected one of {known})")
        cls, parsers = sections[section]
        fields: dict[str, Any] = {}
        for key, raw in parser[section].items():
            if key in retired.get(section, {}):
                log.warning("%s:%s: [%s] %s is no longer used (%s): ignored, and may be "
                            "removed", where, lines.key(section, key), section, key,
                            retired[section][key])
                continue
            if key not in parsers:
                raise ConfigError(f"{where}:{lines.key(section, key)}: [{section}] {_cut(key)}: "
                                  f"unknown key (expected one of {', '.join(parsers)})")
            try:
                fields[key] = parsers[key](raw)
            except ValueError as exc:
                raise ConfigError(f"{where}:{lines.key(section, key)}: [{section}] {key}: "
                                  f"{exc}, got {_quote(raw)}") from None
        if section in games:
            games[section] = _game_section(section, cls(**fields), lines, where)
        else:
            values[section] = cls(**fields)
    web = values.get("web")
    if web and (web.tls_cert is None) != (web.tls_key is None):
        key = "tls_cert" if web.tls_key is None else "tls_key"  # the one that is there
        raise ConfigError(f"{where}:{lines.key('web', key)}: [web] {key}: expected tls_cert "
                          "and tls_key together (or neither)")
    return Settings(home=home, source=path, games=games, **values)


def _game_section(name: str, settings: Any, lines: _Locator, where: str) -> Any:
    """A game's section, checked as a whole by its record's ``validate`` (keys that must
    agree with each other)."""
    validate = gamelist.game(name).validate
    if validate is not None:
        try:
            validate(settings)
        except OptionError as exc:
            raise ConfigError(f"{where}:{lines.key(name, exc.key)}: [{name}] {exc.key}: "
                              f"{exc}") from None
    return settings


def _parse_menu(section: configparser.SectionProxy, lines: _Locator,
                where: str) -> tuple[MenuEntry, ...]:
    """``action = hot key | label | on/off``, one line per entry, in screen order."""
    entries: list[MenuEntry] = []
    keys_seen: dict[str, str] = {}
    for action, raw in section.items():
        line = lines.key("menu", action)
        prefix = f"{where}:{line}: [menu] {_cut(action)}"
        if action not in menu_actions():
            raise ConfigError(f"{prefix}: unknown action (expected one of "
                              f"{', '.join(menu_actions())})")
        parts = [p.strip() for p in raw.split("|")]
        if len(parts) != 3:
            raise ConfigError(f"{prefix}: expected `hot key | label | on or off`, got "
                              f"{_quote(raw)}")
        hot, label, switch = parts
        if len(hot) != 1 or not hot.isalnum() or not hot.isascii():
            raise ConfigError(f"{prefix}: expected a one-character letter or digit hot key, "
                              f"got {_quote(hot)}")
        try:
            label, enabled = _text(label), _bool(switch)
        except ValueError as exc:
            raise ConfigError(f"{prefix}: {exc}, got {_quote(raw)}") from None
        if len(label) > 40:
            raise ConfigError(f"{prefix}: expected a label of at most 40 characters")
        hot = hot.upper()
        if enabled and hot in keys_seen:
            raise ConfigError(f"{prefix}: hot key {hot} is already used by {keys_seen[hot]}")
        if enabled:
            keys_seen[hot] = action
        entries.append(MenuEntry(action, hot, label, enabled))
    if not any(e.action == "quit" and e.enabled for e in entries):
        raise ConfigError(f"{where}:{lines.section('menu')}: [menu]: expected an enabled quit "
                          "entry (callers must be able to leave)")
    return tuple(entries)


BOARD_TAG = re.compile(r"[A-Za-z0-9]{1,8}")
SECRET_MIN = 8


def _parse_boards(section: configparser.SectionProxy, lines: _Locator,
                  where: str) -> tuple[Board, ...]:
    """``TAG = secret | addresses | name``: one member board per line (name optional)."""
    boards: list[Board] = []
    secrets: dict[str, str] = {}
    for key, raw in section.items():
        prefix = f"{where}:{lines.key('boards', key)}: [boards] {_cut(key)}"
        if not BOARD_TAG.fullmatch(key):
            raise ConfigError(f"{prefix}: expected a tag of 1 to 8 letters or digits")
        tag = key.upper()
        parts = [p.strip() for p in raw.split("|")]
        if len(parts) not in (2, 3):
            raise ConfigError(f"{prefix}: expected `secret | addresses | name`, got {_quote(raw)}")
        secret, addresses = parts[0], parts[1]
        try:
            secret = _secret(secret)
        except ValueError as exc:
            raise ConfigError(f"{prefix}: {exc}") from None
        if secret in secrets:
            raise ConfigError(f"{prefix}: the same secret as board {secrets[secret]}: give "
                              "each board its own")
        secrets[secret] = tag
        networks = []
        for text in filter(None, (a.strip() for a in addresses.split(","))):
            try:
                networks.append(ipaddress.ip_network(text, strict=False))
            except ValueError:
                raise ConfigError(f"{prefix}: {_quote(text)} is not an IP address or network "
                                  "(such as 203.0.113.7 or 2001:db8::/64)") from None
        if not networks:
            raise ConfigError(f"{prefix}: expected the board's addresses (comma-separated)")
        name = parts[2] if len(parts) == 3 else ""
        try:
            name = _text(name) if name else ""
        except ValueError as exc:
            raise ConfigError(f"{prefix}: {exc} in the name") from None
        boards.append(Board(tag, secret, tuple(networks), name))
    return tuple(boards)


class _Locator:
    """Line numbers of sections and keys, for error messages (configparser keeps none)."""

    def __init__(self, text: str) -> None:
        self._sections: dict[str, int] = {}
        self._keys: dict[tuple[str, str], int] = {}
        section = ""
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("[") and stripped.endswith("]"):
                section = stripped[1:-1].strip()
                self._sections.setdefault(section, number)
            elif stripped and stripped[0] not in "#;" and not line[0].isspace():
                key = re.split(r"[=:]", stripped, maxsplit=1)[0].strip().lower()
                self._keys.setdefault((section, key), number)

    def section(self, name: str) -> int:
        return self._sections.get(name, 0)

    def key(self, section: str, key: str) -> int:
        return self._keys.get((section, key), self.section(section))
