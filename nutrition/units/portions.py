"""The portion algorithm: what an amount of a food is, as a multiple of the nutrients it
stores, through the food's servings, its weight, its volume, its pieces or a standard size."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from functools import cached_property

from django.core.exceptions import ValidationError

from nutrition.models import FNDDS_SOURCE
from nutrition.units.parsing import (
    Portion,
    Unit,
    _labelled_ml,
    _matches,
    _plain,
    clean_quantity,
    head_of,
    parse_unit,
    sizes_in,
)
from nutrition.units.sizes import (
    CONTAINER_SIZES,
    SIZED_STANDARD_SIZES,
    STANDARD_PIECES,
    standard_size,
)
from nutrition.units.words import (
    _PLACES,
    BIG_PIECE_KCAL,
    CONTAINER_SERVINGS,
    CONTAINERS,
    DRINK_GRAMS,
    DRINK_SIZES_ML,
    GENERIC_PIECES,
    GLASS,
    HELPING_GRAMS,
    HELPING_KCAL,
    KCAL,
    LABELLED_SERVING,
    MASS_G,
    MAX_COUNT,
    MAX_GRAMS,
    MAX_ML,
    MEASURE_HEADS,
    NOT_PIECES,
    PART_PIECES,
    PIECE,
    SERVING,
    SEVERAL,
    SIDE_MEASURED,
    SINGLE_PACKS,
    SIZE_RATIOS,
    SIZES,
    STAND_INS,
    TINY_PIECE_KCAL,
    VOLUME_ML,
    VOLUME_STAND_INS,
    WHOLE_GRAMS,
    WHOLE_KCAL,
    _singular,
)


def portion(
    *, food, quantity, unit=None, variant=None, variants=None, unsized=False, several=False
) -> Portion:
    """How much of `food` `quantity` `unit` is: the multiplier of its stored nutrients.

    `variant` is a household serving the caller already chose; `variants` may pass the food's
    servings to spare a query (they are read from the database only when needed). `unsized`
    says no count was given ("almonds", "with blueberries"): a tiny piece then gives way to a
    household measure.
    """
    amount_of = clean_quantity(quantity)
    asked = parse_unit(unit)
    amount = (amount_of * asked.factor).quantize(_PLACES)
    base = _Base(food, variants)
    if variant is not None:
        if variant.food_id != food.id:
            raise ValidationError(
                f"That serving belongs to another food, not {food.readable_name}.",
                code="unknown_unit",
            )
        if not asked.label or asked.canonical == PIECE or _matches(variant, asked):
            served = _as_served(variant, amount, asked)
            return _checked(food, _via_variant(base, variant, served), amount, asked)

    if asked.canonical == GLASS:
        labelled = base.labelled_serving()
        if labelled is not None:
            return _checked(food, _via_variant(base, labelled, amount, label=GLASS), amount, asked)
        asked = Unit(asked.factor, "cup", "cup")

    result = None
    if asked.canonical == KCAL:
        if not food.calories:
            raise ValidationError(
                f"{food.readable_name} has no calories on record, so it can't be measured in "
                "calories; give an amount in grams or servings.",
                code="unknown_unit",
            )
        mult = amount / Decimal(food.calories)
        return Portion(mult, KCAL, None, base.grams_for(mult), amount)
    if not asked.label:
        result = _natural(base, amount, unsized=unsized or several, several=several)
    elif asked.canonical == SERVING:
        result = Portion(amount, SERVING, None, base.grams_for(amount))
    elif base.unit_matches(asked):
        mult = amount / base.amount
        result = Portion(mult, asked.label, None, base.grams_for(mult))
    elif asked.canonical in MASS_G:
        grams = amount * MASS_G[asked.canonical]
        if base.grams:
            result = Portion(grams / base.grams, asked.canonical, None, grams)
    if result is None and asked.label and asked.canonical not in CONTAINERS:
        same = [v for v in base.usable_variants() if _matches(v, asked)]
        # "a bar of chocolate" is the bar, not its miniature
        match = next((v for v in same if "mini" not in _plain(v)), same[0] if same else None)
        if match is not None:
            result = _via_variant(base, match, _as_served(match, amount, asked), asked.label)
    if result is None and asked.canonical in CONTAINERS:
        result = _container(base, amount, asked.canonical, asked.size)
        if result is None and asked.canonical in ("plate", "bowl"):
            result = _natural(base, amount)  # a plate of fries: the food's own helping
    if result is None and asked.canonical in SIZES:
        result = _sized(base, amount, asked.canonical)
    if result is None and asked.word in VOLUME_STAND_INS:
        result = _by_volume(base, amount * VOLUME_STAND_INS[asked.word], asked.word)
    if result is None and asked.canonical in DRINK_SIZES_ML and base.a_drink():
        result = _by_volume(base, amount * DRINK_SIZES_ML[asked.canonical], asked.canonical)
    for stand_in in STAND_INS.get(asked.word, ()) if result is None else ():
        match = next(
            (v for v in base.usable_variants() if head_of(v.serving_unit) == stand_in), None
        )
        if match is not None:  # "a slice of cheesecake" is its "piece"
            result = _via_variant(base, match, amount)
            break
    if result is None and asked.canonical in VOLUME_ML:
        result = _by_volume(base, amount * VOLUME_ML[asked.canonical], asked.canonical)
    if result is None and (asked.canonical in (PIECE, *SIZES) or base.names(asked.word)):
        result = _pieces(base, amount)
    if result is None and asked.canonical == PIECE:
        # "a piece of lasagna": a food with no piece of its own is eaten by the serving
        result = _one_serving(base, amount)
    if result is None:
        raise ValidationError(
            f"{asked.label!r} is not a unit I can convert for {food.readable_name}; use one of: "
            f"{', '.join(available_units(food, variants=base.variants))}.",
            code="unknown_unit",
        )
    return _checked(food, result, amount, asked)


def available_units(food, variants=None) -> list[str]:
    """The units `portion` accepts for this food, for messages and tool hints."""
    base = _Base(food, variants)
    units = [SERVING]
    if base.unit_word and base.unit_word not in units:
        units.append(base.unit_word)
    if base.grams:
        units += ["g", "oz", "kg", "lb"]
    if base.ml or base.density():
        units += ["ml", "cup", "tbsp", "tsp", "fl oz", GLASS]
    elif base.labelled_serving() is not None:
        units.append(GLASS)
    if base.piece_variant() is not None or base.counted:
        units.append(PIECE)
    for v in base.usable_variants():
        units.append(head_of(v.serving_unit))
    return list(dict.fromkeys(u for u in units if u))


# --- internals -----------------------------------------------------------------------------------


class _Base:
    """The food's stored serving, as an amount of a unit, with its weight when known."""

    def __init__(self, food, variants=None):
        self.food = food
        self._variants = list(variants) if variants is not None else None
        size = food.serving_size
        self.size = Decimal(size) if size is not None and Decimal(size) > 0 else Decimal(1)
        parsed = parse_unit(food.serving_unit or SERVING)
        self.amount = self.size * parsed.factor  # "100 g" -> 100, "2 slice" -> 2
        self.unit = parsed
        self.unit_word = parsed.label
        mass, volume = MASS_G.get(parsed.canonical), VOLUME_ML.get(parsed.canonical)
        self.direct_grams = self.amount * mass if mass else None
        self.ml = self.amount * volume if volume else None
        # Counted in pieces: a serving of "1 bar", "2 slices", "1 piece", "1 serving".
        self.counted = mass is None and volume is None

    @cached_property
    def grams(self) -> Decimal | None:
        """The serving's weight: its own unit, or a household serving of the same unit."""
        if self.direct_grams is not None:
            return self.direct_grams
        for v in self.usable_variants(weighed=True):
            if _matches(v, self.unit):
                return Decimal(v.gram_weight) / Decimal(v.serving_size) * self.amount
        return None

    @property
    def variants(self) -> list:
        if self._variants is None:
            self._variants = list(self.food.variants.all()) if self.food.pk else []
        return self._variants

    def usable_variants(self, weighed: bool = False) -> list:
        return [
            v
            for v in self.variants
            if v.serving_size and Decimal(v.serving_size) > 0 and (v.gram_weight or not weighed)
        ]

    def unit_matches(self, asked: Unit) -> bool:
        return bool(asked.label) and asked.label == self.unit_word

    def grams_for(self, multiplier: Decimal) -> Decimal | None:
        # Only a weight known without reading the household servings: totals stay one query.
        return None if self.direct_grams is None else self.direct_grams * multiplier

    def names(self, word: str) -> bool:
        """Whether a unit word is the food itself: "2 bananas" of "Bananas, raw"."""
        words = {_singular(w) for w in re.findall(r"[a-z]+", self.food.name.lower())}
        return len(word) > 2 and _singular(word) in words

    def variant_multiplier(self, variant) -> Decimal | None:
        """The multiplier of one `variant.serving_size` of the variant."""
        if variant.gram_weight and self.grams:
            return Decimal(variant.gram_weight) / self.grams
        calories = self.food.calories
        if variant.calories is not None and calories:
            return Decimal(variant.calories) / Decimal(calories)
        return None

    def density(self) -> Decimal | None:
        """Grams per ml, from a household volume serving that has a weight, or from a labelled
        serving that says its volume ("serving 1/2 cup" of ice cream)."""
        for v in self.usable_variants(weighed=True):
            head = head_of(v.serving_unit)
            if head in VOLUME_ML:
                ml = Decimal(v.serving_size) * VOLUME_ML[head]
                return Decimal(v.gram_weight) / ml
        for v in self.usable_variants(weighed=True):
            if ml := _labelled_ml(v):
                return Decimal(v.gram_weight) / ml
        return None

    def piece_variant(self):
        usable = [v for v in self.usable_variants() if self.variant_multiplier(v) is not None]
        # "fruit yields" is juice; "unit (yield from 1 lb ready-to-cook chicken)" is a share of
        # a pound, not a piece: the latter only when nothing else names a piece.
        usable = [v for v in usable if "yields" not in _plain(v)]
        named = [v for v in usable if "yield" not in _plain(v)]
        return self._piece_among(named) or self._piece_among(usable)

    def _piece_among(self, pieces: list):
        by_head: dict = {}
        for v in pieces:
            head = head_of(v.serving_unit)
            # of "doughnut hole", "doughnut" and "doughnut, large", the plain "doughnut"; of
            # "bar, miniature" and "bar (1.55 oz)", the bar
            kept = by_head.get(head)
            if (
                kept is None
                or (_plain(v) == head and _plain(kept) != head)
                or ("mini" in _plain(kept) and "mini" not in _plain(v))
            ):
                by_head[head] = v
        for head in GENERIC_PIECES:
            if head in by_head or (head == "piece" and PIECE in by_head):
                return by_head.get(head) or by_head[PIECE]
        sizes = [v for h, v in by_head.items() if h in SIZES]
        # only the outsizes ("extra large", "jumbo" doughnuts): the food's own piece, if named
        if sizes and not {"small", "medium", "large"} & {head_of(v.serving_unit) for v in sizes}:
            sizes = [] if any(h not in SIZES and h not in NOT_PIECES for h in by_head) else sizes
        if sizes:
            sizes.sort(key=lambda v: self.variant_multiplier(v) / Decimal(v.serving_size))
            middle = sizes[len(sizes) // 2]
            if len(sizes) % 2 == 0:  # no middle one: a medium, when there is one
                return next((v for v in sizes if head_of(v.serving_unit) == "medium"), middle)
            return middle
        nouns = [v for h, v in by_head.items() if h not in NOT_PIECES and h not in ("unit",)]
        # the food's own noun first: a corn tortilla's "tortilla", not its "enchilada"
        own = [v for v in nouns if self.names(head_of(v.serving_unit)) and not self.whole(v)]
        return (own or nouns or [None])[0]

    def whole(self, piece) -> bool:
        """Whether one "piece" is a whole roast, bird, rack or head of cabbage: more than a
        person eats at once, so no one means it by the food's bare name."""
        per = self.variant_multiplier(piece)
        if per is None:
            return False
        size = Decimal(piece.serving_size)
        grams = Decimal(piece.gram_weight) / size if piece.gram_weight else None
        kcal = per * Decimal(self.food.calories) / size if self.food.calories else None
        return (grams is not None and grams > WHOLE_GRAMS) or (
            kcal is not None and kcal > WHOLE_KCAL
        )

    def a_drink(self) -> bool:
        """Whether the food is measured as a drink: by fluid ounce, or kept per ml."""
        return bool(self.ml) or any(
            head_of(v.serving_unit) == "fl oz" for v in self.usable_variants(weighed=True)
        )

    def kcal_of(self, piece) -> Decimal:
        """The calories of one piece (0 when unknown)."""
        per = self.variant_multiplier(piece)
        if per is None or not self.food.calories:
            return Decimal(0)
        return per * Decimal(self.food.calories) / Decimal(piece.serving_size)

    def tiny(self, piece) -> bool:
        """Whether one piece is a crumb of a helping (an almond, a berry, a grape)."""
        kcal = self.kcal_of(piece)
        return Decimal(0) < kcal < TINY_PIECE_KCAL

    def _ordered_servings(self) -> list:
        return sorted(self.usable_variants(weighed=True), key=lambda v: v.sequence or 0)

    def labelled_serving(self):
        """SR28's own serving of the food ("serving (5 fl oz)", "serving 1/2 cup"), if any."""
        if self.direct_grams is None:
            return None
        return next(
            (v for v in self._ordered_servings() if LABELLED_SERVING.match(_plain(v))), None
        )

    def measure_variant(self):
        """The household measure a bare amount means (see MEASURE_HEADS), or None."""
        if self.direct_grams is None or not self.food.calories:
            return None
        labelled = self.labelled_serving()
        if labelled is not None and self._a_helping(labelled, HELPING_GRAMS):
            return labelled
        # a packet of honey or sugar is no one's helping; "tsp or 1 packet" of mustard is
        servings = [v for v in self._ordered_servings() if head_of(v.serving_unit) != "packet"]
        measures = [v for v in servings if head_of(v.serving_unit) in MEASURE_HEADS]
        if not measures:
            # Kept only by the pot or the can ("Yogurt, Greek": container (7 oz)): one of those,
            # when it is a helping, rather than 100 g.
            packs = [v for v in servings if head_of(v.serving_unit) in SINGLE_PACKS]
            most = HELPING_KCAL * 2  # a candy bar's pack is a snack of up to 500 kcal
            return next((v for v in packs if self._a_helping(v, DRINK_GRAMS, most)), None)
        first = measures[0]
        drink = head_of(first.serving_unit) == "fl oz"
        if drink and Decimal(first.serving_size) <= 1:
            # "1 fl oz" is no one's drink: a cup of coffee, a can of beer; a drink sold by the
            # bottle is the bottle ("a gatorade": its 20 fl oz)
            sold = [v for v in servings if head_of(v.serving_unit) in ("bottle", "can")]
            sold = [v for v in sold if self._a_helping(v, WHOLE_GRAMS * 2, HELPING_KCAL * 2)]
            if sold:
                return sold[0]
            drinks = [v for v in servings if self._a_helping(v, DRINK_GRAMS)]
            return max(drinks, key=lambda v: Decimal(v.gram_weight), default=None)
        most = DRINK_GRAMS if drink else HELPING_GRAMS  # an 8 fl oz glass weighs 250 g or more
        if self._a_helping(first, most):
            return first
        helpings = [v for v in measures if self._a_helping(v, most)]
        best = max(helpings, key=lambda v: Decimal(v.gram_weight), default=None)
        if best is not None and self.kcal_of(best) * Decimal(best.serving_size) < HELPING_KCAL / 4:
            # a tablespoon of chili is no helping either: a cup just over the line is
            bigger = [
                v
                for v in measures
                if v.gram_weight > best.gram_weight
                and self._a_helping(v, most * 2, HELPING_KCAL * 2)
            ]
            best = min(bigger, key=lambda v: Decimal(v.gram_weight), default=best)
        return best

    def _a_helping(self, variant, most_grams: Decimal, most_kcal: Decimal = HELPING_KCAL) -> bool:
        per = self.variant_multiplier(variant)
        kcal = per * Decimal(self.food.calories) if per is not None else None
        return kcal is not None and kcal <= most_kcal and variant.gram_weight <= most_grams


def _as_served(variant, amount: Decimal, asked: Unit) -> Decimal:
    """`amount` in the variant's own count. SR28 weighs a big fish's fillet as half a side
    ("0.5 fillet", 178 g of salmon): that half is the piece a person calls a fillet."""
    if asked.word in SIDE_MEASURED and _matches(variant, asked) and variant.serving_size < 1:
        return amount * Decimal(variant.serving_size)
    return amount


def _via_variant(base: _Base, variant, amount: Decimal, label: str | None = None) -> Portion:
    per = base.variant_multiplier(variant)
    if per is None:
        raise ValidationError(
            f"The serving {variant.serving_unit!r} of {base.food.readable_name} has no weight or "
            "nutrients to convert from; log it in another unit.",
            code="unknown_unit",
        )
    count = amount / Decimal(variant.serving_size)
    grams = count * Decimal(variant.gram_weight) if variant.gram_weight else None
    return Portion(count * per, label or head_of(variant.serving_unit), variant, grams)


def _natural(base: _Base, amount: Decimal, unsized: bool = False, several=False) -> Portion:
    """No unit: pieces of a countable food ("2 eggs"), else a household measure, else servings.
    A piece that is the whole roast gives way to the measure or, without one, to a serving, and
    so does a crumb of a piece (one almond, one fry) when no count was said; a plural with no
    count (`several`: "eggs", "pancakes") is a couple of pieces."""
    if not base.counted:
        piece = base.piece_variant()
        whole = piece is not None and base.whole(piece)
        tiny = piece is not None and unsized and base.tiny(piece)
        big = piece is not None and base.kcal_of(piece) > BIG_PIECE_KCAL
        if piece is not None and amount < 1 and head_of(piece.serving_unit) == "slice":
            # "half a pizza", "a quarter of the cake": a share of the whole, not of a slice
            entire = next(
                (v for v in base.usable_variants() if base.names(head_of(v.serving_unit))), None
            )
            if entire is not None:
                return _via_variant(base, entire, amount)
        # "spinach" is not one leaf, "broccoli" not one spear: a part of the plant is no helping
        part = piece is not None and amount <= 1 and head_of(piece.serving_unit) in PART_PIECES
        # a piece sized by the table: when the catalog's own is a pound's yield, or it has none
        standard = _standard_piece(base) if piece is None or whole or big else None
        if standard is not None:
            return replace(
                standard,
                grams=standard.grams * amount,
                multiplier=standard.multiplier * amount,
                quantity=(standard.quantity * amount).quantize(_PLACES),  # "6 oz" a steak
            )
        if piece is not None and not (whole or tiny or ((big or part) and base.measure_variant())):
            if several and not big and not part:
                count = amount * SEVERAL
                return replace(_via_variant(base, piece, count), quantity=count)
            return _via_variant(base, piece, amount)
        measure = base.measure_variant()
        if measure is not None:  # 1 x "2 tbsp" is stored as 2 tbsp
            size = Decimal(measure.serving_size)
            result = _via_variant(base, measure, amount * size)
            return replace(result, quantity=(amount * size).quantize(_PLACES))
        if piece is not None and not whole and not tiny:
            return _via_variant(base, piece, amount)
        if tiny and Decimal(piece.serving_size) > 1:  # SR28's own count: "5 crackers"
            count = amount * Decimal(piece.serving_size)
            return replace(_via_variant(base, piece, count), quantity=count.quantize(_PLACES))
        if base.food.source == FNDDS_SOURCE:  # a dish as people report it: its usual portion
            dish = next(iter(base.usable_variants()), None)
            if dish is not None:
                return _via_variant(base, dish, amount)
    return Portion(amount, SERVING, None, base.grams_for(amount))


def _container(base: _Base, amount: Decimal, word: str, said: str | None = None) -> Portion | None:
    """A bottle, can, bag... of the food: its own serving of that name, else the standard size
    (STANDARD_SIZES), as `amount` containers. A size said before the container (`said`, already
    in `amount`) scales it only when the container is not that size already: "a small box" of
    raisins is SR28's "small box (1.5 oz)", "a small bag" of chips the 1 oz snack bag."""
    names = CONTAINER_SERVINGS[word]
    size = standard_size(base.food, word, drink=base.a_drink())
    servings = [*base._ordered_servings(), *base.usable_variants()]
    if said is not None:
        unscaled = amount / CONTAINER_SIZES[said]
        for v in servings:
            text = _plain(v)
            named = any(re.search(rf"\b{re.escape(n)}\b", text) for n in names)
            if named and sizes_in(text) == [said] and base.variant_multiplier(v) is not None:
                result = _via_variant(base, v, unscaled, label=f"{said} {word}")
                return replace(result, quantity=unscaled)
        sized = SIZED_STANDARD_SIZES.get((word, said))
        if sized is not None and not base.a_drink() and base.grams:
            grams = unscaled * sized.amount * MASS_G[sized.unit]
            return Portion(grams / base.grams, f"{said} {word}", None, grams, unscaled)
    for v in servings:
        text = _plain(v)
        if any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
            if base.variant_multiplier(v) is None:
                continue
            if size is not None and base.kcal_of(v) > HELPING_KCAL * 2:
                continue  # a 7 oz family bag of chips is not "a bag of chips"
            return _via_variant(base, v, amount, label=word)
    if size is None:
        return None
    if size.unit in MASS_G:
        if not base.grams:
            return None
        grams = amount * size.amount * MASS_G[size.unit]
        return Portion(grams / base.grams, word, None, grams)
    ml = amount * size.amount * VOLUME_ML[size.unit]
    result = _by_volume(base, ml, word)
    if result is None and base.grams and base.food.name.lower().startswith("beverages"):
        # a drink with no volume on record weighs about what water does (1 g per ml)
        return Portion(ml / base.grams, word, None, ml)
    return result


def _sized(base: _Base, amount: Decimal, size: str) -> Portion | None:
    """A size among the food's servings ("serving large" of fries, "drink, small (16 fl oz)"),
    a drink's coffee-shop size, else the size scaled from the one the food has (SIZE_RATIOS:
    a large sweet potato from its medium one): never another size silently."""
    for v in base.usable_variants():
        if sizes_in(v.serving_unit) == [size] and base.variant_multiplier(v) is not None:
            return _via_variant(base, v, amount, label=size)
    if base.a_drink():
        return None  # DRINK_SIZES_ML
    sized = [
        v
        for v in base.usable_variants()
        if len(sizes_in(v.serving_unit)) == 1 and base.variant_multiplier(v) is not None
    ]
    known = next((v for v in sized if sizes_in(v.serving_unit) == ["medium"]), None)
    known = known or (sized[0] if sized else base.piece_variant())
    if known is None or base.whole(known):
        return None
    had = (sizes_in(known.serving_unit) or ["medium"])[0]
    ratio = SIZE_RATIOS[size] / SIZE_RATIOS[had]
    result = _via_variant(base, known, amount * ratio * Decimal(known.serving_size), label=size)
    return replace(result, variant=None, quantity=amount)


def _one_serving(base: _Base, amount: Decimal) -> Portion | None:
    """The food's own serving ("cup 1 serving" of lasagna), else the household measure."""
    for v in base.usable_variants():
        if re.search(r"\bserving\b", _plain(v)) and base.variant_multiplier(v) is not None:
            size = Decimal(v.serving_size)
            result = _via_variant(base, v, amount * size, label=PIECE)
            return replace(result, variant=None, quantity=amount)
    measure = base.measure_variant()
    if measure is None:
        return None
    size = Decimal(measure.serving_size)
    return replace(
        _via_variant(base, measure, amount * size, label=PIECE), variant=None, quantity=amount
    )


def _standard_piece(base: _Base) -> Portion | None:
    """One piece of a food STANDARD_PIECES sizes ("a steak"), in its unit, or None."""
    words = {_singular(w) for w in re.findall(r"[a-z]+", base.food.name.lower())}
    size = next(
        (s for name, s in STANDARD_PIECES.items() if all(w in words for w in name.split())),
        None,
    )
    if size is None or size.unit not in MASS_G or not base.grams:
        return None
    grams = size.amount * MASS_G[size.unit]
    return Portion(grams / base.grams, size.unit, None, grams, size.amount)


def _by_volume(base: _Base, ml: Decimal, label: str) -> Portion | None:
    if base.ml:
        mult = ml / base.ml
        return Portion(mult, label, None, base.grams_for(mult))
    density = base.density()
    if density and base.grams:
        grams = ml * density
        return Portion(grams / base.grams, label, None, grams)
    return None


def _pieces(base: _Base, amount: Decimal) -> Portion | None:
    piece = base.piece_variant()
    if piece is not None:
        return _via_variant(base, piece, amount, label=head_of(piece.serving_unit))
    if base.counted:
        # A food kept per "1 bar" or "1 serving": a piece is one of those.
        mult = amount / base.amount if base.unit.canonical != SERVING else amount
        return Portion(mult, PIECE, None, base.grams_for(mult))
    return None


def _checked(food, result: Portion, amount: Decimal, asked: Unit) -> Portion:
    """Refuse amounts no one eats at once, in the terms the caller used."""
    result = replace(result, quantity=amount if result.quantity is None else result.quantity)
    number = f"{amount.normalize():f}"
    counted = asked.canonical not in MASS_G and asked.canonical not in VOLUME_ML
    if counted and amount > MAX_COUNT:
        what = asked.label or ("pieces" if result.variant is not None else "servings")
        hint = f" Did you mean {number} g?" if not asked.label else ""
        raise ValidationError(
            f"{number} {what} of {food.readable_name} is more than anyone eats at once (at most "
            f"{MAX_COUNT} pieces or servings).{hint} Check the amount and the unit.",
            code="invalid_quantity",
        )
    said = f"{number} {asked.label}".strip()
    if result.grams is not None and result.grams > MAX_GRAMS:
        raise ValidationError(
            f"{said} of {food.readable_name} is {result.grams.quantize(Decimal(1)):,} g, more "
            f"than anyone eats at once (the limit is {MAX_GRAMS:,} g); check the amount and the "
            "unit.",
            code="invalid_quantity",
        )
    if asked.canonical in VOLUME_ML and amount * VOLUME_ML[asked.canonical] > MAX_ML:
        raise ValidationError(
            f"{said} of {food.readable_name} is more than anyone drinks at once (the limit is "
            "10 l); check the amount and the unit.",
            code="invalid_quantity",
        )
    return result
