"""The first move on errands in five languages: the model's route against the expected one.

Runs saturnd.turn.first_move.decide_first_move with the built-in tools and a small folder as
context, against an OpenAI-compatible server or the embedded model (started here, stopped after).

With --errands GLOB, the errands of bench/errands matching GLOB are put instead, each with its
files' names as the context the daemon gives (the ground's file names, one a line) and its own
tools; the route expected is its category's (call: look_up or answer, both read the tables; chain
and declined: change; messaging: send; cannot: cannot; ask: change, send or ask).

With --target, each change errand's entry (target.py); with --period, each look-up's and message's
time (period.py).

Usage: python bench/first_move_probe.py [--base-url URL --model NAME] [--embedded ID] [--errands GLOB] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from saturnd.model import weights  # noqa: E402
from saturnd.model.client import ModelClient  # noqa: E402
from saturnd.model.embedded import EmbeddedModel  # noqa: E402
from saturnd.turn.first_move import (  # noqa: E402
    SPELLING,
    WANTS,
    decide_first_move,
    likelihood,
    move_messages,
    read_move,
    schema,
)

BUILTIN_TOOLS = {
    "read_file": "Read a text file (200 lines at a time; start_line to go on).",
    "list_dir": "List a directory: subdirectories end in /, files show sizes.",
    "search_files": "Search text files under a path for a regex or words; gives path:line: text.",
    "calculate": "Exact arithmetic on numbers read from the user's files or messages (totals, differences).",
    "kb_search": "Search the user's knowledge base; gives the best 5 documents.",
    "kb_read": "Read one knowledge base document by name (start_line to go on).",
    "plan": "Record or update the checklist for a task needing several tool calls.",
    "ask_user": "Ask the user one question when a needed value is missing.",
    "remember": "Keep a fact or rule the user just stated about themselves, in their words.",
    "write_file": "Create or overwrite a text file with the given content.",
    "edit_file": "Replace one exact occurrence of old text with new text in a file.",
    "run_command": "Run a shell command in the working folder; gives exit code and output.",
    "web_fetch": "Fetch a web page (http/https) as readable text.",
    "send_message": "Send a text message to a phone number or iMessage email.",
    "send_email": "Send an email to one address or several.",
}
"""The built-in tools at 27faea1, used when saturnd.tools cannot be imported (a tree mid-change)."""


def tool_list() -> tuple[list[dict[str, Any]], str]:
    try:
        from saturnd.tools import builtin_registry

        return builtin_registry().openai_tools(), "saturnd.tools.builtin_registry()"
    except ImportError:
        return [{"type": "function", "function": {"name": n, "description": d}} for n, d in BUILTIN_TOOLS.items()], (
            "BUILTIN_TOOLS (saturnd.tools did not import)")


CONTEXT = "Files in the folder: shopping.txt, notes.txt, budget.csv, recipes/"

# (language, expected route, request, kind): kind "conversion" marks unit conversions.
ERRANDS: list[tuple[str, str, str, str]] = [
    ("en", "look_up", "What's on my shopping list?", ""),
    ("en", "change", "Add oat milk to my shopping list.", ""),
    ("en", "send", "Email Anna at anna@example.com that I'll be late tomorrow.", ""),
    ("en", "cannot", "Order me a large pizza from the place around the corner.", ""),
    ("en", "answer", "How many ounces are 250 grams?", "conversion"),
    ("en", "ask", "Send a message to my dentist.", ""),
    ("en", "answer", "Convert 5 feet 11 inches to centimetres.", "conversion"),
    ("de", "look_up", "Was steht in meinen Notizen über den Zahnarzt?", ""),
    ("de", "change", "Schreib 'Brot' auf meine Einkaufsliste.", ""),
    ("de", "cannot", "Buch mir einen Tisch für zwei heute Abend im Restaurant Adler.", ""),
    ("de", "answer", "Wie viele Kilometer sind 26 Meilen?", "conversion"),
    ("de", "send", "Schick Jonas an +49 170 1234567 eine Nachricht, dass das Training ausfällt.", ""),
    ("de", "answer", "Was ist die Hauptstadt von Kanada?", ""),
    ("de", "ask", "Schreib meiner Schwester eine E-Mail.", ""),
    ("es", "look_up", "¿Cuánto gasto en alquiler según mi presupuesto?", ""),
    ("es", "change", "Cambia el alquiler a 1000 en mi presupuesto.", ""),
    ("es", "cannot", "Enciende las luces del salón.", ""),
    ("es", "answer", "¿Cuántos grados Fahrenheit son 30 grados Celsius?", "conversion"),
    ("es", "send", "Manda un correo a luis@example.com diciendo que la reunión es el lunes.", ""),
    ("es", "cannot", "Reserva un vuelo a Madrid para el viernes.", ""),
    ("fr", "look_up", "Qu'est-ce qu'il y a sur ma liste de courses ?", ""),
    ("fr", "change", "Supprime les œufs de ma liste de courses.", ""),
    ("fr", "cannot", "Paie ma facture d'électricité.", ""),
    ("fr", "answer", "Combien de litres font 3 gallons ?", "conversion"),
    ("fr", "ask", "Envoie un e-mail à mon propriétaire.", ""),
    ("fr", "look_up", "Cherche dans mes notes quand passe le plombier.", ""),
    ("it", "look_up", "Quanto spendo in totale al mese nel mio budget?", ""),
    ("it", "change", "Aggiungi 'chiamare la nonna' alle mie note.", ""),
    ("it", "cannot", "Compra i biglietti per il concerto di sabato.", ""),
    ("it", "answer", "Quante tazze sono 500 millilitri?", "conversion"),
    ("it", "send", "Manda un SMS a Marco al 333 1234567: arrivo alle otto.", ""),
    ("it", "answer", "Quanto fa il 15% di 80?", ""),
]

HELD_OUT: list[tuple[str, str, str, str]] = [
    ("en", "look_up", "When is the next bin day according to my notes?", ""),
    ("en", "cannot", "Renew my passport.", ""),
    ("en", "answer", "What's 3 miles in metres?", "conversion"),
    ("de", "change", "Lösche die Zeile mit dem Klempner aus meinen Notizen.", ""),
    ("de", "look_up", "Wie viel kostet laut Budget der Transport?", ""),
    ("de", "cannot", "Überweis 50 Euro an meinen Vermieter.", ""),
    ("de", "answer", "Wie viel sind 70 Grad Fahrenheit in Celsius?", "conversion"),
    ("es", "ask", "Escríbele un mensaje a mi jefe.", ""),
    ("es", "change", "Añade 'pan' a la lista de la compra.", ""),
    ("es", "answer", "¿Cómo se dice 'gracias' en alemán?", ""),
    ("fr", "send", "Envoie un SMS au 06 12 34 56 78 : j'arrive dans dix minutes.", ""),
    ("fr", "cannot", "Réserve-moi une chambre d'hôtel à Lyon pour samedi.", ""),
    ("fr", "answer", "Combien font 12 pieds en mètres ?", "conversion"),
    ("it", "look_up", "Cosa c'è nella mia lista della spesa?", ""),
    ("it", "cannot", "Accendi il riscaldamento.", ""),
    ("it", "send", "Scrivi una email a paola@example.com: la cena è alle otto.", ""),
    ("it", "ask", "Manda un messaggio al mio vicino.", ""),
]
"""Written after the prompt was tuned on ERRANDS, and never tuned on."""


async def first_tokens(base_url: str) -> list[str]:
    """How llama.cpp's /tokenize splits each route as the grammar writes it (empty elsewhere)."""
    lines = []
    root = base_url.removesuffix("/v1")
    async with aiohttp.ClientSession() as http:
        for route in SPELLING.values():
            try:
                async with http.post(f"{root}/tokenize", json={"content": f'{{"route": "{route}"}}',
                                                               "with_pieces": True}) as response:
                    pieces = [t.get("piece") for t in (await response.json())["tokens"]]
            except (aiohttp.ClientError, KeyError, ValueError, TypeError):
                return []
            lines.append(f"{route}: {pieces}")
    return lines


