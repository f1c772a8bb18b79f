"""The studio's web server: a thin Flask shell over :mod:`.api`.

Local and guarded like a notebook server: it binds to the loopback address unless told
otherwise, and every request but the static files needs the random token the command printed
(``?token=`` in the address, or the ``X-Studio-Token`` header the page sends). Bodies are JSON
objects of at most :data:`MAX_BODY` bytes whose fields are the API function's parameters; every
error is a JSON ``{"error": message}`` with its HTTP status, never a stack trace.

Served (:func:`make_studio_server`), a burst of connections waits in a listen queue of
:data:`LISTEN_BACKLOG`; past :data:`MAX_HANDLING` requests at once, one is answered 503 at
once; and each connection is closed as soon as its answer is sent (:func:`served`).
"""
from __future__ import annotations

import functools
import hmac
import json
import logging
import re
import secrets
import socket
import threading
import time
import unicodedata
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import quote, urlsplit

from flask import Flask, Response, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from ..core.errors import KiwaraError
from ..core.io import describe_json_error
from . import adapters, api
from .jobs import JobError
from .requests import call_with_fields, query_fields

MAX_BODY = 256 * 1024          # a record or a pasted layout is a few kB
AGENT_WAIT = 2.0               # seconds a request waits for the agent before handing out a job
LISTEN_BACKLOG = 1024          # connections the kernel queues while the server is busy
MAX_HANDLING = 32              # requests handled at once; one more is answered 503
LINGER = 2.0                   # seconds the rest of an unread body is read and dropped
STATIC = Path(__file__).parent / "static"
TOKEN_HEADER = "X-Studio-Token"
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",          # the token is in the address
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data: blob:; "
                                "style-src 'self'; script-src 'self'; connect-src 'self'; "
                                "frame-ancestors 'none'"),
}


class NotFound(KiwaraError):
    """An unknown game, job or address."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def create_app(studio: api.Studio | None = None, token: str | None = None,
               hosts: frozenset[str] | None = None) -> Flask:
    """The web app over ``studio`` (a new one by default), guarded by ``token``; ``hosts``: the
    ``host:port`` names it answers to (None: any, for a test client)."""
    studio = studio or api.Studio()
    token = token or new_token()
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["STUDIO"], app.config["TOKEN"] = studio, token
    logging.getLogger("werkzeug").setLevel(logging.WARNING)   # no line per poll

    @app.before_request
    def check_host_and_token():
        # A page of another site that a DNS name turned towards this machine (DNS rebinding)
        # sends its own Host; another site's page posting here sends its Origin.
        if hosts is not None and request.host.lower() not in hosts:
            return error(403, "this address is not the studio's: open the one `kiwara studio` "
                              "printed")
        origin = request.headers.get("Origin")
        if hosts is not None and request.method != "GET" and origin is not None and \
                urlsplit(origin).netloc.lower() not in hosts:
            return error(403, "a request from another site's page")
        if request.path.startswith("/static/"):
            return None                   # the page's own files: no data in them
        given = request.headers.get(TOKEN_HEADER) or request.args.get("token") or ""
        if not hmac.compare_digest(given.encode(), token.encode()):
            return error(403, "missing or wrong token: open the address `kiwara studio` printed")
        return None

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        if request.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        messages = {413: f"request body over {MAX_BODY // 1024} kB", 404: "no such address",
                    405: f"{request.method} is not allowed here"}
        return error(exc.code or 500, messages.get(exc.code, exc.description or exc.name))

    @app.errorhandler(NotFound)
    def not_found(exc: NotFound):
        return error(404, str(exc))

    @app.errorhandler(KiwaraError)
    def bad_request(exc: KiwaraError):
        return error(409 if isinstance(exc, JobError) and "running" in str(exc) else 400,
                     str(exc))

    @app.errorhandler(Exception)
    def internal(exc: Exception):
        app.logger.exception("studio: internal error")          # the trace stays here
        return error(500, "internal error (see the server's log)")

    # -- the page ------------------------------------------------------------------------------
    @app.get("/")
    def page():
        return send_from_directory(STATIC, "index.html")

    @app.get("/static/<path:name>")
    def static_file(name: str):
        return send_from_directory(STATIC, name)

    # -- what the page offers, and each game's own views (Kiwara's board tools) ----------------
    @app.get("/api/catalogue")
    def catalogue():
        return jsonify(api.catalogue())

    for address, function in adapters.calls().items():
        app.add_url_rule(f"/api/{address}", f"call {address}", answer_call(function),
                         methods=["POST"])
    for address, (function, query_types) in adapters.downloads().items():
        app.add_url_rule(f"/api/{address}", f"download {address}",
                         answer_download(function, query_types), methods=["GET"])

    # -- games -------------------------------------------------------------------------------------
    @app.post("/api/<game>/new")
    def game_new(game: str):
        return jsonify(call(functools.partial(studio.new_game, known(game)), body()))

    @app.post("/api/<game>/load")
    def game_load(game: str):
        return jsonify(call(functools.partial(studio.load_game, known(game)), body()))

    @app.get("/api/<game>/<game_id>")
    def game_view(game: str, game_id: str):
        if answers_post(app, request.path):      # GET /api/kiwara/new, /api/board/check…
            raise MethodNotAllowed(["POST"])
        return jsonify(find(lambda: studio.game_view(game_id, known(game))))

    @app.post("/api/<game>/<game_id>/move")
    def game_move(game: str, game_id: str):
        move = call(lambda move: move, body())
        return jsonify(find(lambda: studio.play(game_id, move, known(game))))

    @app.post("/api/<game>/<game_id>/agent")
    def game_agent(game: str, game_id: str):
        """The agent's move: the new view when it comes within a moment, else the job to poll."""
        job = find(lambda: studio.agent_turn(game_id, known(game)))
        if job is not None and not job.wait(AGENT_WAIT):
            return jsonify({"job": job.to_json()})
        return jsonify({"view": studio.game_view(game_id, game)})

    @app.get("/api/<game>/<game_id>/record")
    def game_record(game: str, game_id: str):
        record = find(lambda: studio.record(game_id, known(game)))
        response = Response(json.dumps(record, indent=1, ensure_ascii=False) + "\n",
                            mimetype="application/json")
        response.headers["Content-Disposition"] = \
            f'attachment; filename="{game}-{game_id}.json"'
        return response

    # -- play-tests and jobs ----------------------------------------------------------------------
    @app.post("/api/playtest")
    def playtest():
        return jsonify(call(studio.start_playtest, body()).to_json())

    @app.get("/api/jobs/<job_id>")
    def job(job_id: str):
        return jsonify(find(lambda: studio.job(job_id)).to_json())

    @app.post("/api/jobs/<job_id>/cancel")
    def job_cancel(job_id: str):
        found = find(lambda: studio.job(job_id))
        found.cancel()
        return jsonify(found.to_json())

    return app


