"""``unokart serve`` (the game server) and ``unokart verify`` (check a finished game's shuffles)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ..i18n import t


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
        db: Path = typer.Option(Path("unokart.sqlite"), help="SQLite database file (created if missing)."),
        bot_delay: float = typer.Option(0.8, min=0.0, help="Seconds a bot waits before each move, so people can follow."),
        round_pause: float = typer.Option(5.0, min=0.0, help="Seconds between the end of a round and the next deal."),
        grace: float = typer.Option(30.0, min=0.0, help="Seconds a player may be disconnected before a bot plays for them."),
        bot_processes: int = typer.Option(1, min=1, help="Processes for ISMCTS bots' search."),
        bot_threads: int = typer.Option(1, min=1, help="Threads for the other bots' decisions."),
        rate_limit: float = typer.Option(20.0, min=1.0, help="Messages per second a connection may send (bursts of twice that)."),
        url: Optional[str] = typer.Option(None, help="The address people open, for table links (default http://HOST:PORT)."),
    ) -> None:
        """Run the game server: HTTP API, websockets and the browser client (docs/PROTOCOL.md)."""
        import logging

        import uvicorn

        from .app import create_app
        from .hub import Settings
        from .protocol import MAX_FRAME_BYTES

        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        url = (url or f"http://{shown}:{port}").rstrip("/")
        settings = Settings(bot_delay=bot_delay, round_pause=round_pause, grace=grace, base_url=url,
                            bot_processes=bot_processes, bot_threads=bot_threads, rate_limit=rate_limit)
        typer.echo(t("server.serve.listening", url=url, db=db))
        uvicorn.run(create_app(db, settings), host=host, port=port, ws_max_size=MAX_FRAME_BYTES,
                    log_level="warning", lifespan="on")

    @app.command()
    def verify(
        record: Path = typer.Argument(..., help="A finished game from /api/games/<id>, or a bare record."),
        commitment: Optional[list[str]] = typer.Option(None, "--commitment", "-c",
                                                       help="A round's SHA-256, once per round in order (bare records)."),
    ) -> None:
        """Check that every round was dealt from the seed the server committed to, and that the game replays."""
        from .shuffle import VerifyError, verify as check

        try:
            try:
                data = json.loads(record.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
                raise VerifyError("server.verify.error.read", path=record, reason=getattr(err, "strerror", None) or err) from None
            if isinstance(data, dict) and "record" in data:
                game_record, commitments = data["record"], data.get("commitments")
            else:
                game_record, commitments = data, None
            if commitment:
                commitments = list(commitment)
            rounds = check(game_record, commitments)
        except VerifyError as err:
            typer.echo(t(err.key, **err.fields), err=True)
            raise typer.Exit(2)
        for number, seed, digest in rounds:
            typer.echo(t("server.verify.round_ok", round=number, seed=seed, sha256=digest))
        typer.echo(t("server.verify.ok", rounds=len(rounds)))
