"""Writes the bundled sample (faithqa_spark/sample/): a SQuAD v2.0-layout file and a TriviaQA
rc-layout file with its evidence directory. All text is invented (Karsland and everything in
it are fictional); the questions are chosen so that the sample exercises every match
strategy and the filter and reject reasons a real corpus produces.

    python scripts/make_sample.py faithqa_spark/sample
"""

import json
P = []  # (title, context, [(qid, question, answer or None)])
A = {}
def para(title, ctx, qas):
    A.setdefault(title, []).append({"context": ctx, "qas": [
        {"id": qid, "question": q, "answers": [] if a is None else [{"text": a, "answer_start": ctx.find(a)}],
         "is_impossible": a is None} for qid, q, a in qas]})

para("Velmora Rail Company",
 "The Velmora Rail Company opened its first line in 1907, linking Ostrava Nova with the fishing town of Pellin Bay on the northern coast of Karsland. The route is 45km long and crosses the Tarrow River on three wooden bridges built by the engineer Lida Marsh. Marsh later designed the station at Brannick.",
 [("vrc-01", "When did the Velmora Rail Company open its first line?", "1907"),
  ("vrc-02", "Which fishing town did the first line reach?", "Pellin Bay"),
  ("vrc-03", "Who built the wooden bridges?", "Lida Marsh"),
  ("vrc-04", "How long is the route?", "45km"),
  ("vrc-05", "What does the line cross the river on?", "three wooden bridges"),
  ("vrc-06", "Which river is crossed, and how is it crossed?", "Tarrow River on"),
  ("vrc-07", "Which company opened the line?", "Velmora Rail Company"),
  ])
para("Velmora Rail Company",
 "Fares rose by 12 percent in 1921, and the company paid a dividend of $4 million that year. In 1934 the Velmora Rail Company was bought by the state railway of Karsland, which closed the branch to Pellin Bay in 1961 after a storm destroyed the harbour bridge.",
 [("vrc-09", "By how much did fares rise in 1921?", "12 percent"),
  ("vrc-10", "What dividend did the company pay?", "$4 million"),
  ("vrc-11", "Who bought the company in 1934?", "the state railway of Karsland"),
  ("vrc-12", "When was the branch to Pellin Bay closed?", "1961"),
  ("vrc-13", "What destroyed the harbour bridge?", "a storm"),
  ("vrc-14", "Which rival line did the state close in 1950?", None)])
para("Grenwick",
 "Marek Tolla founded Grenwick in 1911.",
 [("grw-01", "Who founded Grenwick?", "Marek Tolla")])
para("Grenwick",
 "The Grenwick Harbour Festival, held every August since 1952, draws about 30,000 visitors to Grenwick. The festival was started by the schoolteacher Anna Velt, who wanted to raise money for a new lifeboat. Today it is run by the Grenwick Sailing Club and ends with a regatta around Skarn Island.",
 [("grw-02", "In which month is the festival held?", "August"),
  ("grw-03", "Since when has the festival been held?", "1952"),
  ("grw-04", "Who started the festival?", "Anna Velt"),
  ("grw-05", "What did the founder want to raise money for?", "a new lifeboat"),
  ("grw-06", "Which club runs the festival today?", "the Grenwick Sailing Club"),
  ("grw-07", "Around which island is the regatta sailed?", "Skarn Island"),
  ("grw-08", "How many visitors does the festival draw?", "about 30,000"),
  ("grw-09", "", "Anna Velt")])
para("Brannick",
 "Brannick is the capital of Karsland. Brannick lies on the Tarrow River, and Brannick has been the seat of the Hjelm since 1868. The old town of Brannick burned in 1702; Brannick was rebuilt in stone. Trams have run in Brannick since 1899, and Brannick Central station, designed by Lida Marsh, opened in 1910. Brannick hosts the Karsland Book Fair. Visitors to Brannick often take the ferry from Brannick to Skarn Island, and many say Brannick is the most beautiful city of the north. Brannick is twinned with Ostrava Nova.",
 [("brn-01", "What is the capital of Karsland?", "Brannick"),
  ("brn-02", "When did the old town burn?", "1702"),
  ("brn-03", "Since when have trams run in the city?", "1899"),
  ("brn-04", "Which fair does the capital host?", "the Karsland Book Fair"),
  ("brn-05", "Which island can visitors reach by ferry?", "Skarn Island")])
