"""core/arithmetic.py: figures a context ties together."""

from __future__ import annotations

import pytest

from faithqa_spark.core import arithmetic
from faithqa_spark.core.arithmetic import converted, share_of_whole, tied


def at(context: str, text: str) -> tuple[str, int, int]:
    i = context.index(text)
    return context, i, i + len(text)


def test_an_amount_given_in_two_units_is_tied():
    ctx = "The relay carried the torch 137,000 km (85,000 mi) in 129 days."
    assert converted(*at(ctx, "85,000"))
    assert converted(*at(ctx, "137,000 km"))
    assert converted(*at(ctx, "137,000"))
    assert not converted(*at(ctx, "129"))
    plain = "The town had 5,000 inhabitants (2010) and 12 churches (see below)."
    assert not converted(*at(plain, "5,000")) and not converted(*at(plain, "12"))
    # a range in the bracket, or a range of temperatures in the other scale: "hovering 15 to
    # 20 °C (59 and 77 °F)" had kept the old range's bracket
    for ctx, amount in (("from the 200–210 mm (7.9–8.3 in) bat", "200–210"),
                        ("temperatures hovering between 15 and 25 °C (59 and 77 °F), and",
                         "between 15 and 25"),
                        ("overnight lows 30 to 44 °F (−1 and 7 °C).", "30 to 44")):
        assert converted(*at(ctx, amount)), ctx
        assert arithmetic.tied_but_converted(*at(ctx, amount)), ctx
    assert not converted(*at("some 50 and 60 (or more) people", "50 and 60"))


def test_shares_that_add_up_to_a_whole_are_tied():
    ctx = ("Their ancestry was about 50% Kelmari, 37% Orvanese and 13% Tallic. "
           "Only 20% of them spoke Kelmari at home.")
    assert share_of_whole(*at(ctx, "about 50%"))
    assert share_of_whole(*at(ctx, "13%"))
    assert not share_of_whole(*at(ctx, "20%"))  # one figure in its sentence
    two = "Sales rose 40% in spring and 60% in autumn."
    assert not share_of_whole(*at(two, "40%"))  # two shares: could be anything
    assert tied(*at(ctx, "37%")) and not tied(*at(ctx, "20%"))


def test_the_parts_of_a_ratio_are_tied():
    from faithqa_spark.core.arithmetic import ratio
    ctx = "In 2005, three out of five residents were graduates, and one in four was born abroad."
    assert ratio(*at(ctx, "three")) and ratio(*at(ctx, "five")) and ratio(*at(ctx, "one"))
    assert not ratio(*at(ctx, "2005"))


@pytest.mark.parametrize("context, amount, bound", [
    ("67 tribes in Brazil, up from 40 in 2005.", "67", (">", 40.0)),
    ("sales of 1,200 units, down from 3,500 a year before", "1,200", ("<", 3500.0)),
    ("enrolment rose to 900 students, having grown from about 650", "900", (">", 650.0)),
    ("67 tribes in Brazil. Up from 40 in 2005 ...", "67", None),  # another sentence
    ("67 tribes were counted in 2005", "67", None),
    # "668,247 births in 2013, down from a peak 23,689" read wrong
    ("22,018 births in 2013, down from a peak 23,689 in 2008", "22,018", ("<", 23689.0)),
    ("a crowd of 900, up from a record of 650", "900", (">", 650.0)),
    # a comparison after a comma: "was 92% in 2005, much less than the 79% in 1991" read wrong
    ("The rate was 44% in 2005, much less than the 79% in 1991.", "44", ("<", 79.0)),
    ("The rate was 44% in 2005, far higher than 30% in 1991.", "44", (">", 30.0)),
    # a change from the amount: "12.7% in 2009, while the number fell to 77.3%" read wrong
    ("It supplied 85.6% of demand in 2009, while the number fell to 77.3% in 2010.", "85.6",
     (">", 77.3)),
    ("The US averaged 17 deaths a year, while in the 2000s this has increased to 26.", "17",
     ("<", 26.0)),
    ("It had 44% in 2005. It fell to 30% later.", "44", None),  # another sentence
])
def test_change_bound(context, amount, bound):
    start = context.index(amount)
    end = start + len(amount)
    assert arithmetic.change_bound(context, end) == bound
    limits = arithmetic.bounds(context, start, end)
    if bound is None:
        assert limits is None
    else:
        above, below = str(int(bound[1]) + 1), str(int(bound[1]) - 1)
        assert arithmetic.within(limits, above) is (bound[0] == ">")
        assert arithmetic.within(limits, below) is (bound[0] == "<")
        assert arithmetic.within(limits, str(int(bound[1]))) is False  # strictly
        assert arithmetic.within(limits, "a dozen") is False


