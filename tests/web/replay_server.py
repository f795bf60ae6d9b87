"""`unokart serve` plus the one route the web client asks of the server (see the web report):

    GET /api/games/{id}/replay?round=N&lang=xx  ->  unokart.web.replay.replay_round(record, N, lang)

The browser has no rules engine, so it steps through a finished game with frames
the core computes. Until the server mounts this route itself, the replay viewer's
tests run against the real server app with the route added here.

    python tests/web/replay_server.py PORT DB
"""

from __future__ import annotations

import sys

import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from unokart.rules import RecordError
from unokart.server.app import create_app
from unokart.server.hub import Settings
from unokart.web.replay import replay_round


async def get_replay(request: Request) -> JSONResponse:
    game = request.app.state.hub.finished_game(request.path_params["game_id"])
    if game is None:
        return JSONResponse({"type": "error", "code": "no_such_game", "message": "no such finished game"}, 404)
    try:
        number = int(request.query_params.get("round", "1"))
        return JSONResponse(replay_round(game["record"], number, request.query_params.get("lang")))
    except (ValueError, RecordError) as err:
        return JSONResponse({"type": "error", "code": "bad_request", "message": str(err)}, 400)


def main(port: int, db: str) -> None:
    app = create_app(db, Settings(bot_delay=0.0, round_pause=0.0, base_url=f"http://127.0.0.1:{port}"))
    app.router.routes.insert(0, Route("/api/games/{game_id:int}/replay", get_replay))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
