"""What the ground's folder map and retrieval cost per turn, in a small folder and in a home
folder of 100,000 files (issue 12: a few tens of milliseconds at most).

    python bench/ground_cost.py            # builds the trees in a temp folder, 20 runs each
    python bench/ground_cost.py -n 50 --files 200000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import datetime
from pathlib import Path

from saturnd.turn.ground import Ground, build_ground

REQUEST = "When is my dentist appointment?"


def small_folder(root: Path) -> Path:
    root.mkdir()
    (root / "shopping.txt").write_text("milk\neggs\nflour\n")
    (root / "notes.txt").write_text("Dentist Friday 9am\nCall mum on Sunday\n")
    (root / "budget.csv").write_text("item,amount\nrent,900\nfood,450\n")
    return root


def home_folder(root: Path, files: int) -> Path:
    """`files` files in folders of 100, two levels deep, with text in every tenth."""
    root.mkdir()
    per_folder = 100
    for i in range(files):
        folder = root / f"d{i // (per_folder * 100):03}" / f"e{(i // per_folder) % 100:03}"
        if i % per_folder == 0:
            folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i:06}.txt").write_text("dentist appointment notes\n" if i % 10 == 0 else "")
    return root


def timings(cwd: Path, home: Path, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        build_ground(Ground(cwd=cwd, home=home, now=datetime.now().astimezone(), request=REQUEST))
        out.append((time.perf_counter() - started) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=20, help="runs per folder")
    parser.add_argument("--files", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        home = base / "saturn-home"
        home.mkdir()
        folders = {"3 files": small_folder(base / "small"), f"{args.files:,} files": home_folder(base / "big", args.files)}
        for label, cwd in folders.items():
            ms = sorted(timings(cwd, home, args.n))
            built = build_ground(Ground(cwd=cwd, home=home, now=datetime.now().astimezone(), request=REQUEST))
            print(f"{label}: median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms over {args.n} runs;"
                  f" {built.trace.files_mapped} files mapped, excerpts {built.trace.excerpts}, scan cut: {built.trace.scan_cut}")


if __name__ == "__main__":
    main()