EXPECTED = {"call": ("look_up", "answer"), "chain": ("change",), "declined": ("change",), "messaging": ("send",),
            "cannot": ("cannot",), "ask": ("change", "send", "ask")}


async def run_errands(client: ModelClient, pattern: str) -> list[str]:
    """Each errand's first move, as the daemon decides it: its tools, its files' names."""
    import yaml

    tools, _ = tool_list()
    out = ["| errand | expected | got | p(got) | p(expected) | p(cannot) |", "|---|---|---|---|---|---|"]
    right: dict[str, list[bool]] = defaultdict(list)
    for path in sorted((REPO / "bench" / "errands").glob(pattern)):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        expected = EXPECTED[document["category"]]
        for task in document["tasks"]:
            offered = [t for t in tools if t["function"]["name"] in task.get("tools", [])] or tools
            names = "\n".join(sorted(task.get("files", {})))
            move = await decide_first_move(client, task["prompt"], offered, names)
            got = move.route if move else "(none)"
            probabilities = move.probabilities if move and move.probabilities else {}
            ok = got in expected
            right[document["category"]].append(ok)
            right["all"].append(ok)
            p_expected = max((probabilities.get(e, 0.0) for e in expected), default=0.0)
            out.append(f"| {task['id']} | {'/'.join(expected)} | {got}{'' if ok else ' ✗'} |"
                       f" {probabilities.get(got, 0.0):.2f} | {p_expected:.2f} | {probabilities.get('cannot', 0.0):.2f} |")
            print(out[-1], flush=True)
    out.append("")
    out += [f"{key}: {sum(hits)}/{len(hits)}" for key, hits in right.items()]
    return out


