"""Which formulas a change makes stale: references read from formula text, followed across
sheets, names and tables, and through chains of formulas."""

from __future__ import annotations

from app.core.documents.xlsx_refs import (EVERYTHING, Book, Formula, dependents, references,
                                          shifted)

BOOK = Book(["Prices", "My sheet"],
            names={("total", None): "SUM(Prices!$B$2:$B$9)", ("local", 1): "'My sheet'!$A$1"},
            tables={"tblincome": ("Prices", 4, 2, 8, 3)})


def _areas(text, sheet="Prices", at=(2, 3)):
    found = references(text, sheet, at, BOOK)
    return found if found is EVERYTHING else [r[:5] for r in found]


def test_cells_ranges_columns_and_other_sheets():
    assert _areas("B2*1.1+SUM($B$2:B5)") == [("Prices", 2, 2, 2, 2), ("Prices", 2, 2, 5, 2)]
    assert _areas("'My sheet'!A1+Prices!C:C+SUM(3:4)") == [
        ("My sheet", 1, 1, 1, 1), ("Prices", 1, 3, 1_048_576, 3), ("Prices", 3, 1, 4, 16_384)]
    assert _areas('"A1 and B2"&C3') == [("Prices", 3, 3, 3, 3)]       # text is not a reference
    assert _areas("LOG10(D4)+TRUE") == [("Prices", 4, 4, 4, 4)]        # a function, a logical


def test_names_and_tables_resolve_to_their_ranges():
    assert _areas("Total*2") == [("Prices", 2, 2, 9, 2)]
    assert _areas("SUM(tblIncome[Amount])") == [("Prices", 4, 2, 8, 3)]
    assert _areas("[@Amount]*2", at=(5, 3)) == [("Prices", 4, 2, 8, 3)]
    assert _areas("Local", sheet="My sheet") == [("My sheet", 1, 1, 1, 1)]


def test_what_cannot_be_followed_counts_as_everything():
    assert _areas('INDIRECT("B"&A1)') is EVERYTHING
    assert _areas("OFFSET(A1,1,1)") is EVERYTHING
    assert _areas("NoSuchName+1") is EVERYTHING
    assert _areas("SUM(A1:INDEX(B:B,3))") is EVERYTHING            # a range built by a call
    assert _areas("Prices:Other!A1") is EVERYTHING                 # several sheets at once
    assert _areas("[1]Sheet1!A1+B2") == [("Prices", 2, 2, 2, 2)]       # another workbook's cell


def test_a_shared_formula_seen_from_another_cell():
    refs = references("B2*$E$1", "Prices", (2, 3), BOOK)
    assert [r[:5] for r in shifted(refs, 3, 0)] == [("Prices", 5, 2, 5, 2), ("Prices", 1, 5, 1, 5)]


def test_stale_results_follow_chains_and_other_sheets_and_nothing_else():
    def f(sheet, row, col, text):
        return Formula(sheet, row, col, references(text, sheet, (row, col), BOOK))

    formulas = [f("Prices", 2, 3, "B2*1.1"), f("Prices", 2, 4, "C2+1"),
                f("My sheet", 1, 1, "SUM(Prices!D:D)"), f("Prices", 3, 3, "B3*1.1"),
                f("Prices", 9, 9, "Total"), f("Prices", 10, 9, "SUM(A1:Z20)"),
                f("Prices", 11, 9, "Z99")]
    stale = dependents(formulas, {("Prices", 2, 2)})
    assert [(x.sheet, x.row, x.col) for x in stale] == [
        ("Prices", 2, 3), ("Prices", 2, 4), ("My sheet", 1, 1), ("Prices", 9, 9),
        ("Prices", 10, 9)]