para("Brannick",
 "Dr. Halvard Quist of the University of Ostrava Nova described the Karsland lynx in 1934. Quist spent eleven winters on Skarn Island and counted 214 lynx tracks in the winter of 1931. His notebooks are kept at the National Library in Brannick, next to the papers of the poet Oda Renn.",
 [("brn-06", "Who described the Karsland lynx?", "Halvard Quist"),
  ("brn-07", "Where did Quist work?", "University of Ostrava Nova"),
  ("brn-08", "How many lynx tracks did Quist count?", "214"),
  ("brn-09", "How many winters did Quist spend on the island?", "eleven winters"),
  ("brn-10", "Where are the notebooks kept?", "the National Library"),
  ("brn-11", "Whose papers are kept next to Quist's notebooks?", "Oda Renn"),
  ("brn-12", "What animal did Oda Renn describe in 1950?", None)])
para("Hjelm",
 "The Hjelm is the parliament of Karsland. It has 121 members, elected every four years by proportional representation. The Karslandic Social Union won the election of 2019 with 41 seats, and its leader Sanna Morrow became prime minister. The Hjelm meets in the Old Exchange, a building from 1788 that once housed the grain market of Brannick. Tram line 7 stops at its door.",
 [("hjm-01", "How many members does the Hjelm have?", "121"),
  ("hjm-02", "How often are members elected?", "every four years"),
  ("hjm-03", "Which party won the 2019 election?", "The Karslandic Social Union"),
  ("hjm-04", "Who became prime minister?", "Sanna Morrow"),
  ("hjm-05", "Where does the Hjelm meet?", "the Old Exchange"),
  ("hjm-06", "What did the building once house?", "the grain market of Brannick"),
  ("hjm-07", "How many seats did the winner get?", "41 seats"),
  ("hjm-08", "Which tram line stops at the Old Exchange?", "7"),
  ("hjm-09", "What happened to the Social Union in the election of 2019?", "Social Union won")])
para("Skarn Island",
 "Skarn Island lies 12 miles off the coast of Karsland. About 800 people live there, most of them in the village of Hollin. The island was settled by fishermen from Pellin Bay in the 16th century. During the Second World War a weather station on the island was run by the Karsland Navy, and the Great Storm of 1961 destroyed most of the harbour.",
 [("skn-01", "How far off the coast is the island?", "12 miles"),
  ("skn-02", "How many people live on the island?", "About 800"),
  ("skn-03", "In which village do most people live?", "Hollin"),
  ("skn-04", "Who settled the island?", "fishermen from Pellin Bay"),
  ("skn-05", "When was the island settled?", "the 16th century"),
  ("skn-06", "Who ran the weather station?", "the Karsland Navy"),
  ("skn-07", "Which storm destroyed the harbour?", "the Great Storm of 1961"),
  ("skn-08", "During which war was the weather station run?", "the Second World War")])

doc = {"version": "v2.0", "data": [{"title": t, "paragraphs": ps} for t, ps in A.items()]}



