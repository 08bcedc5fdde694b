"""core/chronology.py: which numbers are years, and the bounds a swapped year must keep."""

from __future__ import annotations

from hypothesis import given, strategies as st

from faithqa_spark.core import chronology
from faithqa_spark.core.chronology import bounds, keeps_order, year_of, years_in


def test_years_are_four_digit_numbers_standing_alone():
    text = ("Founded in 1831, the guild had 1,500 members by the 1890s and 12000 looms; "
            "it closed in May 1902 (see 1904-1907) at 3.1850 per share.")
    assert years_in(text) == [1831, 1902, 1904, 1907]


def test_the_year_of_a_date_or_number():
    assert year_of("1906") == 1906
    assert year_of("August 15, 1914") == 1914
    assert year_of("the spring of 1860") == 1860
    assert year_of("1947 to 1967") is None  # a range names two
    assert year_of("the 1960s") is None
    assert year_of("three years") is None


def test_bounds_come_from_the_other_years_outside_the_mentions():
    ctx = "Renamed in 1969 and again in 1978; its 1978 catalogue sold until 1981."
    mentions = [(m, m + 4) for m in (ctx.index("1978"), ctx.rindex("1978"))]
    b = bounds(ctx, mentions, 1978, present_year=2017)
    assert (b.after, b.before, b.latest) == (1969, 1981, 2017)
    assert b.admits(1975) and not b.admits(1901) and not b.admits(1985)
    assert keeps_order(b, "March 1972") and not keeps_order(b, "1960s")
    assert keeps_order(None, "anything")  # the original names no year


def test_a_year_never_passes_the_present_or_the_context_s_latest():
    ctx = "Elections were held in 2010; a second round is planned for 2030."
    b = bounds(ctx, [(ctx.index("2010"), ctx.index("2010") + 4)], 2010, present_year=2017)
    assert b.before == 2030 and b.latest == 2030 and b.admits(2020)
    b = bounds("Elections were held in 2010.", [(23, 27)], 2010, present_year=2017)
    assert b.admits(2016) and not b.admits(2039)


def test_a_story_s_latest_year_reaches_only_a_little_past_its_other_years():
    from faithqa_spark.core.chronology import YEAR_REACH

    ctx = ("World War I broke out in August 1914. In 1917 the Germans resumed submarine "
           "attacks.")
    at = ctx.index("1917")
    b = bounds(ctx, [(at, at + 4)], 1917, present_year=2017, reach=YEAR_REACH)
    assert (b.after, b.before, b.latest) == (1914, None, 1927)
    assert b.admits(1916) and b.admits(1925) and not b.admits(1945)
    # without the reach (decades, centuries, years before Christ), the present bounds it
    assert bounds(ctx, [(at, at + 4)], 1917, present_year=2017).latest == 2017
    # a story that spans more reaches as far as it spans
    wide = "Founded in 1850, rebuilt in 1890; it closed in 1910."
    at = wide.index("1910")
    assert bounds(wide, [(at, at + 4)], 1910, 2017, reach=YEAR_REACH).latest == 1970
    # the only year of its context: nothing to stay near, the present bounds it
    assert bounds("It closed in 1910.", [(13, 17)], 1910, 2017, reach=YEAR_REACH).latest == 2017
    # and never past the present
    late = "Elections were held in 2010 and in 2014."
    at = late.index("2014")
    assert bounds(late, [(at, at + 4)], 2014, 2017, reach=YEAR_REACH).latest == 2017


@given(st.lists(st.integers(1000, 2099), min_size=1, max_size=6), st.integers(1000, 2099),
       st.integers(1000, 2099))
def test_an_admitted_year_keeps_every_other_year_on_its_side(others, original, candidate):
    ctx = " and ".join(f"in {y}" for y in others)
    b = bounds(ctx, [], original, present_year=2017)
    if b.admits(candidate):
        for y in others:
            assert (y < original) == (y < candidate) or y == original
        assert candidate <= max([2017, original, *others])


