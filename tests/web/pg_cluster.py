"""A throwaway PostgreSQL server for the tests: Debian's ``postgresql`` package (``make test``
installs it), a cluster made by ``initdb`` in a temporary folder, listening on 127.0.0.1 on
a free port (its unix socket in that folder too), without fsync (nothing of it is kept); a
``durable`` one (the benchmarks') writes to disk as SQLite's WAL at ``synchronous=NORMAL``
does: a commit does not wait for the disk (``synchronous_commit=off``), the files are synced.

PostgreSQL refuses to run as root: as root, the cluster is made and run by the ``postgres``
user (the package makes it), who owns the folder.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg


def binaries() -> Path:
    """The folder of the newest installed PostgreSQL's programs (``initdb``, ``pg_ctl``)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[4]))
    if not found:
        on_path = shutil.which("initdb")
        if on_path is None:
            raise RuntimeError("PostgreSQL is not installed: `make test` installs Debian's postgresql package")
        return Path(on_path).parent
    return Path(found[-1]).parent


class Cluster:
    """One throwaway PostgreSQL server (see the module docstring)."""

    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.folder / "data"
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._made = 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        """initdb and start it; returns once it answers."""
        bin_ = binaries()
        self._run(
            str(bin_ / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"
        )
        options = (
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c synchronous_commit=off"
            f" -c max_connections=200 {'' if self.durable else '-c fsync=off -c full_page_writes=off'}"
        )
        self._run(
            str(bin_ / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start"
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def url(self, database: str) -> str:
        """The URL of one of its databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new empty database; its URL."""
        self._made += 1
        name = f"cardtable_{os.getpid()}_{self._made}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}".encode())
        return self.url(name)

    def postmaster(self) -> int:
        """The server's process id."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def stop(self) -> None:
        """Stop it at once and remove its folder."""
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            self._run(str(binaries() / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