async def run_period(client: ModelClient, pattern: str) -> list[str]:
    """Each look-up and message errand's time, as the model reads it (period.py), beside its request."""
    import datetime as dt

    import yaml

    from saturnd.turn.period import read_period

    out = ["| errand | time read | request |", "|---|---|---|"]
    for path in sorted((REPO / "bench" / "errands").glob(pattern)):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        if document["category"] not in ("call", "messaging", "ask"):
            continue
        for task in document["tasks"]:
            period = await read_period(client, task["prompt"], dt.date.today())
            out.append(f"| {task['id']} | {period or 'none'} | {task['prompt'][:90]} |")
            print(out[-1], flush=True)
    return out


async def run_target(client: ModelClient, pattern: str) -> list[str]:
    """Each change errand's entry (target.py), and each cannot errand's (whose "does" should be
    away), chosen among the lines its words fit: what it does and its share,
    the line, and whether the person would be asked which; beside it the line the errand's check
    says must change (one holding a `lacks` text), where there is one."""
    import yaml

    from saturnd.turn.target import Line, candidate_lines, choose_target, entry_lines

    out = ["| errand | does | share | line chosen | asks | line that changes |", "|---|---|---|---|---|---|"]
    hits: list[bool] = []
    for path in sorted((REPO / "bench" / "errands").glob(pattern)):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        if document["category"] not in ("ask", "chain", "declined", "cannot"):
            continue
        for task in document["tasks"]:
            every = entry_lines((p, n, line) for p, text in task.get("files", {}).items()
                                for n, line in enumerate(text.splitlines(), 1))
            same_file: dict[str, list[Line]] = defaultdict(list)
            for p, n, line in every:
                same_file[p].append(Line(p, n, line))
            lacks = [text for p, check in (task["check"].get("files") or {}).items() if isinstance(check, dict)
                     for item in check.get("lacks", []) for text in item.split("|")]
            changing = [f"{p}:{n}" for p, n, line in every if any(t in line for t in lacks)]
            target = await choose_target(client, task["prompt"], candidate_lines(every, task["prompt"]), dict(same_file))
            chosen = f"{target.line.path}:{target.line.number}" if target else "(none)"
            if changing:
                hits.append(chosen in changing)
            mark = "" if not changing else (" ✓" if chosen in changing else " ✗")
            share = "" if target is None or target.does_share is None else f"{target.does_share:.2f}"
            out.append(f"| {task['id']} | {target.does if target else ''} | {share} | {chosen}{mark} |"
                       f" {len(target.also) if target else 0} | {', '.join(changing)} |")
            print(out[-1], flush=True)
    out += ["", f"line right where the check names one: {sum(hits)}/{len(hits)}"]
    return out


