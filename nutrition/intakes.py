"""Reference daily intakes: how much of each nutrient an adult should reach (a floor) or stay
under (a ceiling), by sex and age, the one table every reader of nutrients uses (the diary's
Nutrients panel, the API summary, the coach's gaps and answers).

    reference_intakes(sex="female", age=30)["iron"]
    -> Reference(amount=Decimal("18"), kind="floor", upper=Decimal("45"), basis="dri", ...)

Sources (public figures; the table below is ours):

- US National Academies (Institute of Medicine, Food and Nutrition Board), Dietary Reference
  Intakes: the RDA, or the AI where no RDA exists, for healthy adults by sex and life stage
  (19-30, 31-50, 51-70, 71+), from the DRI summary tables of the reports on calcium and vitamin D
  (2011), vitamin A, K and the trace elements (2001), vitamin C, E and selenium (2000), the B
  vitamins and choline (1998), energy, fiber and protein (2002/2005), and sodium and potassium
  (2019: the potassium AI, and the sodium Chronic Disease Risk Reduction intake of 2,300 mg as a
  ceiling). The Tolerable Upper Intake Level (UL) is kept where it applies to food as well as
  supplements; the ULs of magnesium, niacin, folate and vitamin E count supplements and fortificants
  only, and that of vitamin A preformed retinol only (we store RAE, carotenoids included), so those
  have none here. Pregnancy and lactation are not covered.
- US FDA Daily Values for adults and children of 4 and over (21 CFR 101.9(c)(8)(iv) and (c)(9),
  2016 rule), the reference when the user's sex or age is not known (or under 19): the values on
  food labels, set at the higher of the sexes' needs.
- Limits without a DRI number (the Academies say "as low as possible" for saturated fat, trans
  fat and cholesterol): the Daily Values' 20 g saturated fat and 300 mg cholesterol, and WHO's
  under 1% of energy for trans fat (about 2 g). Sparky stores total sugars, not added sugars, so
  the 50 g added-sugar Daily Value is a loose ceiling for them.

A goal the user sets for a nutrient overrides its reference (nutrition.selectors.nutrient_intakes).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from nutrition.models import nutrient_unit

FLOOR = "floor"  # reach at least this much
CEILING = "ceiling"  # stay under this much

DAILY_VALUE = "daily_value"
DRI = "dri"
SOURCES = {
    DRI: "US National Academies Dietary Reference Intakes (RDA or AI)",
    DAILY_VALUE: "US FDA Daily Values (21 CFR 101.9, 2016)",
}
# The DRI life stages for adults: a band starts at this age.
AGE_BANDS = (19, 31, 51, 71)
ADULT_AGE = AGE_BANDS[0]

# Nutrients most foods eaten must record before a total says anything: below this share of the
# entries, the total is unknown rather than low (custom foods often carry only macros).
MIN_COVERAGE = 0.7

# The nutrients read against a reference, in the panel's groups and order, with their labels.
GROUPS: dict[str, tuple[str, ...]] = {
    "vitamins": (
        "vitamin_a",
        "vitamin_c",
        "vitamin_d",
        "vitamin_e",
        "vitamin_k",
        "thiamin",
        "riboflavin",
        "niacin",
        "vitamin_b6",
        "folate",
        "vitamin_b12",
        "pantothenic_acid",
        "choline",
    ),
    "minerals": (
        "calcium",
        "iron",
        "magnesium",
        "phosphorus",
        "potassium",
        "zinc",
        "copper",
        "manganese",
        "selenium",
    ),
    "protein_fiber": ("protein", "dietary_fiber"),
    "limits": ("sodium", "saturated_fat", "trans_fat", "cholesterol", "sugars"),
}
GROUP_LABELS = {
    "vitamins": "Vitamins",
    "minerals": "Minerals",
    "protein_fiber": "Protein and fiber",
    "limits": "Limits",
}
LABELS = {
    "vitamin_a": "Vitamin A",
    "vitamin_c": "Vitamin C",
    "vitamin_d": "Vitamin D",
    "vitamin_e": "Vitamin E",
    "vitamin_k": "Vitamin K",
    "thiamin": "Thiamin (B1)",
    "riboflavin": "Riboflavin (B2)",
    "niacin": "Niacin (B3)",
    "vitamin_b6": "Vitamin B6",
    "folate": "Folate",
    "vitamin_b12": "Vitamin B12",
    "pantothenic_acid": "Pantothenic acid (B5)",
    "choline": "Choline",
    "calcium": "Calcium",
    "iron": "Iron",
    "magnesium": "Magnesium",
    "phosphorus": "Phosphorus",
    "potassium": "Potassium",
    "zinc": "Zinc",
    "copper": "Copper",
    "manganese": "Manganese",
    "selenium": "Selenium",
    "protein": "Protein",
    "dietary_fiber": "Fiber",
    "sodium": "Sodium",
    "saturated_fat": "Saturated fat",
    "trans_fat": "Trans fat",
    "cholesterol": "Cholesterol",
    "sugars": "Sugars",
}
CEILINGS = frozenset(GROUPS["limits"])

# Daily Values (units as nutrition.models.nutrient_unit gives them).
DAILY_VALUES: dict[str, str] = {
    "vitamin_a": "900",
    "vitamin_c": "90",
    "vitamin_d": "20",
    "vitamin_e": "15",
    "vitamin_k": "120",
    "thiamin": "1.2",
    "riboflavin": "1.3",
    "niacin": "16",
    "vitamin_b6": "1.7",
    "folate": "400",
    "vitamin_b12": "2.4",
    "pantothenic_acid": "5",
    "choline": "550",
    "calcium": "1300",
    "iron": "18",
    "magnesium": "420",
    "phosphorus": "1250",
    "potassium": "4700",
    "zinc": "11",
    "copper": "0.9",
    "manganese": "2.3",
    "selenium": "55",
    "protein": "50",
    "dietary_fiber": "28",
    "sodium": "2300",
    "saturated_fat": "20",
    "trans_fat": "2",
    "cholesterol": "300",
    "sugars": "50",
}

# DRIs: (men 19-30, 31-50, 51-70, 71+), (women 19-30, 31-50, 51-70, 71+); one value for all.
_Bands = tuple[str, str, str, str]
_DRI: dict[str, tuple[_Bands, _Bands] | str] = {
    "vitamin_a": (("900",) * 4, ("700",) * 4),
    "vitamin_c": (("90",) * 4, ("75",) * 4),
    "vitamin_d": (("15", "15", "15", "20"), ("15", "15", "15", "20")),
    "vitamin_e": "15",
    "vitamin_k": (("120",) * 4, ("90",) * 4),  # AI
    "thiamin": (("1.2",) * 4, ("1.1",) * 4),
    "riboflavin": (("1.3",) * 4, ("1.1",) * 4),
    "niacin": (("16",) * 4, ("14",) * 4),
    "vitamin_b6": (("1.3", "1.3", "1.7", "1.7"), ("1.3", "1.3", "1.5", "1.5")),
    "folate": "400",
    "vitamin_b12": "2.4",
    "pantothenic_acid": "5",  # AI
    "choline": (("550",) * 4, ("425",) * 4),  # AI
    "calcium": (("1000", "1000", "1000", "1200"), ("1000", "1000", "1200", "1200")),
    "iron": (("8",) * 4, ("18", "18", "8", "8")),
    "magnesium": (("400", "420", "420", "420"), ("310", "320", "320", "320")),
    "phosphorus": "700",
    "potassium": (("3400",) * 4, ("2600",) * 4),  # AI, 2019
    "zinc": (("11",) * 4, ("8",) * 4),
    "copper": "0.9",
    "manganese": (("2.3",) * 4, ("1.8",) * 4),  # AI
    "selenium": "55",
    "protein": (("56",) * 4, ("46",) * 4),
    "dietary_fiber": (("38", "38", "30", "30"), ("25", "25", "21", "21")),  # AI
    "sodium": "2300",  # the 2019 Chronic Disease Risk Reduction intake: a ceiling
}
# Tolerable Upper Intake Levels from all sources, by age band (the same for both sexes).
_UPPER: dict[str, _Bands | str] = {
    "vitamin_c": "2000",
    "vitamin_d": "100",
    "choline": "3500",
    "calcium": ("2500", "2500", "2000", "2000"),
    "iron": "45",
    "phosphorus": ("4000", "4000", "4000", "3000"),
    "zinc": "40",
    "copper": "10",
    "manganese": "11",
    "selenium": "400",
}


@dataclass(frozen=True)
class Reference:
    """What a day's intake of one nutrient is read against."""

    nutrient: str
    amount: Decimal
    kind: str  # FLOOR or CEILING
    unit: str
    basis: str  # DRI, DAILY_VALUE, or "goal" when the user's goal overrides it
    upper: Decimal | None = None  # the UL of a floor nutrient, where one applies to food

    @property
    def source(self) -> str:
        return SOURCES.get(self.basis, "your goal")