# ---- TriviaQA, official rc layout: qa/*.json plus evidence/wikipedia/*.txt ----
import pathlib, sys
root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else None
EVIDENCE = {
 "Grenwick.txt": "Grenwick is a harbour town on the northern coast of Karsland. It was founded in 1911 by Marek Tolla, a timber merchant from Ostrava Nova. The town is best known for the Grenwick Harbour Festival, which has been held every August since 1952. Its population was 6,400 at the census of 2020. The Grenwick Sailing Club, founded in 1923, organises a regatta around Skarn Island at the end of the festival.",
 "Karsland_lynx.txt": "The lynx of Karsland (Lynx karslandicus) is a small wild cat of the northern forests. It was first described in 1934 by the zoologist Halvard Quist, who had tracked it for eleven winters on Skarn Island. Fewer than 400 animals are thought to survive, most of them in the Tarrow valley.",
 "Brannick.txt": " ".join([
  "Brannick is the capital and largest city of Karsland, with about 410,000 inhabitants.",
  "It lies on both banks of the Tarrow River, 30 km from its mouth.",
  "The first record of the town dates from 1214, when a charter of King Olav III granted it the right to hold a market.",
  "For three centuries the town grew slowly as a river port for timber and grain.",
  "In 1702 a fire destroyed most of the wooden old town, and the council ordered that all new houses be built of stone.",
  "The rebuilt centre, with its narrow streets and stepped gables, is now protected.",
  "Brannick became the seat of the Hjelm, the parliament of Karsland, in 1868, when the capital was moved from Ostrava Nova.",
  "The Hjelm meets in the Old Exchange, a grain market hall from 1788.",
  "The city grew quickly in the late nineteenth century: trams began to run in 1899 and the first electric street lights were lit in 1903.",
  "Brannick Central station, designed by the engineer Lida Marsh, opened in 1910 and is still the main railway station.",
  "Marsh also designed the Tarrow Bridge, which was finished in 1916.",
  "During the Second World War the city was occupied for two years, and the harbour district was badly damaged.",
  "After the war the University of Brannick was founded in 1947; it now has about 22,000 students.",
  "The National Library, which holds the notebooks of Halvard Quist and the papers of the poet Oda Renn, opened in its present building in 1962.",
  "Each spring the city hosts the Karsland Book Fair, which began in 1975 and now draws publishers from across the north.",
  "Brannick is twinned with Ostrava Nova and with the port city of Vellan.",
  "The city is governed by a council of 45 members, led since 2018 by the mayor Tove Arlen.",
  "Its football club, Brannick United, has won the national league nine times.",
  "Ferries leave the old harbour twice a day for Skarn Island, a journey of about two hours.",
  "The climate is cool and wet, with an average July temperature of 16 degrees.",
  "Snow usually lies from December to March, and the river sometimes freezes.",
  "Tourism has grown since the 1990s, and the old town is now the most visited place in Karsland.",
 ]),
 "Pellin_Bay.txt": "Pellin Bay is a fishing town on the northern coast of Karsland. Fishermen from the town settled Skarn Island in the 16th century. A railway branch from Ostrava Nova reached the town in 1907 and was closed in 1961.",
}
TQA = [
 ("tqa_001", "Which Karsland harbour town holds a festival every August?", "Grenwick", ["Grenwick", "Grenwick, Karsland"], ["Grenwick.txt"]),
 ("tqa_002", "What is the scientific name of the small wild cat described by Halvard Quist?", "The Karsland Lynx", ["Karsland lynx", "Lynx karslandicus"], ["Karsland_lynx.txt"]),
 ("tqa_003", "Which engineer designed Brannick Central station?", "Lida Marsh", ["Marsh", "Lida Marsh"], ["Brannick.txt"]),
 ("tqa_004", "In which year did trams begin to run in the capital of Karsland?", "1899", ["1899"], ["Brannick.txt"]),
 ("tqa_005", "Who has led Brannick's council since 2018?", "Tove Arlen", ["Arlen"], ["Grenwick.txt", "Brannick.txt"]),
 ("tqa_006", "Which town's fishermen settled Skarn Island?", "Pellin Bay", ["Pellin"], ["Pellin_Bay.txt"]),
 ("tqa_007", "Which city is twinned with Brannick besides Ostrava Nova?", "Vellan", ["Vellan"], ["Missing_Page.txt"]),
 ("tqa_008", "What is the name of Grenwick's lighthouse?", "Tolla Light", ["Tolla Light"], ["Grenwick.txt"]),
 ("tqa_009", "How many members sit on Brannick's city council?", "45", ["forty-five", "45"], ["Brannick.txt"]),
]
tqa_doc = {"Data": [{"Question": q, "QuestionId": qid, "QuestionSource": "sample",
                     "Answer": {"Value": v, "Aliases": al, "NormalizedAliases": [a.lower() for a in al],
                                "NormalizedValue": v.lower(), "Type": "WikipediaEntity"},
                     "EntityPages": [{"Filename": f, "Title": f[:-4].replace("_", " "), "DocSource": "TagMe"} for f in fs],
                     "SearchResults": []} for qid, q, v, al, fs in TQA],
           "Domain": "Wikipedia", "Split": "sample", "Version": 1.0, "VerifiedEval": False}
if root is not None:
    (root / "squad_sample.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    (root / "triviaqa" / "qa" / "wikipedia-sample.json").write_text(json.dumps(tqa_doc, indent=1, ensure_ascii=False) + "\n")
    for name, text in EVIDENCE.items():
        (root / "triviaqa" / "evidence" / "wikipedia" / name).write_text(text + "\n")