@pytest.mark.parametrize("context, amount, limits", [
    # "growing from 7.3% of all computer shipments in 2010 to 5% in 2011" read wrong
    ("Its share kept growing from 7.3% of all computer shipments in 2010 to 9.3% in 2011.",
     "9.3%", (7.3, None)),
    ("Its share kept growing from 7.3% of all computer shipments in 2010 to 9.3% in 2011.",
     "7.3%", (None, 9.3)),
    ("The median income fell from $29,526 to $26,098 over the decade.", "$26,098",
     (None, 29526.0)),
    ("The median income fell from $29,526 to $26,098 over the decade.", "$29,526",
     (26098.0, None)),
    ("The garrison increased from 46,000 soldiers in 1941 to 300,000 in 1945.", "300,000",
     (46000.0, None)),
    ("The retirement age will be increased from 65 to 66.", "66", (65.0, None)),
    # figures of two scales are not compared, nor a change with no verb of one
    ("Sales rose from 500,000 to 1.2 million.", "1.2 million", None),
    ("The club went from 5 to 9 members.", "9", None),
    ("It rose from 40. To 90 others it fell.", "90", None),  # another sentence
])
def test_a_change_from_one_figure_to_another_keeps_its_direction(context, amount, limits):
    assert arithmetic.bounds(*at(context, amount)) == limits


RANKED = ("The largest towns are Carrow (391,906), Tellis (110,925), Brandmoor (98,850), "
          "Lawdon (13,444) and Edfall (1,405). Ferrin (2,000) is smaller still.")


@pytest.mark.parametrize("amount, limits", [
    ("391,906", (110925.0, None)),  # the first of a falling list: above the second
    ("110,925", (98850.0, 391906.0)),
    ("13,444", (1405.0, 98850.0)),
    ("1,405", (None, 13444.0)),  # the last: below the one before it
    ("2,000", None),  # alone in its sentence
])
def test_a_ranked_list_keeps_its_order(amount, limits):
    assert arithmetic.bounds(*at(RANKED, amount)) == limits


def test_rank_needs_three_figures_in_order_and_skips_years():
    unordered = "Tolls were raised in Arno (40), Bex (90) and Cray (60) that spring."
    assert arithmetic.bounds(*at(unordered, "90")) is None
    two = "Arno (40) and Bex (90) voted."
    assert arithmetic.bounds(*at(two, "40")) is None
    # the bracketed years are no figures of the list: 12, 30, 55 rise, the years do not count
    years = "Arno (12), the fort (1820), Bex (30) and Cray (55) were rebuilt (1901)."
    assert arithmetic.bounds(*at(years, "30")) == (12.0, 55.0)
    shares = "Support fell from 61% to 48% and then 35% by the end of the decade."
    assert arithmetic.bounds(*at(shares, "48%")) == (35.0, 61.0)


def test_a_part_stays_below_its_whole():
    ctx = "Most people are Christians (41%), particularly Catholics (33%). Muslims are 9%."
    assert arithmetic.bounds(*at(ctx, "41%")) == (33.0, None)
    assert arithmetic.bounds(*at(ctx, "33%")) == (None, 41.0)
    assert arithmetic.within(arithmetic.bounds(*at(ctx, "41%")), "21%") is False
    assert arithmetic.within(arithmetic.bounds(*at(ctx, "41%")), "52%") is True
    assert arithmetic.bounds(*at(ctx, "9%")) is None  # another sentence
    apart = "Christians (41%) live here; particularly in the north, Catholics (33%) do."
    assert arithmetic.bounds(*at(apart, "41%")) is None  # a new clause: no part of it


