"""The read-only built-in tools: read_file, list_dir, search_files, kb_search, kb_read."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from saturnd.tools.builtin_files import (
    FILE_TOOLS,
    LIST_DIR,
    READ_FILE,
    SEARCH_FILES,
    ListDirParams,
    ReadFileParams,
    SearchFilesParams,
    ToolFailure,
)
from saturnd.tools.kb import (
    KB_READ,
    KB_SEARCH,
    KB_TOOLS,
    KbReadParams,
    KbSearchParams,
    kb_manifest,
)
from saturnd.tools.registry import Registry, ToolEnv


@pytest.fixture
def env(tmp_path: Path) -> ToolEnv:
    (tmp_path / "work").mkdir()
    return ToolEnv(cwd=tmp_path / "work", kb_dir=tmp_path / "kb")


async def read(env: ToolEnv, path: str, **kw: int) -> str:
    return await READ_FILE.run(ReadFileParams(path=path, **kw), env)


async def search(env: ToolEnv, pattern: str, path: str = ".", glob: str = "") -> str:
    return await SEARCH_FILES.run(SearchFilesParams(pattern=pattern, path=path, glob=glob), env)


# -- the tool set ----------------------------------------------------------------------------


def test_tool_set_metadata() -> None:
    tools = FILE_TOOLS + KB_TOOLS
    assert [t.name for t in tools] == [
        "read_file",
        "list_dir",
        "search_files",
        "kb_search",
        "kb_read",
    ]
    assert {t.name: t.outside for t in tools} == {
        "read_file": True,
        "list_dir": False,
        "search_files": True,
        "kb_search": True,
        "kb_read": True,
    }
    assert all(t.risk == "read_only" for t in tools)
    assert all(len(t.description) <= 80 for t in tools)
    assert len(Registry(tools).openai_tools()) == 5
    assert READ_FILE.parameters_schema()["required"] == ["path"]


def test_params_forbid_unknown_fields() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"path": "a", "bogus": 1}, ReadFileParams)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"path": "a", "start_line": 0}, ReadFileParams)
    params = msgspec.convert({"pattern": "x"}, SearchFilesParams)
    assert (params.path, params.glob) == (".", "")


# -- read_file -------------------------------------------------------------------------------


async def test_read_file_whole(env: ToolEnv) -> None:
    (env.cwd / "notes.txt").write_text("alpha\nbeta\r\ngamma\n")
    assert await read(env, "notes.txt") == "notes.txt (lines 1-3 of 3)\nalpha\nbeta\ngamma"


async def test_read_file_window_and_more_note(env: ToolEnv) -> None:
    (env.cwd / "n.txt").write_text("".join(f"line {i}\n" for i in range(1, 11)))
    assert await read(env, "n.txt", start_line=3, max_lines=2) == (
        "n.txt (lines 3-4 of 10)\nline 3\nline 4\n… 6 more lines; read more with start_line=5"
    )
    assert await read(env, "n.txt", start_line=10) == "n.txt (lines 10-10 of 10)\nline 10"


async def test_read_file_default_is_200_lines(env: ToolEnv) -> None:
    (env.cwd / "n.txt").write_text("x\n" * 250)
    out = await read(env, "n.txt")
    assert out.startswith("n.txt (lines 1-200 of 250)\n")
    assert out.endswith("\n… 50 more lines; read more with start_line=201")


async def test_read_file_caps_at_16kb(env: ToolEnv) -> None:
    (env.cwd / "big.txt").write_text(("y" * 99 + "\n") * 300)  # 30 KB in 100-char lines
    out = await read(env, "big.txt", max_lines=1000)
    assert out.startswith("big.txt (lines 1-160 of 300)\n")
    assert out.endswith("\n… output capped at 16 KB; read more with start_line=161")
    assert len(out) < 16_500


async def test_read_file_cuts_one_huge_line(env: ToolEnv) -> None:
    (env.cwd / "one.txt").write_text("z" * 40_000 + "\nnext\n")
    out = await read(env, "one.txt")
    assert out == (
        "one.txt (lines 1-1 of 2)\n"
        + "z" * 16_000
        + "\n… line 1 cut at 16 KB; read more with start_line=2"
    )


async def test_read_file_absolute_and_home(
    env: ToolEnv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "abs.txt").write_text("hi\n")
    assert (
        await read(env, str(tmp_path / "abs.txt")) == f"{tmp_path / 'abs.txt'} (lines 1-1 of 1)\nhi"
    )
    monkeypatch.setenv("HOME", str(tmp_path))
    assert await read(env, "~/abs.txt") == "~/abs.txt (lines 1-1 of 1)\nhi"


async def test_read_file_empty_and_past_end(env: ToolEnv) -> None:
    (env.cwd / "empty.txt").write_text("")
    assert await read(env, "empty.txt") == "empty.txt (empty file)"
    (env.cwd / "two.txt").write_text("a\nb\n")
    with pytest.raises(ToolFailure, match=r"^start_line 5 is past the end of two.txt \(2 lines\)$"):
        await read(env, "two.txt", start_line=5)


async def test_read_file_refusals(env: ToolEnv) -> None:
    with pytest.raises(ToolFailure, match="^no such file: nope.txt$"):
        await read(env, "nope.txt")
    (env.cwd / "sub").mkdir()
    with pytest.raises(ToolFailure, match="^sub is a directory; use list_dir$"):
        await read(env, "sub")
    (env.cwd / "img.png").write_bytes(b"\x89PNG\r\n\x00\x00data")
    with pytest.raises(ToolFailure, match="^img.png is a binary file; not shown$"):
        await read(env, "img.png")


# -- list_dir --------------------------------------------------------------------------------


async def test_list_dir(env: ToolEnv) -> None:
    (env.cwd / "b.txt").write_text("x" * 12)
    (env.cwd / "A.md").write_text("x" * 2048)
    (env.cwd / ".hidden").write_text("")
    (env.cwd / "src").mkdir()
    (env.cwd / ".git").mkdir()
    (env.cwd / ".git" / "HEAD").write_text("ref")
    out = await LIST_DIR.run(ListDirParams(), env)
    assert out == ". (5 entries)\n.git/\n.hidden  0 B\nA.md  2.0 KB\nb.txt  12 B\nsrc/"


async def test_list_dir_subdir_empty_and_missing(env: ToolEnv) -> None:
    (env.cwd / "sub").mkdir()
    assert await LIST_DIR.run(ListDirParams(path="sub"), env) == "sub (empty)"
    with pytest.raises(ToolFailure, match="^no such directory: gone$"):
        await LIST_DIR.run(ListDirParams(path="gone"), env)
    (env.cwd / "f.txt").write_text("")
    with pytest.raises(ToolFailure, match="^not a directory: f.txt$"):
        await LIST_DIR.run(ListDirParams(path="f.txt"), env)


async def test_list_dir_caps_at_200(env: ToolEnv) -> None:
    for i in range(205):
        (env.cwd / f"f{i:03d}").write_text("")
    lines = (await LIST_DIR.run(ListDirParams(), env)).split("\n")
    assert lines[0] == ". (205 entries)"
    assert lines[1] == "f000  0 B"
    assert lines[200] == "f199  0 B"
    assert lines[201:] == ["… 5 more"]


# -- search_files ----------------------------------------------------------------------------


async def test_search_files(env: ToolEnv) -> None:
    (env.cwd / "a.py").write_text("import os\n    def Hello():\n        pass\n")
    (env.cwd / "sub").mkdir()
    (env.cwd / "sub" / "b.txt").write_text("say hello\nbye\n")
    for skipped in (".git", "node_modules", ".venv", "__pycache__"):
        (env.cwd / skipped).mkdir()
        (env.cwd / skipped / "x.txt").write_text("hello\n")
    (env.cwd / "bin.dat").write_bytes(b"hello\x00world")
    (env.cwd / "huge.txt").write_text("hello\n" + "x" * 1_000_001)
    assert await search(env, r"hel+o") == "a.py:2: def Hello():\nsub/b.txt:1: say hello"
    assert await search(env, "hello", glob="*.txt") == "sub/b.txt:1: say hello"
    assert await search(env, "hello", path="sub") == "sub/b.txt:1: say hello"
    assert await search(env, "bye", path="sub/b.txt") == "sub/b.txt:2: bye"


async def test_search_files_invalid_regex_falls_back_to_literal(env: ToolEnv) -> None:
    (env.cwd / "c.py").write_text("x = f(a[1]\ny = f(b)\n")
    assert await search(env, "f(a[") == (
        "note: not a valid regex; searched as literal text\nc.py:1: x = f(a[1]"
    )


async def test_search_files_no_match_and_missing(env: ToolEnv) -> None:
    (env.cwd / "a.txt").write_text("nothing here\n")
    assert await search(env, "zebra") == "no matches for 'zebra' in ."
    with pytest.raises(ToolFailure, match="^no such file or directory: nowhere$"):
        await search(env, "x", path="nowhere")
    with pytest.raises(ToolFailure, match=(
        "^no such file or directory: kb:people.md; the knowledge base is searched with kb_search and read with kb_read$"
    )):
        await search(env, "Ana Ruiz", path="kb:people.md")


async def test_search_files_caps(env: ToolEnv) -> None:
    (env.cwd / "many.txt").write_text("".join(f"match {i}\n" for i in range(60)))
    (env.cwd / "long.txt").write_text("  match " + "w" * 300 + "\n")
    lines = (await search(env, "match")).split("\n")
    assert lines[0] == "long.txt:1: match " + "w" * 194 + "…"
    assert lines[1] == "many.txt:1: match 0"
    assert len(lines) == 51
    assert lines[-1] == "… stopped at 50 matches; narrow the pattern, path or glob"


# -- knowledge base --------------------------------------------------------------------------


def write_kb(kb: Path) -> None:
    (kb / "guides").mkdir(parents=True)
    (kb / "garden.md").write_text("# Garden plan\n\nTomatoes go in the south bed in May.\n")
    (kb / "guides" / "backup.md").write_text(
        "# Backups\n\nThe nightly backup copies photos to the NAS.\nRestore photos with rsync.\n"
    )
    (kb / "todo.txt").write_text("buy tomatoes\ncall the plumber\n")
    (kb / ".secret.md").write_text("# Hidden\nphotos tomatoes\n")
    (kb / "image.png").write_bytes(b"\x89PNG\x00")


async def kb_search(env: ToolEnv, query: str) -> str:
    return await KB_SEARCH.run(KbSearchParams(query=query), env)


async def test_kb_search_ranks_and_formats(env: ToolEnv) -> None:
    write_kb(env.kb_dir)
    assert await kb_search(env, "Where do the tomatoes go? May") == (
        "garden.md — Garden plan: Tomatoes go in the south bed in May.\n"
        "todo.txt — todo.txt: buy tomatoes"
    )
    assert await kb_search(env, "restore photos") == (
        "guides/backup.md — Backups: The nightly backup copies photos to the NAS."
    )
    assert await kb_search(env, "quantum physics") == "no documents match"
    with pytest.raises(ToolFailure, match="^the query needs words of 3 or more letters$"):
        await kb_search(env, "is it the")


async def test_kb_search_top_five_and_snippet_trim(env: ToolEnv) -> None:
    env.kb_dir.mkdir()
    for i in range(7):
        (env.kb_dir / f"d{i}.md").write_text("word " * i + "\n")
    (env.kb_dir / "long.md").write_text("x" * 100 + " needle " + "y" * 200 + "\n")
    out = (await kb_search(env, "word")).split("\n")
    assert [line.split(" ")[0] for line in out] == ["d6.md", "d5.md", "d4.md", "d3.md", "d2.md"]
    assert await kb_search(env, "needle") == (
        "long.md — long.md: …" + "x" * 39 + " needle " + "y" * 73 + "…"
    )


async def test_kb_search_empty_or_missing(env: ToolEnv) -> None:
    assert await kb_search(env, "anything") == "the knowledge base is empty (~/.saturn/kb/)"
    env.kb_dir.mkdir()
    (env.kb_dir / "picture.jpg").write_bytes(b"\xff\xd8")
    assert await kb_search(env, "anything") == "the knowledge base is empty (~/.saturn/kb/)"


async def test_kb_read(env: ToolEnv) -> None:
    write_kb(env.kb_dir)
    out = await KB_READ.run(KbReadParams(name="guides/backup.md"), env)
    assert out == (
        "guides/backup.md (lines 1-4 of 4)\n# Backups\n\n"
        "The nightly backup copies photos to the NAS.\nRestore photos with rsync."
    )
    out = await KB_READ.run(KbReadParams(name="guides/backup.md", start_line=4), env)
    assert out == "guides/backup.md (lines 4-4 of 4)\nRestore photos with rsync."
    (env.kb_dir / "long.md").write_text("l\n" * 300)
    out = await KB_READ.run(KbReadParams(name="long.md"), env)
    assert out.endswith("\n… 100 more lines; read more with start_line=201")


async def test_kb_read_refusals(env: ToolEnv, tmp_path: Path) -> None:
    write_kb(env.kb_dir)
    (tmp_path / "outside.md").write_text("secret\n")
    (env.kb_dir / "link.md").symlink_to(tmp_path / "outside.md")
    for name in (
        "../outside.md",
        "guides/../../outside.md",
        "guides/../garden.md",
        str(tmp_path / "outside.md"),
        "link.md",
    ):
        with pytest.raises(ToolFailure, match="^not a knowledge base document name: "):
            await KB_READ.run(KbReadParams(name=name), env)
    with pytest.raises(ToolFailure, match="^no such kb document: missing.md$"):
        await KB_READ.run(KbReadParams(name="missing.md"), env)
    with pytest.raises(ToolFailure, match="binary"):
        await KB_READ.run(KbReadParams(name="image.png"), env)


async def test_kb_read_of_a_file_in_the_folder_says_to_read_it_there(env: ToolEnv) -> None:
    write_kb(env.kb_dir)
    (env.cwd / "budget.csv").write_text("item,amount\nrent,1200\n")
    with pytest.raises(ToolFailure, match=(
        "^no such kb document: budget.csv; budget.csv is a file in the working folder: read it with read_file$"
    )):
        await KB_READ.run(KbReadParams(name="budget.csv"), env)


def test_kb_manifest(tmp_path: Path) -> None:
    assert kb_manifest(tmp_path / "missing") == []
    write_kb(tmp_path / "kb")
    (tmp_path / "kb" / "notitle.md").write_text("## Only a subheading\n")
    assert kb_manifest(tmp_path / "kb") == [
        ("garden.md", "Garden plan", 52),
        ("guides/backup.md", "Backups", 83),
        ("notitle.md", "notitle.md", 21),
        ("todo.txt", "todo.txt", 30),
    ]


async def test_a_missing_file_names_the_near_names_in_its_folder(env: ToolEnv) -> None:
    (env.cwd / "notes.txt").write_text("Dentist Friday 9am\n")
    (env.cwd / "budget.csv").write_text("rent,900\n")
    with pytest.raises(ToolFailure, match="^no such file: note.txt; near names here: notes.txt$"):
        await read(env, "note.txt")
    with pytest.raises(ToolFailure, match="^no such file: budget.xlsx; near names here: budget.csv$"):
        await read(env, "budget.xlsx")


async def test_a_missing_file_names_the_files_of_a_like_name_further_down(env: ToolEnv) -> None:
    deep = env.cwd / "ehrenamt" / "repair-cafe" / "elektro"
    deep.mkdir(parents=True)
    (deep.parent / "ablauf.md").write_text("# Repair-Café\n")
    (deep / "offene-reparaturen.md").write_text("- [ ] Toaster\n")
    camp = env.cwd / "scout" / "reparto" / "campo-invernale-2026"
    camp.mkdir(parents=True)
    (camp / "quote.md").write_text("- [ ] Matteo\n")
    with pytest.raises(ToolFailure, match="^no such file: ablauf.md; files of a like name further down: "
                                          "ehrenamt/repair-cafe/ablauf.md$"):
        await read(env, "ablauf.md")
    with pytest.raises(ToolFailure, match="further down: scout/reparto/campo-invernale-2026/quote.md$"):
        await read(env, "scout/reparto/quota")
    with pytest.raises(ToolFailure, match="^no such file: rechnungen.md$"):
        await read(env, "rechnungen.md")


async def test_a_query_tables_name_given_as_a_path_names_its_file(env: ToolEnv) -> None:
    (env.cwd / "te").mkdir()
    (env.cwd / "te" / "samling.yaml").write_text("teer:\n  - namn: Sencha\n    pris_kr: 129\n")
    with pytest.raises(ToolFailure, match="^no such file: te_samling; te_samling is the query table of the file te/samling.yaml"):
        await read(env, "te_samling")


async def test_a_phrase_with_no_literal_match_is_searched_by_its_words(env: ToolEnv) -> None:
    (env.cwd / "notes.txt").write_text("Call mum\nDentist Friday 9am\n")
    (env.cwd / "shopping.txt").write_text("milk\neggs\n")
    assert await search(env, " dentist schedule") == (
        "no matches for ' dentist schedule' in .\n"
        "lines with its words (denti, sched), best first:\n"
        "notes.txt:2: Dentist Friday 9am"
    )
    # A word of a file's name finds the file's lines: "my shopping list" is shopping.txt.
    assert (await search(env, "shopping list")).endswith("shopping.txt:1: milk\nshopping.txt:2: eggs")


async def test_a_folder_given_as_the_file_to_change_names_the_files_in_it(env: ToolEnv) -> None:
    from saturnd.tools.acting import EDIT_FILE, EditFileParams

    (env.cwd / "mineraler").mkdir()
    (env.cwd / "mineraler" / "bytlista.md").write_text("- Ametist\n")
    (env.cwd / "noter.txt").write_text("x\n")
    with pytest.raises(ToolFailure, match=r"^\. is a directory; give a file path: the files in it are noter.txt, mineraler/bytlista.md$"):
        await EDIT_FILE.run(EditFileParams(path=".", old="Ametist", new="Kvarts"), env)
