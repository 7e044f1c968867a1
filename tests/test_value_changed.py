from saturnd.testing.fake_model import Reply
from saturnd.turn.retrieval import Document
from saturnd.turn.value_changed import value_changed, value_told
from tests.conftest import of_type

CLUB = Document("book club.md", "# Book club\nNext: Thursday 17 December, 7:30pm at Jo's\nReading: The Bee Sting\n\n"
                                "## Hosting\n- January: Sam\n- March: Priya\n")


def test_change_the_thing_to_a_title_writes_the_files_one_titled_value_or_the_labelled_one():
    assert value_changed("Change the book to Western Lane.", [CLUB]).content == CLUB.text.replace("The Bee Sting", "Western Lane")
    venue = Document("party.md", "Venue: Scout Hut\nCaterer: Blue Plate\n")
    assert value_changed("Change the caterer to Green Fork.", [venue]).content == "Venue: Scout Hut\nCaterer: Green Fork\n"


def test_no_write_where_the_line_is_not_the_one_or_the_new_value_no_title():
    assert value_changed("Change the book to 3pm.", [CLUB]) is None
    assert value_changed("Change the film to Dune.", [CLUB]) is None  # no line labelled film, no film file


SIZES = Document("sizes.md", "# Sizes\n\n## Maya (8)\n- Shoes: 2\n\n## Leo (5)\n- Clothes: age 5-6\n- Shoes: 12 (was 11 in September)\n")


def test_a_value_told_now_is_written_in_the_line_labelled_so_under_the_heading_naming_the_rest():
    assert value_told("Leo's shoes are now a 13.", [SIZES]).content == SIZES.text.replace("12 (was 11 in September)", "13")
    assert value_told("Maya's shoes are now a 3.", [SIZES]).content == SIZES.text.replace("Shoes: 2", "Shoes: 3")
    assert value_told("The shoes are now a 3.", [SIZES]) is None  # two lines labelled so: which is not told
    assert value_told("Leo's coat is now age 6-7.", [SIZES]) is None  # no line labelled so: an add, not a change
    assert value_told("Leo's shoes are a 13?", [SIZES]) is None
    keys = Document("keys.md", "# Keys\n- Shed key: on the hook in the hall\n- Car spare: kitchen drawer\n")
    assert value_told("I've moved the car spare to the safe.", [keys]).content == keys.text.replace("kitchen drawer", "the safe")
    assert value_told("I've moved the meeting to the big room.", [keys]) is None


async def test_a_value_told_now_said_back_is_sent_back_and_written(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    sizes = harness.env.workdir / "sizes.md"
    sizes.write_text(SIZES.text)
    harness.model.enqueue("Leo's shoes are now a 13.", Reply(text=""), "not json at all", "Done.")  # no call it can give
    _, events = await harness.turn("Leo's shoes are now a 13.", headless=True)
    assert sizes.read_text() == SIZES.text.replace("12 (was 11 in September)", "13")
    assert [(e.name, e.fate) for e in of_type(events, "tool_finished")] == [("write_file", "ran")]