# -- helpers --------------------------------------------------------------------------------------
def error(status: int, message: str):
    response = jsonify({"error": message})
    response.status_code = status
    return response


def known(game: str) -> str:
    """``game`` if the studio plays it (it has a studio adapter); never echoed."""
    if game not in api.adapters():
        raise NotFound(f"no such game; the studio plays {', '.join(api.adapters())}")
    return game


def find(get: Callable[[], Any]) -> Any:
    """``get()``, with "no such game/job" answered 404."""
    try:
        return get()
    except (api.StudioError, JobError) as exc:
        if str(exc).startswith("no "):
            raise NotFound(str(exc)) from None
        raise


def answers_post(app: Flask, path: str) -> bool:
    """Whether a POST route serves ``path`` (so a GET there is 405, not 404)."""
    try:
        app.url_map.bind("studio").match(path, method="POST")
    except HTTPException:
        return False
    return True


def body() -> dict:
    """The request's JSON object, under MAX_BODY bytes: a declared length over it is refused
    by MAX_CONTENT_LENGTH; a chunked body (no declared length) is cut at the bound by the
    server's stream, so one that reaches it is refused here."""
    data = request.stream.read(MAX_BODY)
    if len(data) >= MAX_BODY:
        raise RequestEntityTooLarge()
    if not data.strip():
        return {}
    try:
        value = json.loads(data)
    except RecursionError:          # the decoder recurses once per bracket: [[[[… overflows it
        raise api.StudioError("the request body is not JSON: nested too deeply") from None
    except UnicodeDecodeError:
        raise api.StudioError("the request body is not JSON: not UTF-8 text") from None
    except ValueError as exc:       # not JSON, or a number of over 4,300 digits
        _, _, message = describe_json_error(exc, data.decode("utf-8", "replace"))
        raise api.StudioError("the request body is not JSON: "
                              + message.removeprefix("invalid JSON: ")) from None
    if not isinstance(value, dict):
        raise api.StudioError("the request body must be a JSON object of named fields")
    return value


def answer_call(function: Callable) -> Callable:
    """The view of a game's own call: the JSON body's fields in, its dict out as JSON."""
    return lambda: jsonify(call(function, body()))


def answer_download(function: Callable, query_types: dict) -> Callable:
    """The view of a game's own download: the query's fields in (a download is a plain link),
    the file it makes out, as an attachment."""
    def download():
        made = call(function, query_fields(request.args, query_types))
        response = Response(made.data, mimetype=made.mimetype)
        response.headers["Content-Disposition"] = attachment(made.name)
        return response
    return download


def attachment(name: str) -> str:
    """A Content-Disposition for a file named ``name`` (made of a title's letters, in any
    script): its ASCII form, and the name itself as RFC 6266 says."""
    stem, dot, extension = name.rpartition(".")
    ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    plain = (re.sub(r"[^A-Za-z0-9_-]+", "-", ascii_stem).strip("-") or "print") + dot + extension
    if plain == name:
        return f'attachment; filename="{name}"'
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name)}"