def amount_text(value) -> str:
    """3.3, 0.45, 1,300: a nutrient's amount with the places its size needs, no more."""
    value = Decimal(value)
    if value >= 100:
        return f"{round(value):,}"
    text = f"{value:.{1 if value >= 1 else 2}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def age_from_birth_year(birth_year: int | None, today: dt.date) -> int | None:
    """The age reached this year (the birthday itself is not asked for)."""
    return None if birth_year is None else today.year - birth_year


def _band(age: int) -> int:
    return max(n for n, start in enumerate(AGE_BANDS) if age >= start)


def reference_intakes(*, sex: str = "", age: int | None = None) -> dict[str, Reference]:
    """Every nutrient of GROUPS with its reference for an adult of that sex and age: the DRI when
    both are known and the age is 19 or more, else the FDA Daily Values."""
    use_dri = sex in ("female", "male") and age is not None and age >= ADULT_AGE
    band = _band(age) if use_dri else None
    out = {}
    for group in GROUPS.values():
        for name in group:
            amount, basis = DAILY_VALUES[name], DAILY_VALUE
            if use_dri and name in _DRI:
                value = _DRI[name]
                amount = value if isinstance(value, str) else value[sex == "female"][band]
                basis = DRI
            upper = _UPPER.get(name) if use_dri else None
            if upper is not None and not isinstance(upper, str):
                upper = upper[band]
            out[name] = Reference(
                nutrient=name,
                amount=Decimal(amount),
                kind=CEILING if name in CEILINGS else FLOOR,
                unit=nutrient_unit(name),
                basis=basis,
                upper=None if upper is None else Decimal(upper),
            )
    return out