def test_a_decade_keeps_its_order_among_the_context_s_decades():
    from faithqa_spark.core import chronology as ch
    ctx = "Records were played back electrically in the 1930s and 1940s, much like a radio."
    s = ctx.index("1940s")
    b = ch.bounds(ctx, [(s, s + 5)], 1940, 2017, ch.decades_in)
    assert not ch.keeps_order(b, "1920s", ch.decade_of)
    assert ch.keeps_order(b, "the 1960s", ch.decade_of)
    assert not ch.keeps_order(b, "the 2030s", ch.decade_of)  # past the present
    assert ch.decade_of("1990s and 2000s") is None and ch.decade_of("the 1880s") == 1880


def test_a_century_keeps_its_place_among_the_context_s_centuries():
    assert chronology.centuries_in("from the late 9th century to the 11th-century kings") == [9, 11]
    assert chronology.centuries_in("the 6th century BC and the 2nd century") == [-6, 2]
    assert chronology.century_of("early 11th century") == 11
    assert chronology.century_of("the 1950s") is None and chronology.century_of("9th and 10th centuries") is None
    ctx = ("Settlers came to the Danelaw from the late 9th century, and during the rule of Cnut "
           "in the early 11th century.")
    s = ctx.index("early 11th century")
    b = chronology.bounds(ctx, [(s, s + len("early 11th century"))], 11, 21,
                          chronology.centuries_in)
    assert chronology.keeps_order(b, "late 12th century", chronology.century_of)
    assert not chronology.keeps_order(b, "late 8th century", chronology.century_of)
    assert not chronology.keeps_order(b, "the 9th century", chronology.century_of)
    assert not chronology.keeps_order(b, "22nd century", chronology.century_of)  # the future


def test_a_century_keeps_its_place_among_the_context_s_years():
    from faithqa_spark.core.chronology import centuries_and_years_in
    assert centuries_and_years_in("Tang China (618–907) and the 11th century") == [11, 7, 10]


def test_years_before_christ_are_read_as_negative_years():
    from faithqa_spark.core.chronology import bc_year_of, bc_years_in, before_christ
    text = "a fort in 495 BC; later, in 473 BC, Yue took it; by 2560 BCE, 1,200 BC, 300 AD"
    assert bc_years_in(text) == [-495, -473, -2560]
    assert bc_year_of("473") == -473 and bc_year_of("about 473") is None
    assert bc_year_of("1,200") is None and bc_year_of("473 BC") is None
    at = text.index("473")
    assert before_christ(text, [(at, at + 3)], "473")
    assert not before_christ("in 473 of them", [(3, 6)], "473")
    # the bounds keep a later BC year after an earlier one: the order is the years'
    b = bounds(text, [(at, at + 3)], -473, 2016, bc_years_in)
    assert (b.after, b.before) == (-495, None)
    assert keeps_order(b, "480", bc_year_of) and not keeps_order(b, "937", bc_year_of)


def test_a_day_of_the_year_keeps_its_order_among_the_context_s_days():
    assert chronology.day_of_year("June 6") == (6, 6)
    assert chronology.day_of_year("30 October") == (10, 30)
    assert chronology.day_of_year("May 27th") == (5, 27)
    for dated in ("June 6, 1944", "June 1944", "6 June 1944", "the spring"):
        assert chronology.day_of_year(dated) is None
    ctx = ("The armies captured Beijing on June 6. The emperor was invested on October 30. "
           "On 1 November 1644 he left the city.")
    at = ctx.index("October 30")
    # a day with its year is dated by its year, not as a day of no year
    assert chronology.days_outside(ctx, [(at, at + 10)]) == [(6, 6)]
    day, others = (10, 30), [(6, 6)]
    assert chronology.same_day_order(day, others, (7, 2))
    assert not chronology.same_day_order(day, others, (5, 27))
    assert not chronology.same_day_order(day, others, (6, 6))  # the same day as another
    assert not chronology.same_day_order(day, others, None)  # no day of the year
