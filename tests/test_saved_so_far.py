from saturnd.turn.saved_so_far import to_go_for_so_far

POTS = ("[Saturn worked out] Holiday 640 of 1500: 1500 - 640 = 860 more to go, 42.7% there; New laptop 420 of 900:"
        " 900 - 420 = 480 more to go, 46.7% there; all 1060 of 2400: 2400 - 1060 = 1340 more to go, 44.2% there")


def test_asked_what_is_saved_an_answer_giving_what_is_still_to_go_goes_back_with_the_amount_so_far():
    assert to_go_for_so_far("You have saved £1,340.", "How much have I saved altogether?", POTS) == (
        "all: 1060 so far, of 2400 (1340 more to go)")
    assert to_go_for_so_far("£860", "How much have I got in the holiday pot so far?", POTS) == (
        "Holiday: 640 so far, of 1500 (860 more to go)")


def test_an_answer_giving_the_amount_so_far_or_a_question_of_what_is_still_to_go_stands():
    assert to_go_for_so_far("You have saved £1,060 in all.", "How much have I saved altogether?", POTS) is None
    assert to_go_for_so_far("£860", "How much more do I need for the holiday?", POTS) is None
    assert to_go_for_so_far("£1,340", "How much have I saved altogether?", "no worked line") is None
    assert to_go_for_so_far("yes", "How much have I saved altogether?", POTS) == "all: 1060 so far, of 2400 (1340 more to go)"