async def run_second_look(client: ModelClient, pattern: str) -> list[str]:
    """Each errand's move beside the second look's question, asked of every errand (the daemon
    asks it only where the move leaves room): the likelihood that the request wants a change."""
    import yaml

    tools, _ = tool_list()
    out = ["| errand | category | route | p(cannot) | wants a change | shares |", "|---|---|---|---|---|---|"]
    for path in sorted((REPO / "bench" / "errands").glob(pattern)):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        for task in document["tasks"]:
            offered = [t for t in tools if t["function"]["name"] in task.get("tools", [])] or tools
            names = "\n".join(sorted(task.get("files", {})))
            reply = await client.choose(move_messages(names, task["prompt"], offered), schema())
            move = read_move(reply)
            cannot = (move.probabilities or {}).get("cannot", 0.0) if move else 0.0
            change = await likelihood(client, task["prompt"], WANTS)
            out.append(f"| {task['id']} | {document['category']} | {move.route if move else '(none)'} | {cannot:.2f} |"
                       f" {change if change is not None else -1:.2f} |"
                       f" {json.dumps(move.probabilities if move else None)} |")
            print(out[-1], flush=True)
    return out


async def run(client: ModelClient, base_url: str) -> list[str]:
    tools, source = tool_list()
    out = [f"Tools: {len(tools)} from {source}; context: {CONTEXT!r}", "Route tokens (llama.cpp /tokenize):", *[f"    {t}" for t in await first_tokens(base_url)], ""]
    out.append("| lang | expected | got | p(got) | p(expected) | s | request |")
    out.append("|---|---|---|---|---|---|---|")
    right: dict[str, list[bool]] = defaultdict(list)
    rows = [("tuned on", e) for e in ERRANDS] + [("held out", e) for e in HELD_OUT]
    for group, (language, expected, request, kind) in rows:
        started = time.monotonic()
        move = await decide_first_move(client, request, tools, CONTEXT)
        seconds = time.monotonic() - started
        got = move.route if move else "(none)"
        probabilities = move.probabilities if move and move.probabilities else {}
        ok = got == expected
        for key in ("all", language, f"expected {expected}", *([kind] if kind else [])):
            right[f"{group}: {key}"].append(ok)
        p_got = f"{probabilities[got]:.2f}" if got in probabilities else "-"
        p_expected = f"{probabilities[expected]:.2f}" if expected in probabilities else "-"
        out.append(f"| {language}{' (held out)' if group == 'held out' else ''} | {expected} |"
                   f" {got}{'' if ok else ' ✗'} | {p_got} | {p_expected} | {seconds:.1f} | {request} |")
        print(out[-1], flush=True)
    out.append("")
    for key, hits in right.items():
        out.append(f"{key}: {sum(hits)}/{len(hits)}")
    return out


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", default="", help="an OpenAI-compatible server (…/v1)")
    parser.add_argument("--model", default="", help="the model's name on --base-url")
    parser.add_argument("--embedded", default=weights.DEFAULT_MODEL, help="an embedded model id")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--errands", default="", help="put bench/errands/GLOB's errands instead")
    parser.add_argument("--second-look", action="store_true", help="with --errands: the second look's question")
    parser.add_argument("--target", action="store_true", help="with --errands: the entry a change is about")
    parser.add_argument("--period", action="store_true", help="with --errands: the time a question is about")
    parser.add_argument("--out", type=Path, default=None, help="also write the lines here")
    args = parser.parse_args()
    embedded = None
    base_url = args.base_url
    load_before = loadavg()
    if not base_url:
        from bench.daemon import default_model_cache

        log = Path(tempfile.mkdtemp(prefix="first-move-")) / "embedded-model.log"
        embedded = EmbeddedModel(args.embedded, default_model_cache(), log, threads=args.threads or None)
        print(f"starting {args.embedded} (log {log})", flush=True)
        base_url = await embedded.start()
    client = ModelClient(base_url, name=args.model or args.embedded, fresh_connections=embedded is not None,
                         prompt_slots=embedded is not None)
    try:
        if args.errands and args.period:
            lines = await run_period(client, args.errands)
        elif args.errands and args.target:
            lines = await run_target(client, args.errands)
        elif args.errands and args.second_look:
            lines = await run_second_look(client, args.errands)
        else:
            lines = await (run_errands(client, args.errands) if args.errands else run(client, base_url))
    finally:
        await client.close()
        if embedded is not None:
            await embedded.stop()
    lines.append(f"load before: {load_before}; after: {loadavg()}")
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
