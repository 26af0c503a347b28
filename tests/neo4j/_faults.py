"""A TCP relay between the driver and a real Neo4j that can lose a connection at commit.

The Bolt COMMIT message is the chunk ``00 02 B0 12 00 00`` (two bytes long,
an empty struct with signature 0x12, end marker). When armed, the relay passes
that chunk on to the server, waits for the server to commit, then closes both
sides without passing the answer back: exactly "connection lost at commit",
an unknown outcome for the client. Only the first COMMIT after arming is lost.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time

COMMIT_CHUNK = b"\x00\x02\xb0\x12\x00\x00"


def free_port() -> int:
    """A local port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class CommitDroppingRelay:
    def __init__(self, target_host: str, target_port: int) -> None:
        self._target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._armed = threading.Event()
        self.dropped = 0
        self._closing = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def arm(self) -> None:
        """Lose the connection right after the next COMMIT reaches the server."""
        self._armed.set()

    def close(self) -> None:
        self._closing = True
        self._listener.close()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = socket.create_connection(self._target)
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, upstream: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
                if upstream and self._armed.is_set() and COMMIT_CHUNK in data:
                    self._armed.clear()
                    self.dropped += 1
                    time.sleep(0.5)  # the server commits; its answer is never relayed
                    break
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
