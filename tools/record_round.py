"""Record a round of the browser client as a player sees it: a video and screenshots of its moments.

    .venv/bin/python tools/record_round.py                       # Tamil and Sindhi, desktop and phone
    .venv/bin/python tools/record_round.py --lang kn --size phone --out /tmp/round

For each language and size it starts a real `unokart serve` on loopback, seats a player and three
bots, and plays the player's turns in Debian's Chromium (/usr/bin/chromium) until the round ends.
It writes OUT/<lang>_<size>.webm and a screenshot of the table at the player's first turn, the first
item's notice, the first announcement, the first "+N" and the round's summary
(OUT/<lang>_<size>_<moment>.png), so that motion, sound cues and words can be looked at in every
language before a change to the table is called done.

Playwright's video needs its own build of ffmpeg. With Debian's `ffmpeg` installed, the script points
Playwright at it; without, it says so and takes the screenshots alone.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import playwright
from playwright.sync_api import Page, sync_playwright

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
LANGS = ("en", "ta", "kn", "te", "sd")
ROUND_LIMIT_S = 300

# One move of the player's, inside the page (what is found is what is clicked): a decision shown (a
# colour, a target, accepting a draw, keeping a drawn card) gets its first answer; else UNO at two
# cards, a raised card (a plain one first), or the stock.
MOVE_JS = """() => {
  const game = document.querySelector('#game');
  if (!game || game.dataset.mine !== 'true') return null;
  const click = (node) => { if (!node) return null; node.click(); return node.dataset.code || node.id || node.dataset.verb || 'clicked'; };
  const answer = document.querySelector("#decision :is([data-color], [data-target], [data-verb='accept'], [data-verb='pass'])");
  if (answer) return click(answer);  // a colour for a wild just chosen, too
  if (game.dataset.awaiting === 'play') {
    const uno = document.querySelector("#uno-btn[aria-pressed='false']");
    if (uno && document.querySelectorAll('#hand .card').length === 2) uno.click();
    return click(document.querySelector('#hand .card.playable:not(.card-W)') || document.querySelector('#hand .card.playable')
                 || document.querySelector('#stock:not(:disabled)'));
  }
  return null;
}"""

# The moments worth a screenshot, each taken the first time it shows.
MOMENTS = {
    "item": "#item-fx",
    "announce": "#announce.show",
    "plus_n": ".plus-n",
    "summary": "#summary-dialog[open]",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def video_ready() -> bool:
    """Points Playwright at Debian's ffmpeg (its own build is not installed: we never run `playwright install`)."""
    browsers = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    revision = next(b["revision"] for b in json.loads(browsers.read_text())["browsers"] if b["name"] == "ffmpeg")
    expected = Path.home() / ".cache" / "ms-playwright" / f"ffmpeg-{revision}" / "ffmpeg-linux"
    if expected.exists():
        return True
    system = shutil.which("ffmpeg")
    if not system:
        print("no ffmpeg (apt-get install ffmpeg): screenshots only, no video")
        return False
    expected.parent.mkdir(parents=True, exist_ok=True)
    expected.symlink_to(system)
    return True


class Server:
    """`unokart serve` on a free loopback port with a fresh database; bots pause so that motion can be seen."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unokart.cli", "serve", "--port", str(self.port), "--db", str(folder / "round.sqlite"),
             "--bot-delay", "0.9", "--round-pause", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not start within 60 s")

    def seat_player(self, name: str) -> tuple[str, str]:
        created = httpx.post(f"{self.url}/api/tables", json={
            "seats": 4, "bots": {"1": "heuristic", "2": "careful", "3": "easy"}, "options": {"target_score": 5000}}).json()
        code = created["code"]
        token = httpx.post(f"{self.url}/api/tables/{code}/join", json={"name": name, "seat": 0}).json()["token"]
        return code, token

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def play_round(page: Page, out: Path, stem: str) -> list[str]:
    """Plays the player's turns until the round's summary shows; returns the moments photographed."""
    taken: list[str] = []

    def shoot(moment: str) -> None:
        page.screenshot(path=str(out / f"{stem}_{moment}.png"))
        taken.append(moment)

    page.wait_for_selector("#game[data-mine='true'][data-awaiting='play']", timeout=60000)
    shoot("table")
    deadline = time.monotonic() + ROUND_LIMIT_S
    while "summary" not in taken:
        if time.monotonic() > deadline:
            shoot("stuck")
            raise RuntimeError(f"{stem}: the round did not end in {ROUND_LIMIT_S} s")
        for moment, selector in MOMENTS.items():
            if moment not in taken and page.locator(selector).count():
                shoot(moment)
        if page.evaluate(MOVE_JS):
            page.wait_for_timeout(700)  # the move's motion plays before the next one
        else:
            page.wait_for_timeout(100)
    return taken


def record(lang: str, size: str, out: Path, with_video: bool, browser) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        try:
            code, token = server.seat_player("علي رضا" if lang == "sd" else "Mo")
            context = browser.new_context(viewport=SIZES[size], record_video_dir=folder if with_video else None,
                                          record_video_size=SIZES[size])
            context.add_init_script(f"if (location.protocol === 'http:') {{ localStorage.setItem('unokart.lang', '{lang}');"
                                    f" localStorage.setItem('unokart.token.{code}', '{token}') }}")
            page = context.new_page()
            page.goto(f"{server.url}/t/{code}")
            page.click("#start-btn")
            taken = play_round(page, out, f"{lang}_{size}")
            page.wait_for_timeout(1500)
            context.close()
            if with_video:
                shutil.move(page.video.path(), out / f"{lang}_{size}.webm")
            print(f"{lang} {size}: {', '.join(taken)}" + (f", {lang}_{size}.webm" if with_video else ""))
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=LANGS, action="append", help="a language (repeatable; default: ta and sd)")
    parser.add_argument("--size", choices=tuple(SIZES), action="append", help="a size (repeatable; default: both)")
    parser.add_argument("--out", type=Path, default=Path("artifacts/round"), help="the folder written (default: %(default)s)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with_video = video_ready()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for lang in args.lang or ["ta", "sd"]:
            for size in args.size or list(SIZES):
                record(lang, size, args.out, with_video, browser)
        browser.close()


if __name__ == "__main__":
    main()