def test_a_count_stays_above_its_parts_in_plain_figures():
    ctx = ("There are also 400,000 members of ethnic minorities, including approximately "
           "200,000 She people and approximately 20,000 Hui Chinese. 9,000 live abroad.")
    assert arithmetic.bounds(*at(ctx, "400,000")) == (200_000.0, None)
    assert arithmetic.within(arithmetic.bounds(*at(ctx, "400,000")), "59,000") is False
    assert arithmetic.within(arithmetic.bounds(*at(ctx, "400,000")), "610,000") is True
    assert arithmetic.bounds(*at(ctx, "200,000")) == (None, 400_000.0)
    assert arithmetic.bounds(*at(ctx, "20,000")) is None  # joined by "and": no part
    assert arithmetic.bounds(*at(ctx, "9,000")) is None  # another sentence
    # a figure with a unit of scale is no plain count: 3.5 is not compared with 200,000
    scaled = "It has 3.5 million people, including 200,000 in the capital."
    assert arithmetic.bounds(*at(scaled, "3.5 million")) is None
    assert arithmetic.bounds(*at(scaled, "200,000")) is None
    # nor is a year
    years = "In 1990 some 5,000 soldiers, including 1,200 officers, fought."
    assert arithmetic.bounds(*at(years, "5,000")) == (1_200.0, None)
    assert arithmetic.bounds(*at(years, "1990")) is None
    bc = "It fought at Algidus in 458 BC, and especially at the Cremera in 477 BC."
    assert arithmetic.bounds(*at(bc, "477")) is None


def test_a_count_in_words_stays_above_its_parts_in_words():
    # "The Guardian Council comprises twelve jurists including six appointed by the
    # Supreme Leader" had become "... three jurists including six ..."
    assert arithmetic.word_value("twelve") == 12.0
    assert arithmetic.word_value("about Twenty-one") == 21.0
    assert arithmetic.word_value("forty one") == 41.0
    assert arithmetic.word_value("someone or none") is None
    ctx = ("The Guardian Council comprises twelve jurists including six appointed by the "
           "Supreme Leader.")
    assert arithmetic.bounds(*at(ctx, "twelve")) == (6.0, None)
    assert arithmetic.within(arithmetic.bounds(*at(ctx, "twelve")), "three") is False
    assert arithmetic.within(arithmetic.bounds(*at(ctx, "twelve")), "fifteen") is True
    assert arithmetic.bounds(*at(ctx, "six")) == (None, 12.0)
    # a number word with a capital inside a sentence begins a name: no count
    name = ("Towers such as One Canada Square are mostly in the two financial districts of "
            "the city.")
    assert arithmetic.bounds(*at(name, "two")) is None


def test_an_amount_said_again_after_or_in_another_unit_is_tied():
    # "make up 0.90% of Brazil's population, or about 700,000 people": the swap had left
    # the other figure as it was
    for ctx, figure in (("Mount Tarn (1,929 meters or 6,329 feet) is the highest.", "1,929 meters"),
                        ("They make up 0.4% of the population, or about 700,000 people.", "0.4%"),
                        ("Savers withdrew $1.55 billion or about 7.5% of its deposits.",
                         "$1.55 billion"),
                        ("The fee is approximately US$48,600 or €35,100 as of 2011.",
                         "approximately US$48,600"),
                        ("Some 5% of those funds or $685 million went to the agency.", "5%")):
        s = ctx.index(figure)
        assert arithmetic.restated(ctx, s, s + len(figure)), ctx
        assert arithmetic.tied(ctx, s, s + len(figure)), ctx
    # alternatives in one unit, or in none, are no restatement
    for ctx, figure in (("The population may peak by 2029 or 2039, it says.", "2029"),
                        ("It played 10-inch or 12-inch discs.", "10-inch"),
                        ("Tickets cost 20 dollars or 30 dollars each.", "20 dollars"),
                        ("Groups of 5 or 6 people met.", "5")):
        s = ctx.index(figure)
        assert not arithmetic.restated(ctx, s, s + len(figure)), ctx


