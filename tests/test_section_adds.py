from saturnd.testing.fake_model import Reply, call
from saturnd.turn.retrieval import Document
from saturnd.turn.section_adds import added_for_someone

HOMEWORK = Document("homework.md", "# Homework\n\n## Maya\n- Maths sheet - due Monday\n- Reading: 20 minutes a day\n\n"
                                   "## Leo\n- Draw a dinosaur - due Wednesday\n")


def test_a_thing_added_for_someone_goes_after_the_last_line_under_their_heading_as_its_lines_are_written():
    assert added_for_someone("Add a science project for Maya, due 14 December.", [HOMEWORK]).content == HOMEWORK.text.replace(
        "- Reading: 20 minutes a day\n", "- Reading: 20 minutes a day\n- Science project - due 14 December\n")
    assert added_for_someone("Add a poem for Leo.", [HOMEWORK]).content == HOMEWORK.text + "- Poem\n"


def test_no_add_for_someone_without_a_heading_of_theirs_over_a_list():
    assert added_for_someone("Add milk for Sam.", [HOMEWORK]) is None
    assert added_for_someone("Add a poem for Leo.", [Document("notes.md", "Leo: likes dinosaurs\n")]) is None
    assert added_for_someone("What is due for Maya?", [HOMEWORK]) is None


async def test_an_add_for_someone_declined_after_a_search_is_sent_back_and_written(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    homework = harness.env.workdir / "homework.md"
    homework.write_text(HOMEWORK.text)
    harness.model.enqueue(call("search_files", {"pattern": "science project"}), "I couldn't find any science project.",
                          Reply(text=""), "not json at all", "Added.")
    turn_id, _ = await harness.turn("Add a science project for Maya, due 14 December.", headless=True)
    assert "- Science project - due 14 December\n" in homework.read_text()
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[1].note.startswith('not_acted: "I couldn\'t find any science project."')