def call(function: Callable, fields: dict) -> Any:
    """``function(**fields)``, every field checked against its parameters
    (:func:`.requests.call_with_fields`)."""
    return call_with_fields(function, fields)


# -- serving --------------------------------------------------------------------------------------
LOOPBACK = ("127.0.0.1", "localhost", "::1")
ANY_INTERFACE = ("0.0.0.0", "::", "")


def make_studio_server(host: str = "127.0.0.1", port: int = 8765,
                       studio: api.Studio | None = None, token: str | None = None):
    """A threaded werkzeug server for the studio (not yet serving: call ``serve_forever``, and
    ``shutdown`` from another thread), and the page's address with its token. Port 0 takes
    any free port. Its listen queue holds :data:`LISTEN_BACKLOG` connections (Python's default,
    128, reset some of a burst of 400), and the app is :func:`served`."""
    from werkzeug.serving import make_server
    token = token or new_token()
    # our own listening socket: werkzeug exits the process when it cannot bind
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listening = socket.create_server((host, port), family=family,
                                         backlog=LISTEN_BACKLOG)
    except OSError as exc:
        raise KiwaraError(f"cannot listen on {host}:{port}: {exc.strerror or exc} (another "
                          f"program there? try --port 0 for any free port)") from None
    port = listening.getsockname()[1] if port == 0 else port
    # the names the page may be reached by: the address served (and, on loopback, its other
    # names); bound to every interface, the machine's names are not known: the token alone
    names = {host, *LOOPBACK} if host in LOOPBACK else {host}
    hosts = None if host in ANY_INTERFACE else frozenset(
        f"{f'[{name}]' if ':' in name else name}:{port}".lower() for name in names)
    app = create_app(studio, token, hosts)
    app.wsgi_app = served(app.wsgi_app, MAX_HANDLING)
    with listening:
        server = make_server(host, port, app, threaded=True, fd=listening.fileno())
    return server, f"http://{usable_host(host)}:{server.port}/?token={token}"


def served(wsgi_app: Callable, handling: int) -> Callable:
    """``wsgi_app`` as the real server runs it: at most ``handling`` requests at once (one more
    is answered 503, busy, at once), and each connection half-closed as soon as its answer is
    sent (:func:`linger`).

    werkzeug's server closes every connection after one answer, but first reads what is left
    of the request body, 10 MB at a time: after a 413 (whose body is left unread) it waited on
    a client that had sent less and waited for the close, and the socket stayed open."""
    slots = threading.BoundedSemaphore(handling)

    def app(environ: dict, start_response: Callable):
        sized = []

        def start(status: str, headers: list, exc_info=None):
            sized[:] = [any(name.lower() == "content-length" for name, _ in headers)]
            return start_response(status, headers, exc_info)

        if slots.acquire(blocking=False):
            try:
                sent = yield from relay(wsgi_app(environ, start))
            finally:
                slots.release()
        else:
            sent = yield from relay(busy(handling)(environ, start))
        # an answer without a length ends with a last chunk werkzeug writes after this
        connection = environ.get("werkzeug.socket")
        if sent and sized == [True] and connection is not None:
            linger(connection)
    return app


def relay(answer: Iterable[bytes]):
    """Yield the pieces of a WSGI answer, then close it; whether there was one (werkzeug sends
    the answer's head with the first)."""
    sent = False
    try:
        for piece in answer:
            sent = True
            yield piece
    finally:
        if hasattr(answer, "close"):
            answer.close()
    return sent


def busy(handling: int) -> Response:
    """The 503 of a server handling ``handling`` requests already."""
    return Response(json.dumps({"error": f"the studio is busy ({handling} requests at once): "
                                         f"try again in a moment"}) + "\n",
                    status=503, mimetype="application/json",
                    headers={**SECURITY_HEADERS, "Retry-After": "1",
                             "Cache-Control": "no-store"})


def linger(connection: socket.socket) -> None:
    """End the connection once its answer is sent: half-close it (the client reads the end of
    the answer), then read and drop what the client still sends until it closes its side, for
    at most :data:`LINGER` seconds (closing with unread data would reset the connection, and
    the client could lose the answer). werkzeug then closes the socket."""
    deadline = time.monotonic() + LINGER
    try:
        connection.shutdown(socket.SHUT_WR)
        while (left := deadline - time.monotonic()) > 0:
            connection.settimeout(left)
            if not connection.recv(65536):
                break
    except OSError:                  # the client left, or LINGER is over
        pass
    # werkzeug's own drain after this reads with this timeout: it stops at once
    connection.settimeout(0.001)


def usable_host(host: str) -> str:
    """The address to open for a server listening on ``host``: bound to every interface
    (``0.0.0.0``, ``::``), this machine's loopback address, which a browser can open (the
    address ``0.0.0.0`` itself is no place to go)."""
    if host in ANY_INTERFACE:
        host = "::1" if host == "::" else "127.0.0.1"
    return f"[{host}]" if ":" in host else host