def test_a_part_or_the_total_of_a_sum_is_tied():
    ctx = ("As of 2004, 2,632 telephone main lines are in use, a mix of analog (2,500) and "
           "digital (132) circuits. The island has 7 radio stations.")
    for figure in ("2,632", "2,500", "(132)"):
        s = ctx.index(figure) + (1 if figure.startswith("(") else 0)
        e = s + len(figure.strip("()"))
        assert arithmetic.tied(ctx, s, e), figure
    s = ctx.index("7 radio")
    assert not arithmetic.tied(ctx, s, s + 1)  # no sum in its sentence
    s = ctx.index("2004")
    assert not arithmetic.part_of_sum(ctx, s, s + 4)
    # a small part ties the large ones
    ctx = "2532 telephone main lines are in use, a mix of analog (2500) and digital (32) circuits."
    for figure in ("2532", "2500"):
        s = ctx.index(figure)
        assert arithmetic.part_of_sum(ctx, s, s + 4), figure
    # small figures add up by chance; a range's end is no figure
    ctx = "Staff worked 60 hours a week for 35% of the time and for 25% of the time."
    s = ctx.index("25")
    assert not arithmetic.part_of_sum(ctx, s, s + 2)
    ctx = "The seasons 1999–2000 and 2010–11 were played early."
    s = ctx.index("1999")
    assert not arithmetic.part_of_sum(ctx, s, s + 4)


# "Of the $100 million, ... $12.5 million will go for job training ..." had become "$39.7
# million": the shares no longer added up to the whole
_SHARES = ("Of the $100 million, $50 million will go toward development, $25 million toward "
           "blight removal, $12.5 million for job training and $12.5 million for the M-1 "
           "rail line.")
_STUDENTS = ("The student body had 12,179 students, with 8,448 undergraduates, 2,138 graduate "
             "and 1,593 professional students.")


@pytest.mark.parametrize("ctx, figure, tied", [
    (_SHARES, "$12.5 million", True), (_SHARES, "$25 million", True),
    (_SHARES, "$100 million", True), (_STUDENTS, "2,138", True),
    # a year is no part: 1995 + 12 + 4 is 2011 by chance
    ("In 1995, 12 percent of children spoke it, while in 2011 this had declined to 4 percent.",
     "4", False),
    # three small parts add up by chance; the total must be of some size
    ("The 3 boats, 4 carts and 5 horses made 12 trips across the river.", "4", False),
])
def test_a_part_of_a_list_that_adds_up_to_its_total_is_tied(ctx: str, figure: str,
                                                            tied: bool) -> None:
    s = ctx.index(figure)
    assert arithmetic.part_of_sum(ctx, s, s + len(figure)) is tied


