"""``kiwara studio``: serve the studio's page on this machine (a thin shell over
:mod:`kiwara_designer.studio`)."""
from __future__ import annotations

import socket
import threading
import webbrowser
from urllib.parse import urlsplit

import click

from ..core.errors import KiwaraError
from ..commands import Whole, workers_option


@click.command("studio")
@click.option("--port", type=Whole(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but the loopback address lets other "
                   "machines reach the page (they still need the token); 0.0.0.0: every "
                   "interface (the address printed is then 127.0.0.1, with the machine's "
                   "name for the others).")
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
@workers_option("Processes for the page's play-tests [default: one per core].")
def studio(port, host, no_browser, workers) -> None:
    """Open the studio: a local web page to draw a board and see it checked as you paint,
    play it against an agent, play-test it, download its print files, and play Awimbawé.

    The server listens on this machine only (unless --host says otherwise) and the page's
    address carries a random token, needed for every request. Ctrl-C stops it. Needs the
    `studio` extra: pip install 'kiwara-designer[studio]'.

    \b
    Examples:
      kiwara studio
      kiwara studio --port 0 --no-browser
    """
    try:
        from ..studio.api import Studio, warm_up
        from ..studio.server import ANY_INTERFACE, LOOPBACK, make_studio_server
    except ImportError as exc:
        raise KiwaraError(f"kiwara studio needs Flask: pip install 'kiwara-designer[studio]' "
                          f"({exc})") from None
    backend = Studio(workers)
    server, url = make_studio_server(host, port, backend)
    if host in ANY_INTERFACE:
        # 0.0.0.0 is no address to open: this machine's own, and its name for the others
        elsewhere = f"http://{socket.gethostname()}:{urlsplit(url).port}/?token=…"
        click.echo(f"kiwara: note: listening on all interfaces ({host or '0.0.0.0'}): other "
                   f"machines can reach the page, at {elsewhere} (the token still guards it)",
                   err=True)
    elif host not in LOOPBACK:
        click.echo(f"kiwara: note: listening on {host}: other machines can reach the page "
                   f"(the token still guards it)", err=True)
    # a game's slow preparation (Kiwara's counting table for random boards) now, not on the
    # first click
    threading.Thread(target=warm_up, daemon=True).start()
    click.echo(f"kiwara studio: {url}\n(Ctrl-C stops it)")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, (url,)).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("kiwara studio: stopped")
    finally:
        backend.close()
        server.server_close()
