"""``rsb bench``'s rows of the paper algorithms: a whole process, the engine and the reference loop timed in one run."""

from rsb_sim.bench import PaperRow, format_rows, paper_one


def test_paper_row_times_the_process_the_engine_and_the_reference():
    row = paper_one("rs-ucb-m", 2, 300, 3, 1, 0.1, 0.01)  # small: the measured numbers are not asserted
    assert isinstance(row, PaperRow) and row.same_actions
    assert min(row.process_wall, row.engine_wall, row.ref_wall) > 0 and row.ref_trials == 1
    text = format_rows([row])
    assert text.splitlines()[0].startswith("paper algorithms:") and "rs-ucb-m" in text
    assert row.to_dict()["kind"] == "paper"


def test_competitor_row_times_the_process_the_engine_and_the_reference():
    from rsb_sim.bench import CompetitorRow, competitor_one

    row = competitor_one("b-cvts", "cvar_lower", 2, 300, 3, 1)  # small: the measured numbers are not asserted
    assert isinstance(row, CompetitorRow) and row.same_actions and row.dr == "cvar_lower"
    text = format_rows([row])
    assert text.splitlines()[0].startswith("competitors:") and "b-cvts" in text
    assert row.to_dict()["kind"] == "competitor"