def test_a_count_of_the_list_after_a_colon_is_tied():
    ctx = "The clubs stood for two rival regions in Spain: Catalonia and Castile."
    s = ctx.index("two")
    assert arithmetic.enumerated(ctx, s, s + 3)
    ctx = "There were two clubs in the city, and 40 more: all amateur."
    s = ctx.index("two")
    assert not arithmetic.enumerated(ctx, s, s + 3)  # no colon right after its noun
    s = ctx.index("40")
    assert not arithmetic.enumerated(ctx, s, s + 2)  # not a small count
    # a dash or a bracket brings a list in too
    for ctx in ("A total of five intended torchbearers -Kiran Bedi, Soha Ali Khan, Sachin "
                "Tendulkar, Bhaichung Bhutia and Sunil Gavaskar- withdrew from the event.",
                "The complex holds four kingdoms (Kantipur, Lalitpur, Bhaktapur, Kirtipur).",
                "London has five major medical schools – Barts, King's, St George's, UCL "
                "and Imperial."):
        s = ctx.index("five") if "five" in ctx else ctx.index("four")
        assert arithmetic.enumerated(ctx, s, s + 4), ctx
    ctx = "They built two bridges (one of them in 1850) across the river."
    s = ctx.index("two")
    assert not arithmetic.enumerated(ctx, s, s + 3)  # a bracket without a list of names
    # an aside in brackets before the colon, and "are" before names: "four states (or
    # phases): solid, ..." had become "two states (or phases)", "five true atolls are ..."
    # "six true atolls are" before five names
    for ctx in ("Matter exists in four states (or phases): solid, liquid, gas and plasma.",
                "The four true atolls are Ailuk, Aur, Likiep and Wotje."):
        s = ctx.index("four")
        assert arithmetic.enumerated(ctx, s, s + 4), ctx
    # "only four types of apparatus are used: the double rings, ..." had become "only two"
    ctx = "For individuals, only four types of apparatus are used: the rings, the stick, ..."
    s = ctx.index("only four")
    assert arithmetic.enumerated(ctx, s, s + len("only four"))
    for ctx in ("The four teams were in the final, with Kelmar winning.",
                "Her four sons are grown, and Kelmar, the eldest, farms."):
        s = ctx.index("four")
        assert not arithmetic.enumerated(ctx, s, s + 4), ctx


@pytest.mark.parametrize("ctx, count, tied", [
    # "two of her five daughters, Alice and Beatrice" had become "eight of her five
    # daughters, ...", "two more boys, Izz al-Arab and al-Leithi" "six more boys, ..."
    ("Two of her five daughters, Alice and Beatrice, were carriers.", "Two", True),
    ("His parents later had two more boys, Izz al-Arab and al-Leithi.", "two", True),
    ("The island has two official languages, Greek and Turkish.", "two", True),
    ("Five state highways, SH-1, SH-2, SH-4, SH-5 and SH-6, pass through it.", "Five", True),
    # things each said with "a": "there are two methods of measuring the value, a
    # "low-field" method and a "high-field" method" had become "three methods"
    ('There are two methods of measuring it, a "low-field" method and a "high-field" '
     "method, and the factors differ.", "two", True),
    ("He had three sons, a baker and a smith, who worked.", "three", False),
    ("In two years, a town and a port had grown.", "two", False),
    # as many names as the count says, and a list that ends with its clause
    ("It had three clubs, Arno and Bex, in 1900.", "three", False),
    ("It has two golf courses, Newfoundland and Labrador's largest campground, and trails.",
     "two", False),
    ("In two years, Arno and Bex had merged.", "two", False),  # a span of time
    ("In 40 years, Arno and Bex had merged.", "40", False),
])
def test_a_count_of_the_names_after_a_comma_is_tied(ctx, count, tied):
    s = ctx.index(count)
    assert arithmetic.enumerated(ctx, s, s + len(count)) is tied


def test_an_operand_of_a_worked_equation_is_tied():
    ctx = "MP3 at 128 kbit/s: 128,000 bit/s. Ratio: 1,411,200/128,000 = 11.025). Next."
    s = ctx.index("128,000 =")
    assert arithmetic.in_equation(ctx, s, s + 7)
    s = ctx.index("1,411,200")
    assert arithmetic.in_equation(ctx, s, s + 9)
    s = ctx.index("128,000 bit")
    assert not arithmetic.in_equation(ctx, s, s + 7)  # the same figure, outside the equation
    ctx = "The club has 40 members and 3 coaches; a ratio of 40/3 is high."
    s = ctx.index("40/")
    assert not arithmetic.in_equation(ctx, s, s + 2)  # no equals sign: nothing worked out


