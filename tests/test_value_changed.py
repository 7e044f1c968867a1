from saturnd.turn.retrieval import Document
from saturnd.turn.value_changed import value_changed

CLUB = Document("book club.md", "# Book club\nNext: Thursday 17 December, 7:30pm at Jo's\nReading: The Bee Sting\n\n"
                                "## Hosting\n- January: Sam\n- March: Priya\n")


def test_change_the_thing_to_a_title_writes_the_files_one_titled_value_or_the_labelled_one():
    assert value_changed("Change the book to Western Lane.", [CLUB]).content == CLUB.text.replace("The Bee Sting", "Western Lane")
    venue = Document("party.md", "Venue: Scout Hut\nCaterer: Blue Plate\n")
    assert value_changed("Change the caterer to Green Fork.", [venue]).content == "Venue: Scout Hut\nCaterer: Green Fork\n"


def test_no_write_where_the_line_is_not_the_one_or_the_new_value_no_title():
    assert value_changed("Change the book to 3pm.", [CLUB]) is None
    assert value_changed("Change the film to Dune.", [CLUB]) is None  # no line labelled film, no film file
