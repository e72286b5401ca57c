"""`desk`: the arbiter's desk, the engine as a page in the browser on this computer
(interface/desk/), served by waitress like `serve --http`."""

from __future__ import annotations

import os
import sys
import threading
import webbrowser
from typing import Annotated

import typer

from cpsat_pairing.errors import ExitCode
from cpsat_pairing.interface.console import EPILOG, app, cli_errors, fail

NO_BROWSER = "CPSAT_PAIRING_NO_BROWSER"  # set (to anything but "" or "0") to never open a browser


def open_browser_wanted(asked: bool) -> bool:
    """A browser opens only when asked, on a terminal, and not suppressed by the environment
    (tests and CI set it, or have no terminal)."""
    return asked and os.environ.get(NO_BROWSER, "") in ("", "0") and sys.stdout.isatty()


@app.command(epilog=EPILOG)
@cli_errors
def desk(
    port: Annotated[int, typer.Option("--port", help="The port (0: any free one).")] = 8788,
    host: Annotated[str, typer.Option("--host", help="The address to listen on (only this computer by "
                                      "default).")] = "127.0.0.1",
    browser: Annotated[bool, typer.Option("--browser/--no-browser", help="Open the page in the browser "
                                          f"(never without a terminal, nor when {NO_BROWSER} is set).")] = True,
) -> None:
    """Open the arbiter's desk: drop a tournament file in the browser and see the next round,
    each player's pairing in sentences, why-not, the check and the brackets; print or download."""
    try:
        import waitress

        from cpsat_pairing.interface.desk.app import MAX_UPLOAD, site
    except ImportError:
        fail("desk needs flask and waitress: pip install 'cpsat-pairing[desk]'", ExitCode.INVALID_INPUT)
    from cpsat_pairing.interface.commands.serve import warm_up, wsgi_app

    warm_up()
    server = waitress.create_server(site(host, None, wsgi_app), host=host, port=port, threads=4,
                                    ident="cpsat-pairing", max_request_body_size=MAX_UPLOAD)
    bound = int(getattr(server, "effective_port", port))
    server.application = site(host, bound, wsgi_app)
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{bound}/"
    typer.echo(f"the arbiter's desk: {url}  (Ctrl+C stops it)")
    if open_browser_wanted(browser):
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run()
    except KeyboardInterrupt:
        pass