def test_a_conversion_beside_an_amount_is_worked_out_anew():
    from faithqa_spark.core.arithmetic import conversion, rescaled, tied_but_converted

    def new(ctx: str, amount: str, candidate: str) -> str | None:
        s = ctx.index(amount)
        conv = conversion(ctx, s, s + len(amount))
        assert conv is not None
        return rescaled(conv, ctx, amount, candidate)

    # as many significant figures as a rounded figure has, the unit for one that is not
    assert new("The road is 450 miles (720 km) long.", "450 miles", "300 miles") == "480"
    assert new("an area of 137,000 km (85,000 mi)", "137,000 km", "90,000 km") == "56,000"
    assert new("only 200 mm (8 in) of rain", "200 mm", "356 mm") == "14"
    assert new("It is 34.70 inches (881.4 mm) a year", "34.70 inches", "12.5 inches") == "317.5"
    assert new("It spans 720 km (about 450 miles) in", "450 miles", "300 miles") == "480"
    # ... and a figure with decimals keeps no more figures than it had: "(8.00 in)" had been
    # written for 200 mm, from the 0.04 of 1 mm
    assert new("drops to less than 1 mm (0.04 in) a year", "less than 1 mm",
               "less than 200 mm") == "8"
    assert new("gets less than 20 mm (0.79 in) a year", "less than 20 mm",
               "less than 30 mm") == "1.2"
    # a temperature's other scale by its own rule, a reading with the offset, a change
    # without: "109 °F (43 °C)" had stayed beside "932 °F"
    assert new("the record is 109 °F (43 °C), set in", "109 °F", "100 °F") == "38"
    assert new("over 90 °F (32 °C) in the summer", "90", "100") == "38"
    assert new("between 1,500 °F (820 °C) and", "1,500 °F", "2,200 °F") == "1,200"
    assert new("has warmed by 0.1 °C (0.2 °F) per decade", "0.1", "0.3") == "0.5"
    assert new("the record is 109 °F (43 °C), set in", "109 °F", "20 °F") is None  # below 0
    for ctx, amount in (("down to 17 °F (−8 °C) at midnight", "17 °F"),  # a sign
                        ("approaching 55 K (−218 °C) there", "55 K")):  # no other scale
        s = ctx.index(amount)
        assert conversion(ctx, s, s + len(amount)) is None, ctx
        assert tied_but_converted(ctx, s, s + len(amount)), ctx
    # the candidate must be the original's words around one number
    assert new("The road is 450 miles (720 km) long.", "450 miles", "3 million miles") is None
    assert new("The road is 450 miles (720 km) long.", "450 miles", "300 km") is None
    # what cannot be worked out stays tied
    for ctx, amount in (("It spans 720 km (450 to 500 mi) in", "720 km"),
                        ("the share dropped to 20% (2006 data), as", "20%")):
        s = ctx.index(amount)
        assert conversion(ctx, s, s + len(amount)) is None
        assert tied_but_converted(ctx, s, s + len(amount))
    ctx = "The road is 450 miles (720 km) long."
    assert not tied_but_converted(ctx, 12, 21)
    # an area's or a volume's unit of two words: "3,162 square kilometres (79,284 sq mi)"
    # had been left beside the swapped square miles
    ctx = "The park spreads over an area of 3,162 square kilometres (1,221 sq mi) of desert."
    assert new(ctx, "1,221 sq mi", "1,500 sq mi") == "3,885"
    assert new("It covers 98 square miles (254 km2) of land.", "98 square miles",
               "50 square miles") == "130"
    # ... and a figure that has no unit of its own in such a bracket is tied to the area
    ctx = "The island covers an area of 25 square kilometres (2,500 ha). It is dry."
    s = ctx.index("2,500")
    assert conversion(ctx, s, s + 5) is None and tied_but_converted(ctx, s, s + 5)


def test_a_count_of_countries_stays_below_the_world_s():
    # "companies in over 100 countries" had become "in over 560 countries"
    ctx = "Shell had companies in over 100 countries, each run on its own."
    limits = arithmetic.bounds(*at(ctx, "over 100"))
    assert arithmetic.within(limits, "over 150") and not arithmetic.within(limits, "over 560")
    assert arithmetic.bounds(*at("It sells in 40 member nations.", "40")) == (None, 200.0)
    # a count already past it ("240 countries and territories") is no count of countries
    assert arithmetic.bounds(*at("It sells in 240 countries.", "240")) is None
    assert arithmetic.bounds(*at("It sells 100 cars.", "100")) is None
