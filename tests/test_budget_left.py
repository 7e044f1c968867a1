from datetime import date

from saturnd.tools import builtin_registry
from saturnd.turn.budget_left import budget_for_the_spend, budget_left
from saturnd.turn.claims import Claim, unbacked_claim
from saturnd.turn.retrieval import Document, relevant_excerpts

TODAY = date(2026, 12, 4)
GIVING = ["# Giving", "", "Budget for the year: £300", "Gift Aid: yes for all of them"]
DONATIONS = ["date,charity,amount", "2025-12-20,RNLI,15", "2026-01-01,Oxfam,10", "2026-09-22,Shelter,25", "2026-12-01,Oxfam,10"]


def test_a_budget_left_is_its_amount_less_the_tables_total_over_its_period():
    parts = [("giving.md", GIVING), ("donations.csv", DONATIONS)]
    assert budget_left("How much of my giving budget is left?", parts, TODAY) == (
        "[Saturn worked out] budget £300 for the year - donations.csv amount over the 2026 rows (3) 45 = 255 left")
    monthly = [("money.md", ["Fun budget: £50 a month"]), ("donations.csv", DONATIONS)]
    assert budget_left("How much budget have I got left?", monthly, TODAY) == (
        "[Saturn worked out] budget £50 for the month - donations.csv amount over the December 2026 rows (1) 10 = 40 left")
    assert budget_left("How much have I given?", parts, TODAY) == ""  # nothing left asked
    assert budget_left("How much of my budget is left?", [("giving.md", GIVING)], TODAY) == ""  # no table


def test_asked_what_a_budget_has_left_the_dated_money_table_comes_in():
    docs = [Document("giving.md", "\n".join(GIVING)), Document("donations.csv", "\n".join(DONATIONS)),
            Document("recipes.md", "# Soup\n- leeks\n")]
    shown = [p.source for p in relevant_excerpts("How much of my giving budget is left?", docs, today=TODAY)]
    assert shown == ["giving.md", "donations.csv"]


def test_the_budget_given_as_what_was_spent_goes_back_with_the_totals():
    seen = ("Budget for the year: £300\ndate,charity,amount\n2026-01-01,Oxfam,10\n2026-09-22,Shelter,25\n"
            "[Saturn worked out] totals over 2 rows: amount = 35")
    assert budget_for_the_spend("You have given £300 this year.", "How much have I given this year?", seen) == (
        "totals over 2 rows: amount = 35")
    assert budget_for_the_spend("£35.", "How much have I given this year?", seen) is None
    assert budget_for_the_spend("£300.", "What's my budget?", seen) is None
    assert budget_for_the_spend("£300.", "How much can I spend this year?", seen) is None  # what it allows: the budget
    claim = unbacked_claim("You have given £300 this year.", [], builtin_registry(), "How much have I given this year?",
                           documents_at_hand=True, seen=seen)
    assert claim == Claim("total_left_out", "totals over 2 rows: amount = 35")
