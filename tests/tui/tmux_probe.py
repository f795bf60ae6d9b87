"""Inside a terminal: print each line of a JSON list, ask the terminal where its cursor is (DSR), write the columns.

    python tests/tui/tmux_probe.py TEXTS.json WIDTHS.json

Run in tmux by test_cells_match_tmux.py: the columns are the cells tmux itself gave each text.
"""

import json
import os
import sys
import termios
import tty


def cursor_column(fd: int) -> int:
    os.write(1, b"\x1b[6n")  # Device Status Report: the terminal answers ESC [ row ; column R
    answer = b""
    while not answer.endswith(b"R"):
        answer += os.read(fd, 1)
    return int(answer[2:-1].split(b";")[1])


def main() -> None:
    texts = json.load(open(sys.argv[1], encoding="utf-8"))
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    widths = []
    try:
        for text in texts:
            os.write(1, ("\r\x1b[2K" + text).encode("utf-8"))
            widths.append(cursor_column(fd) - 1)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    json.dump(widths, open(sys.argv[2] + ".tmp", "w"))
    os.replace(sys.argv[2] + ".tmp", sys.argv[2])


if __name__ == "__main__":
    main()
