#!/usr/bin/env python3
"""Independent corruption generator for person records (GeCo / FEBRL style).

Writes a table of person records with realistic duplicates and errors, plus a
truth file (record_id,person_id), to measure dedupe quality on data that the
engine's own generator did not write.

    python corrupt.py --people N --seed S [--min-records 1 --max-records 20
        --dist zipf|uniform] --out table.csv --truth truth.csv
        [--format csv|ndjson] [--profile crm|census|web] [--locale en|de|fr|mixed]

Model (README.md has the long version):
  1. clean persons: names drawn by frequency from Faker's per-locale name
     providers (US Census / SSA weights for en), with a long tail; dates of
     birth for ages 18-95 on a fixed reference date; a synthetic geography of
     postcode districts with towns; optional households sharing an address.
  2. each person gets k records (1..20, Zipf or uniform); every record is an
     independent copy of the clean person with corruptions applied column by
     column, each with the rate set in PROFILES below.
  3. records are shuffled (external bucket shuffle: linear time, bounded
     memory) and get record ids in output order.

Deterministic: the same arguments and seed give the same bytes (with the
package versions pinned in requirements.txt; nothing reads the clock, the
environment or the string hash seed).
"""
import argparse
import bisect
import csv
import calendar as _cal
import datetime as _dt
import hashlib
import json
import math
import os
import random
import re
import sys
import tempfile
import time
import unicodedata
import zlib
from collections import Counter

# ---------------------------------------------------------------------------
# Profiles: output columns (a user's own naming), the logical field behind each
# column, defaults, and the per-field corruption rates.  Rates are per record
# and conditional on the corruption being applicable to the value at hand
# (e.g. "gmail_dots" only for gmail addresses, "nickname" only for given names
# that have one, "married_name" only for women).  Within a field, corruptions
# are applied in the order listed, after "missing" (a missing value gets no
# other corruption).  "case" and "ocr" act on the written-out string.
# ---------------------------------------------------------------------------
PROFILES = {
    "crm": {
        "columns": ["record_id", "first_name", "last_name", "dob", "email", "phone",
                    "street", "city", "postcode", "country", "gender", "occupation"],
        "fields": {"first_name": "given", "last_name": "family", "dob": "dob",
                   "email": "email", "phone": "phone", "street": "street",
                   "city": "city", "postcode": "postcode", "country": "country",
                   "gender": "gender", "occupation": "occupation"},
        "date_format": "iso",
        "household_rate": 0.15,
        "rates": {
            "address": {"moved": 0.05},
            "name": {"swap": 0.02, "last_first": 0.02},
            "given": {"missing": 0.02, "nickname": 0.12, "initial": 0.04,
                      "phonetic": 0.03, "keyboard": 0.03, "diacritics": 0.30,
                      "case": 0.05},
            "family": {"missing": 0.01, "married_name": 0.04, "hyphenated": 0.02,
                       "surname_variant": 0.10, "phonetic": 0.03, "keyboard": 0.03,
                       "diacritics": 0.30, "case": 0.05},
            "dob": {"missing": 0.10, "day_month_swap": 0.03, "digit_transpose": 0.02,
                    "off_by_one_day": 0.02, "off_by_one_year": 0.02,
                    "date_format": 0.30, "year_only": 0.02},
            "email": {"missing": 0.15, "other_provider": 0.06, "gmail_dots": 0.20,
                      "plus_tag": 0.04, "domain_typo": 0.02, "local_typo": 0.02,
                      "case": 0.05},
            "phone": {"missing": 0.25, "other_number": 0.06, "digit_typo": 0.03,
                      "phone_format": 0.40},
            "street": {"missing": 0.10, "abbreviation": 0.20, "house_number": 0.03,
                       "keyboard": 0.03, "diacritics": 0.30, "case": 0.05},
            "city": {"missing": 0.05, "neighbour_town": 0.05, "city_abbrev": 0.30,
                     "keyboard": 0.03, "phonetic": 0.02, "diacritics": 0.30,
                     "case": 0.05},
            "postcode": {"missing": 0.08, "within_district": 0.05, "digit_typo": 0.02,
                         "postcode_format": 0.10},
            "country": {"missing": 0.10, "country_format": 0.25},
            "gender": {"missing": 0.10, "gender_wrong": 0.01, "gender_code": 0.15},
            "occupation": {"missing": 0.30, "job_change": 0.08, "keyboard": 0.02,
                           "case": 0.05},
        },
    },
    "census": {
        "columns": ["rec_id", "given", "surname", "birth_date", "birthplace",
                    "postcode", "gender", "occupation"],
        "fields": {"given": "given", "surname": "family", "birth_date": "dob",
                   "birthplace": "birthplace", "postcode": "postcode",
                   "gender": "gender", "occupation": "occupation"},
        "date_format": "local",   # mm/dd/yyyy (en), dd.mm.yyyy (de), dd/mm/yyyy (fr)
        "household_rate": 0.30,
        "rates": {
            "address": {"moved": 0.04},
            "name": {"swap": 0.03},
            "given": {"missing": 0.03, "nickname": 0.06, "initial": 0.05,
                      "phonetic": 0.05, "keyboard": 0.02, "ocr": 0.03,
                      "diacritics": 0.30, "case": 0.05},
            "family": {"missing": 0.02, "married_name": 0.03, "hyphenated": 0.01,
                       "surname_variant": 0.12, "phonetic": 0.05, "keyboard": 0.02,
                       "ocr": 0.03, "diacritics": 0.30, "case": 0.10},
            "dob": {"missing": 0.20, "day_month_swap": 0.03, "digit_transpose": 0.03,
                    "off_by_one_day": 0.02, "off_by_one_year": 0.03,
                    "date_format": 0.10, "year_only": 0.06, "ocr": 0.02},
            "birthplace": {"missing": 0.35, "neighbour_town": 0.04, "keyboard": 0.03,
                           "phonetic": 0.03, "diacritics": 0.30, "ocr": 0.02,
                           "case": 0.05},
            "postcode": {"missing": 0.25, "within_district": 0.04, "digit_typo": 0.02,
                         "postcode_format": 0.05, "ocr": 0.02},
            "gender": {"missing": 0.05, "gender_wrong": 0.005, "gender_code": 0.10},
            "occupation": {"missing": 0.40, "job_change": 0.05, "keyboard": 0.03,
                           "case": 0.05},
        },
    },
    "web": {
        "columns": ["id", "full_name", "email", "city", "signup_date"],
        "fields": {"full_name": "name", "email": "email", "city": "city",
                   "signup_date": "signup"},
        "date_format": "iso",
        "household_rate": 0.0,
        "rates": {
            "address": {"moved": 0.05},
            "name": {"missing": 0.02, "swap": 0.02, "last_first": 0.06,
                     "first_only": 0.05},
            "given": {"nickname": 0.15, "initial": 0.03, "phonetic": 0.02,
                      "keyboard": 0.05, "diacritics": 0.40, "case": 0.15},
            "family": {"married_name": 0.03, "hyphenated": 0.01,
                       "surname_variant": 0.08, "phonetic": 0.02, "keyboard": 0.04,
                       "diacritics": 0.40, "case": 0.15},
            "email": {"other_provider": 0.15, "gmail_dots": 0.20, "plus_tag": 0.08,
                      "domain_typo": 0.03, "local_typo": 0.03, "case": 0.08},
            "city": {"missing": 0.30, "neighbour_town": 0.06, "city_abbrev": 0.30,
                     "keyboard": 0.06, "phonetic": 0.03, "diacritics": 0.50,
                     "case": 0.20},
        },
    },
}

LOCALE_MIX = {"en": 0.5, "de": 0.25, "fr": 0.25}   # for --locale mixed
REF_DATE = _dt.date(2024, 6, 30)                   # ages are counted on this day
POST_RENDER = ("case", "ocr")                      # act on the written string
BUCKET_RECORDS = 100_000                           # shuffle bucket size (expected)

# ---------------------------------------------------------------------------
# Reference data
# ---------------------------------------------------------------------------
try:
    from faker.providers.person.en_US import Provider as _P_en
    from faker.providers.person.de_DE import Provider as _P_de
    from faker.providers.person.fr_FR import Provider as _P_fr
    from faker.providers.address.en_US import Provider as _A_en
    from faker.providers.address.de_DE import Provider as _A_de
    from faker.providers.address.fr_FR import Provider as _A_fr
    from faker.providers.job.en_US import Provider as _J_en
    from faker.providers.job.de_DE import Provider as _J_de
    from faker.providers.job.fr_FR import Provider as _J_fr
    import importlib
except ImportError as e:  # pragma: no cover
    sys.exit(f"corrupt.py needs the packages in requirements.txt ({e})")

# Name tails: extra names from related Faker locales, sharing the part of the
# population that the head list does not cover (share per locale, then
# uniform within a locale's list).
TAIL_LOCALES = {
    "en": {"en_GB": 0.15, "en_IE": 0.15, "ga_IE": 0.05, "es_MX": 0.20, "de_DE": 0.12,
           "it_IT": 0.12, "nl_NL": 0.06, "fr_FR": 0.05, "pl_PL": 0.05, "es_ES": 0.05},
    "de": {"de_AT": 0.40, "de_CH": 0.25, "tr_TR": 0.10, "pl_PL": 0.05, "cs_CZ": 0.06,
           "it_IT": 0.06, "nl_NL": 0.04, "da_DK": 0.04},
    "fr": {"fr_BE": 0.30, "fr_CA": 0.20, "fr_CH": 0.15, "pt_PT": 0.12, "it_IT": 0.09,
           "es_ES": 0.09},
}
# Share of people whose name is in the head list (approximate, see README).
HEAD_MASS = {"en": {"family": 0.41, "given": 0.75},
             "de": {"family": 0.45, "given": 0.85},
             "fr": {"family": 0.30, "given": 0.65}}
# Well-known most frequent names put at the top of the rank order for lists
# that Faker keeps alphabetical (de) or unweighted (fr given names).
TOP_NAMES = {
    ("de", "family"): "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz "
                      "Hoffmann Schäfer Koch Bauer Richter Klein Wolf Schröder Neumann "
                      "Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt "
                      "Werner Schmitz Krause Meier",
    ("de", "M"): "Peter Michael Thomas Andreas Wolfgang Klaus Jürgen Stefan Christian "
                 "Uwe Werner Hans Frank Bernd Günter Horst Dieter Manfred Ralf Markus",
    ("de", "F"): "Ursula Sabine Monika Petra Renate Andrea Helga Karin Brigitte Susanne "
                 "Claudia Gisela Birgit Nicole Stefanie Heike Elke Anja Julia Maria",
    ("fr", "M"): "Jean Pierre Michel Philippe Alain Nicolas Christophe Patrick Daniel "
                 "Bernard Frédéric Laurent Stéphane Thomas David Julien Éric Pascal",
    ("fr", "F"): "Marie Nathalie Isabelle Sylvie Catherine Martine Christine Françoise "
                 "Monique Valérie Sandrine Sophie Nicole Anne Céline Stéphanie Julie",
}

LOCALE_INFO = {
    "en": {"country": "US", "cc": "1", "keyboard": "qwerty",
           "countries": ["USA", "United States", "U.S.", "United States of America", "us"],
           "gender_codes": {"F": ["female", "f", "Female", "W"],
                            "M": ["male", "m", "Male"]},
           "date_local": "mdy_slash"},
    "de": {"country": "DE", "cc": "49", "keyboard": "qwertz",
           "countries": ["Germany", "Deutschland", "DEU", "D", "de", "BRD"],
           "gender_codes": {"F": ["w", "weiblich", "W", "Frau"],
                            "M": ["m", "männlich", "Herr"]},
           "date_local": "dmy_dot"},
    "fr": {"country": "FR", "cc": "33", "keyboard": "azerty",
           "countries": ["France", "FRA", "F", "fr", "République française"],
           "gender_codes": {"F": ["Femme", "f", "Mme"],
                            "M": ["H", "Homme", "M.", "h"]},
           "date_local": "dmy_slash"},
}

EMAIL_PROVIDERS = {
    "en": [("gmail.com", 35), ("yahoo.com", 15), ("hotmail.com", 10), ("outlook.com", 10),
           ("aol.com", 5), ("icloud.com", 8), ("comcast.net", 4), ("verizon.net", 3),
           ("msn.com", 3), ("live.com", 4), ("att.net", 3)],
    "de": [("gmail.com", 25), ("gmx.de", 20), ("web.de", 20), ("t-online.de", 10),
           ("yahoo.de", 5), ("outlook.de", 5), ("hotmail.de", 5), ("freenet.de", 5),
           ("posteo.de", 3), ("googlemail.com", 2)],
    "fr": [("gmail.com", 30), ("orange.fr", 18), ("free.fr", 12), ("hotmail.fr", 12),
           ("yahoo.fr", 10), ("laposte.net", 8), ("sfr.fr", 6), ("wanadoo.fr", 4)],
}
DOMAIN_TYPOS = {
    "gmail.com": ["gmial.com", "gmai.com", "gmail.co", "gmail.con", "gamil.com", "gnail.com",
                  "gmail.cm", "gmaill.com"],
    "yahoo.com": ["yaho.com", "yahooo.com", "yahoo.co", "yahho.com", "yhoo.com"],
    "hotmail.com": ["hotmial.com", "hotmal.com", "hotmail.co", "hotnail.com", "hotmaill.com"],
    "outlook.com": ["outlok.com", "outloo.com", "outlook.co", "otlook.com"],
    "aol.com": ["aol.co", "aoll.com", "ao.com"],
    "icloud.com": ["iclod.com", "icloud.co", "icoud.com"],
    "gmx.de": ["gmx.d", "gmx.dee", "gmxx.de", "gmx.com"],
    "web.de": ["web.d", "wbe.de", "webb.de", "web.dee"],
    "t-online.de": ["tonline.de", "t-onlin.de", "t-online.d", "t-onine.de"],
    "orange.fr": ["orage.fr", "orange.f", "ornage.fr", "orange.fe"],
    "free.fr": ["fre.fr", "free.f", "fee.fr"],
    "hotmail.fr": ["hotmial.fr", "hotmail.f", "hotmal.fr"],
    "yahoo.fr": ["yaho.fr", "yahoo.f", "yahooo.fr"],
    "laposte.net": ["lapost.net", "laposte.ne", "lapsote.net"],
}
PLUS_TAGS = ["shop", "news", "amazon", "work", "spam", "2019", "2021", "promo", "bank",
             "social", "list", "signup", "x"]

PHONE_FORMATS = {
    # fmt(cc, digits) -> str; digits is the national number without trunk 0
    "en": ["nanp_paren", "nanp_dash", "nanp_dot", "nanp_plain", "intl_space", "intl_plain",
           "nanp_one"],
    "de": ["de_space", "de_slash", "de_dash", "intl_space", "intl_paren0", "intl_plain",
           "intl_00", "de_plain"],
    "fr": ["fr_pairs", "fr_plain", "fr_dots", "intl_pairs", "intl_plain", "intl_00_pairs"],
}
PHONE_DEFAULT = {"en": "nanp_paren", "de": "de_space", "fr": "fr_pairs"}

DATE_FORMATS = ["iso", "dmy_slash", "mdy_slash", "ymd_compact", "dmy_dot", "dmy_dash"]

STREET_ABBREV = {
    "en": [("Street", ["St", "St.", "Str"]), ("Avenue", ["Ave", "Ave.", "Av"]),
           ("Road", ["Rd", "Rd."]), ("Drive", ["Dr", "Dr."]), ("Lane", ["Ln", "Ln."]),
           ("Court", ["Ct", "Ct."]), ("Place", ["Pl", "Pl."]),
           ("Boulevard", ["Blvd", "Blvd.", "Boul."]), ("Terrace", ["Ter", "Terr."]),
           ("Circle", ["Cir", "Cir."]), ("Parkway", ["Pkwy"]), ("Highway", ["Hwy"])],
    "de": [("straße", ["str.", "str", "strasse", " Straße"]), ("Straße", ["Str.", "Str"]),
           ("platz", ["pl."])],
    "fr": [("rue", ["r.", "R."]), ("avenue", ["av.", "ave", "Av."]),
           ("boulevard", ["bd", "bd.", "boul.", "Bd"]), ("chemin", ["ch.", "chem."]),
           ("place", ["pl.", "Pl."]), ("impasse", ["imp.", "Imp."]),
           ("allée", ["all.", "allee"])],
}
CITY_ABBREV = [(" am ", [" a. ", " a."]), ("Saint-", ["St-", "St.-", "Saint "]),
               ("Saint ", ["St ", "St. ", "Saint-"]), ("Sainte ", ["Ste ", "Ste. "]),
               ("-sur-", [" sur ", "-s/-"]), ("-les-", [" les ", "-lès-"]),
               ("North ", ["N ", "N. "]), ("South ", ["S ", "S. "]),
               ("East ", ["E ", "E. "]), ("West ", ["W ", "W. "]), ("Port ", ["Pt ", "Pt. "]),
               ("Lake ", ["Lk "]), ("New ", ["N. "]), ("Bad ", ["Bd. ", "Bad-"]),
               ("Sankt ", ["St. ", "St "]), (" an der ", [" a. d. ", " a.d. "]),
               (" (", [" ", "/"])]

# German and French hypocorisms (hand-typed, see SOURCES.md).  English ones
# come from the `nicknames` package (carltonnorthern/nicknames names.csv).
NICKNAMES_DE = """
Alexander: Alex Sascha Xander | Alexandra: Alex Sandra | Andreas: Andi Andy |
Angelika: Geli Angie | Barbara: Babsi Bärbel Barbi | Benjamin: Ben Benni |
Bernhard: Bernd Berni | Birgit: Biggi | Brigitte: Gitti Biggi | Christian: Chris Christl |
Christiane: Tina Chrissi | Christina: Tina Chrissi | Christine: Tina Chrissi Christl |
Christoph: Chris Stoffel | Cornelia: Conny Nele | Daniel: Dani Danny |
Daniela: Dani Ela | Dietrich: Dieter Didi | Dominik: Domi | Dorothea: Dora Doro Thea |
Elfriede: Elfi Frieda | Elisabeth: Lisa Liesel Elli Elsa Ilse Lisbeth Sissi |
Florian: Flo Flori | Franziska: Franzi Fanny Ziska | Friederike: Frieda Rike Fritzi |
Friedrich: Fritz Fred Friedel | Gabriele: Gabi Gaby | Gerhard: Gerd Gerdi |
Gertrud: Trude Gerti Traudl | Gottfried: Friedel Gottfr. | Hannelore: Hanne Lore |
Heinrich: Heinz Heini Hein | Helene: Lene Leni | Hildegard: Hilde Hildi |
Ingeborg: Inge | Isabel: Isa Bella | Isabella: Isa Bella | Jacqueline: Jacky |
Joachim: Achim Jochen Jo | Johann: Hans Hannes | Johanna: Hanna Hanni Jo |
Johannes: Hans Hannes Jo Jens | Josef: Sepp Seppl Jupp Joschi | Juliane: Jule Juli |
Karl: Kalle Karli | Katharina: Kathi Katja Kati Kathrin | Kathrin: Kati |
Konrad: Conny Konni Kurt | Konstantin: Konsti Tino | Leopold: Poldi Leo |
Ludwig: Lutz Luggi | Magdalena: Lena Leni Magda | Manfred: Manni Fred |
Margarete: Grete Gretel Margit Meta | Margarethe: Grete Gretel Margit | Maria: Mia Mimi Mizzi |
Martina: Tina | Matthias: Matze Hias Matti | Maximilian: Max Maxi | Michael: Michi Micha Mike |
Monika: Moni | Nikolaus: Klaus Niko Claus | Patricia: Patty Trixi | Peter: Pit Pete |
Philipp: Phil | Reinhard: Reini | Richard: Richi Ricky | Robert: Robby Rob Bert |
Rosemarie: Rosi Rosel | Rudolf: Rudi Dolf | Sabine: Bine Sabsi | Sebastian: Basti Wastl Sebi |
Stefanie: Steffi Steph | Stephanie: Steffi | Susanne: Susi Sanne Suse | Thomas: Tom Tommi Thommy |
Tobias: Tobi | Ulrich: Uli Ulli Utz | Ulrike: Ulli Rike Ulla | Ursula: Uschi Ulla Ursel |
Valentin: Vali Tino | Veronika: Vroni Roni | Waltraud: Traudl Walli | Wilhelm: Willi Willy Wim Helm |
Wolfgang: Wolf Wolfi | Herbert: Berti Herbie | Hubert: Hubsi | Albert: Berti Ali |
Walter: Walti | Werner: Werni | Gregor: Gregi | Benedikt: Bene Beni | Jakob: Jakl Kobi |
Stefan: Steff Steffen | Markus: Mark Marki | Martin: Marti Tino | Jürgen: Jogi Jockel |
Georg: Schorsch Jörg | Elke: Elli | Annemarie: Anne Annemie | Marianne: Janne Mari |
Renate: Reni | Regina: Gina | Theresa: Resi Tessa | Therese: Resi | Helga: Helgi |
Ingrid: Inge | Dagmar: Daggi | Gisela: Gisi | Johanna: Jo | Silvia: Silvi
"""
NICKNAMES_FR = """
Alexandre: Alex | Alexandra: Alex Sandra | Antoine: Toine Tonio | Bernard: Nanard Bébert |
Catherine: Cathy Cath Cathou | Charles: Charlie Charlot | Christophe: Chris Totophe |
Christine: Chris Titine | Daniel: Dan Dany | Danielle: Dany | Dominique: Dom Domi |
Élisabeth: Babette Lisette Élise Zabeth | Emmanuel: Manu | Emmanuelle: Manue Manu |
Françoise: Fanfan Fanny | François: Fanfan Francky | Frédéric: Fred Fredo | Frédérique: Fred |
Gérard: Gégé | Guillaume: Guigui Guille | Henri: Riri | Isabelle: Isa Zaza |
Jacques: Jacquot Jacky | Jean: Jeannot | Jeanne: Jeannette Jeannine | Jérôme: Jéjé |
Joseph: Jojo Jo | Joséphine: Fifine Josy Jo | Julien: Juju | Laurent: Lolo |
Louis: Loulou | Madeleine: Mado Madelon | Marguerite: Margot Maggy Guite | Marie: Manon Mimi Marion |
Michel: Mimi Michou | Michèle: Mimi Michou | Michelle: Mimi Michou | Nathalie: Nath Nat |
Nicolas: Nico Colas | Nicole: Nico Cocole | Patrice: Pat | Patrick: Pat Patou |
Philippe: Phil Fifi Flip | Pierre: Pierrot Pierrick | Raymond: Momo Ray | René: Néné |
Robert: Bob Bébert | Sébastien: Seb Bastien | Stéphane: Steph Fanfan | Stéphanie: Steph Fanny |
Sylvie: Syl Sylvette | Thomas: Tom Thom | Thierry: Titi | Valérie: Val Valou | Véronique: Véro |
Virginie: Gigi Virgi | Caroline: Caro Lina | Charlotte: Charlie Lotte | Élodie: Élo Lodie |
Hélène: Léna Lélène | Jacqueline: Jacquie Jackie | Benoît: Ben | Benjamin: Ben Benji |
Christian: Chris | Arnaud: Nono | Florence: Flo | Florian: Flo | Vincent: Vince Vinz |
Maxime: Max | Maximilien: Max | Mathilde: Tilde Mathou | Théodore: Théo | Timothée: Tim Timo |
Victor: Vic Totor | Adrien: Adri | Suzanne: Suzon Suzie Zaza | Geneviève: Ginette Geneviève |
Antoinette: Toinette Nénette | Brigitte: Bibi Gitte | Martine: Titine | Monique: Momo Mo |
Gabriel: Gaby Gab | Gabrielle: Gaby Gabi | Jonathan: Jo Jojo | Anne-Marie: Annie Marie |
Jean-Pierre: JP Jipé | Jean-Claude: JC Jicé | Jean-Luc: JL | Marie-Claude: Marie Claude |
Édouard: Doudou Ed | Eugène: Gégène | Gilbert: Gilou Gil | Lucien: Lulu | Marcel: Marcelo Cel |
Maurice: Momo | Roger: Rog | Yvonne: Vonvon | Simone: Simo Mone | Paulette: Popo |
Germaine: Germ | Josette: Jojo | Albert: Bébert | Alphonse: Fonfon | Augustin: Gus Tintin |
Bertrand: Bébert | Camille: Cam Milou | Denis: Dédé | André: Dédé | Andrée: Dédée |
Olivier: Oli Olive | Emmanuel: Manou | Claire: Clairette | Anne: Annie Nanou |
Marc: Marco | Mathieu: Math Matt | Matthieu: Math Matt | Sophie: Soso Phiphi |
Juliette: Juju Julie | Laurence: Lolo Laure | Margaux: Margot Mag | Océane: Océ
"""

SURNAME_GROUPS = """
Brown Browne | Smith Smyth Smithe | Clark Clarke | Reid Reed Read Reade | Gray Grey |
Thompson Thomson Tompson | Phillips Philips | Johnson Jonson | Anderson Andersen |
Peterson Petersen Pedersen | Stewart Stuart | Mackenzie McKenzie MacKenzie |
McDonald MacDonald Macdonald | Green Greene | Cook Cooke | Wood Woods | Myers Meyers |
Allen Allan Alan | Davis Davies | Matthews Mathews | Hansen Hanson | Carlson Carlsen |
Olson Olsen | Jensen Jenson | Fisher Fischer | Neal Neil Neill | Rogers Rodgers |
Hughes Hughs | Murphy Murphey | Bailey Baily Bayley | Foster Forster | Powell Powel |
Lloyd Loyd | Wells Welles | Hoffman Hoffmann Hofmann | Kaufman Kaufmann | Snyder Snider |
Burke Bourke | Kelly Kelley | Hayes Hays | Barrett Barret | Bennett Bennet | Garrett Garret |
Jeffries Jefferies Jeffreys | Pearson Pierson | Hernandez Hernández | Gonzalez González Gonzales |
Rodriguez Rodríguez | Martinez Martínez | Lopez López | Perez Pérez | Sanchez Sánchez |
Ramirez Ramírez | Gomez Gómez | Diaz Díaz | Morris Maurice | Harris Harriss | Nichols Nicholls |
Mitchell Mitchel | Russell Russel | Campbell Campbel | Parker Parkar | Wright Right |
Lewis Louis | Baker Backer | Fox Foxx | Shaw Shawe | Hart Harte | Reynolds Reynold |
Meyer Meier Maier Mayer Mayr | Schmidt Schmitt Schmid Schmied | Müller Mueller |
Schulz Schultz Schulze Schultze | Schäfer Schaefer Schäffer | Becker Bäcker Baecker |
Koch Kock | Wagner Wegner | Weber Webber | Bauer Baur | Klein Kleine | Wolf Wolff Wulf |
Schröder Schroeder Schröter | Neumann Naumann Neuman | Schwarz Schwartz |
Zimmermann Zimmerman | Krüger Krueger Kröger | Hartmann Hartman | Lange Lang |
Schmitz Schmits | Krause Kraus Krauss Krauß | Lehmann Lehman | Köhler Koehler Kohler |
Herrmann Hermann Herman | König Koenig | Walter Walther | Peters Peter | Vogel Vogl |
Günther Guenther Gunther Günter | Frank Franck Franke | Roth Rot | Lorenz Lorentz |
Baumann Bauman | Ziegler Zigler | Jäger Jaeger | Graf Graff | Seidel Seidl Seydel |
Haas Haase Hase | Dietrich Dittrich Diedrich | Pohl Pohle | Kuhn Kühn Kuehn |
Sommer Sommers | Engel Engels | Friedrich Friedrichs | Heinrich Heinrichs | Braun Brauns |
Lefebvre Lefèvre Lefevre Lefeuvre | Dupont Du Pont Dupond | Bernard Bernhard |
Dubois Du Bois Duboys | Durand Durant | Moreau Moreaux | Leroy Le Roy Leroi |
Roux Leroux Le Roux | Bonnet Bonet | François Francois | Faure Favre | André Andre |
Gauthier Gautier Gaultier | Rousseau Rousseaux | Blanc Leblanc Le Blanc | Lemaire Le Maire |
Lebrun Le Brun | Legrand Le Grand | Chevalier Chevallier | Renard Regnard | Perrin Perin |
Morel Morell | Fontaine Lafontaine La Fontaine | Denis Denys | Clément Clement |
Meunier Meusnier | Mathieu Matthieu | Guérin Guerin | Boyer Bouyer | Girard Gérard |
Lefort Le Fort | Lacroix La Croix | Dumont Du Mont | Delacroix De La Croix |
Lemoine Le Moine | Lambert Lambertz | Garnier Garnié | Robert Roberts | Thomas Tomas
"""

OCR_PAIRS = [("0", "O"), ("O", "0"), ("1", "l"), ("l", "1"), ("1", "I"), ("I", "l"),
             ("l", "I"), ("rn", "m"), ("m", "rn"), ("5", "S"), ("S", "5"), ("8", "B"),
             ("B", "8"), ("cl", "d"), ("d", "cl"), ("vv", "w"), ("w", "vv"), ("e", "c"),
             ("c", "e"), ("h", "b"), ("u", "v"), ("n", "h"), ("2", "Z"), ("6", "b"),
             ("o", "0"), ("g", "q"), ("i", "l"), ("a", "o")]

PHONETIC_RULES = [(re.compile(p), r) for p, r in [
    ("ph", "f"), ("f", "ph"), ("ck", "k"), ("(?<=[aeiou])k", "ck"), ("c(?=[aou])", "k"),
    ("^k(?=[aou])", "c"), ("ie", "ei"), ("ei", "ie"), ("y", "i"), ("(?<=[^aeiou])i", "y"),
    ("(?<=[aeiou])([bdfglmnprst])(?=[aeiou])", r"\1\1"), ("([bdfglmnprstz])\\1", r"\1"),
    ("son$", "sen"), ("sen$", "son"), ("^mc", "mac"), ("^mac", "mc"), ("^kn", "n"),
    ("^wr", "r"), ("mb$", "m"), ("gh", "g"), ("th", "t"), ("dt", "tt"), ("tt", "dt"),
    ("dt$", "t"), ("tz", "z"), ("(?<=[aeiou])z", "tz"), ("ai", "ei"), ("ei", "ai"),
    ("ey$", "y"), ("(?<=[^aeiou])y$", "ey"), ("ay", "ey"), ("ou", "oo"), ("eau", "o"),
    ("qu", "k"), ("x", "ks"), ("ks", "x"), ("v", "w"), ("w", "v"), ("mann$", "man"),
    ("(?<=[^n])man$", "mann"), ("(?<=[nrlk])e$", ""), ("(?<=[^aeiouy][nrdk])$", "e"),
    ("s$", "z"), ("ch", "sch"), ("sch", "sh"), ("(?<=[^aeiou])a$", "ah"), ("ll", "l"), ("ine$", "yne"),
    ("ee", "ea"), ("ea", "ee"), ("oo", "u"), ("er$", "or"), ("or$", "er"), ("an$", "en"),
    ("en$", "an"), ("el$", "le"), ("le$", "el"), ("au", "o"), ("ar$", "er"), ("ur", "er"),
    ("oa", "o"), ("ow", "ou"), ("ough", "ow"), ("ng$", "n"), ("^h", ""), ("ce$", "se"),
]]

KEY_ROWS = {"qwerty": ["qwertyuiop", "asdfghjkl", "zxcvbnm"],
            "qwertz": ["qwertzuiopü", "asdfghjklöä", "yxcvbnm"],
            "azerty": ["azertyuiop", "qsdfghjklm", "wxcvbn"]}
KEYPAD = {"1": "24", "2": "135", "3": "26", "4": "157", "5": "2468", "6": "359",
          "7": "48", "8": "5790", "9": "68", "0": "8"}


def _keyboard_neighbours(rows):
    pos = {}
    for r, row in enumerate(rows):
        for i, ch in enumerate(row):
            pos[ch] = (r, i + (0, 0.25, 0.75)[r])
    out = {}
    for a, (ra, xa) in pos.items():
        out[a] = "".join(b for b, (rb, xb) in pos.items()
                         if b != a and abs(ra - rb) <= 1 and abs(xa - xb) <= 1.0)
    return out


KEY_NEIGHBOURS = {k: _keyboard_neighbours(v) for k, v in KEY_ROWS.items()}


def _parse_nick_block(text):
    out = {}
    for item in text.replace("\n", " ").split("|"):
        if ":" not in item:
            continue
        formal, nicks = item.split(":", 1)
        out.setdefault(formal.strip().lower(), []).extend(
            n for n in nicks.split() if n.lower() != formal.strip().lower())
    return out


def _load_english_nicknames():
    from nicknames import name_triplets
    out = {}
    for t in name_triplets():
        if t.relationship == "has_nickname" and len(t.name2) >= 2:
            out.setdefault(t.name1.lower(), []).append(t.name2.capitalize())
    return out


def _surname_groups():
    out = {}
    for grp in SURNAME_GROUPS.replace("\n", " ").split("|"):
        # multi-word members are written with a single space: "Du Pont"
        words = grp.split()
        members, i = [], 0
        while i < len(words):
            if words[i] in ("Du", "Le", "La", "De") and i + 1 < len(words):
                j = i + 1
                while j < len(words) and words[j] in ("La",):
                    j += 1
                members.append(" ".join(words[i:j + 1]))
                i = j + 1
            else:
                members.append(words[i])
                i += 1
        for m in members:
            out.setdefault(m, [])
            out[m].extend(x for x in members if x != m and x not in out[m])
    return out


def _crc(s):
    return zlib.crc32(s.encode("utf-8"))


class Weighted:
    """Draws from (value, weight) pairs by cumulative weights and bisect."""

    def __init__(self, items):
        self.values = [v for v, _ in items]
        acc, self.cum = 0.0, []
        for _, w in items:
            acc += w
            self.cum.append(acc)
        self.total = acc

    def draw(self, rng):
        return self.values[bisect.bisect_right(self.cum, rng.random() * self.total)
                           if self.cum else 0]


def _zipf_ranked(names, q=10.0, s=1.0):
    return [(n, 1.0 / (i + q) ** s) for i, n in enumerate(names)]


def _latin(s):
    return all(ord(c) < 0x250 or c in "-' " for c in s)


def _faker_list(loc, attr):
    try:
        mod = importlib.import_module(f"faker.providers.person.{loc}")
    except ImportError:
        return []
    v = getattr(mod.Provider, attr, ())
    return list(v.keys()) if isinstance(v, dict) else list(v)


def _head_list(locale, kind, gender=None):
    """(name, weight) pairs for the head of the distribution, weights sum to 1."""
    P = {"en": _P_en, "de": _P_de, "fr": _P_fr}[locale]
    if kind == "family":
        src = P.last_names
        top = TOP_NAMES.get((locale, "family"), "")
    else:
        src = P.first_names_male if gender == "M" else P.first_names_female
        top = TOP_NAMES.get((locale, gender), "")
    if isinstance(src, dict):                       # en: Census / SSA weights
        items = list(src.items())
    else:
        names = list(dict.fromkeys(src))
        if locale == "fr" and kind == "family":    # fr list is in frequency order
            ranked = names
        else:                                       # alphabetical: known top names
            top = [t for t in top.split()]         # first, then a fixed pseudo-order
            rest = sorted((n for n in names if n not in top), key=lambda n: (_crc(n), n))
            ranked = top + rest
        items = _zipf_ranked(ranked)
    tot = sum(w for _, w in items)
    return [(n, w / tot) for n, w in items]


def _name_dist(locale, kind, gender=None):
    head = _head_list(locale, kind, gender)
    seen = {n for n, _ in head}
    attr = "last_names" if kind == "family" else (
        "first_names_male" if gender == "M" else "first_names_female")
    tails = []
    for loc, share in TAIL_LOCALES[locale].items():
        names = []
        for n in _faker_list(loc, attr):
            if n not in seen and _latin(n) and 2 <= len(n) <= 20 and " " not in n:
                seen.add(n)
                names.append(n)
        if len(names) >= 50:        # skip placeholder lists
            tails.append((share, names))
    hm = HEAD_MASS[locale][kind]
    items = [(n, w * hm) for n, w in head]
    tot = sum(sh for sh, _ in tails)
    for share, names in tails:
        items += [(n, (1 - hm) * share / tot / len(names)) for n in names]
    return Weighted(items)


# ---------------------------------------------------------------------------
# Geography: districts (postcode prefix) -> towns -> postcodes
# ---------------------------------------------------------------------------
EN_STREET_STEMS = ("Main Oak Maple Park Pine Cedar Elm Washington Lake Hill Church Walnut "
                   "Spring Ridge Lincoln Jackson Franklin Highland Sunset Meadow River Mill "
                   "Chestnut Willow Jefferson Madison Adams Forest Cherry Center Union "
                   "Railroad Spruce Hickory Valley Broad Market Water School").split()
EN_STREET_TYPES = [("Street", 30), ("Avenue", 15), ("Road", 12), ("Drive", 10), ("Lane", 8),
                   ("Court", 6), ("Place", 4), ("Boulevard", 3), ("Way", 5), ("Terrace", 2),
                   ("Circle", 3), ("Parkway", 1), ("Highway", 1)]
DE_STREET_STEMS = ("Haupt Bahnhof Schul Garten Kirch Berg Linden Wald Goethe Schiller Mozart "
                   "Bach Dorf Feld Wiesen Mühlen Rosen Birken Eichen Tannen Friedhof Markt "
                   "Post Bismarck Kant Beethoven Schloss Blumen Sonnen Am Anger Industrie "
                   "Lessing Heine Luther Ring Brunnen Burg").split()
DE_STREET_TYPES = [("straße", 55), ("weg", 20), ("allee", 5), ("platz", 5), ("ring", 5),
                   ("gasse", 5), ("Straße", 5)]
FR_STREET_NAMES = ["Victor Hugo", "de la Paix", "Jean Jaurès", "du Général de Gaulle",
                   "Pasteur", "de la République", "des Écoles", "du Moulin", "de l'Église",
                   "de la Gare", "Voltaire", "Gambetta", "Jules Ferry", "Émile Zola",
                   "du Château", "des Lilas", "de la Mairie", "du Stade", "Nationale",
                   "de Verdun", "Carnot", "de Paris", "des Tilleuls", "Saint-Martin",
                   "du 8 Mai 1945", "de la Liberté", "Louis Pasteur", "des Roses", "Foch",
                   "Clemenceau", "du Commerce", "de Bretagne", "Molière", "Racine"]
FR_STREET_TYPES = [("rue", 55), ("avenue", 12), ("boulevard", 6), ("chemin", 8),
                   ("place", 5), ("impasse", 6), ("allée", 8)]


class District:
    __slots__ = ("code", "towns", "town_w", "area", "state")

    def __init__(self, code):
        self.code, self.towns, self.town_w, self.area, self.state = code, [], None, "", ""


class Town:
    __slots__ = ("name", "postcodes", "district")

    def __init__(self, name, district):
        self.name, self.postcodes, self.district = name, [], district


def _render_faker_city(fmt, rng, P, A):
    def pick(seq):
        seq = list(seq)
        return seq[rng.randrange(len(seq))]
    out = fmt
    for key, val in (("city_prefix", lambda: pick(A.city_prefixes)),
                     ("city_suffix", lambda: pick(A.city_suffixes)),
                     ("first_name", lambda: pick(P.first_names_male)),
                     ("last_name", lambda: pick(P.last_names))):
        while "{{%s}}" % key in out:
            out = out.replace("{{%s}}" % key, val(), 1)
    return out


def build_geography(locale, rng):
    districts = []
    if locale == "en":
        zip3 = []
        for st, (lo, hi) in _A_en.states_postcode.items():
            if st in ("AS", "FM", "GU", "MH", "MP", "PW", "PR", "VI"):
                continue
            for z in range(lo // 100, hi // 100 + 1):
                zip3.append((f"{z:03d}", st))
        rng.shuffle(zip3)
        used_names = set()
        for code, st in sorted(zip3[:300]):
            d = District(code)
            d.state = st
            d.area = str(rng.randrange(201, 990))
            while d.area[1:] == "11":
                d.area = str(rng.randrange(201, 990))
            for _ in range(rng.randint(2, 6)):
                for _try in range(20):
                    name = _render_faker_city(
                        _A_en.city_formats[rng.randrange(len(_A_en.city_formats))],
                        rng, _P_en, _A_en)
                    if name not in used_names:
                        break
                used_names.add(name)
                d.towns.append(Town(name, d))
            districts.append(d)
    elif locale == "de":
        cities = sorted(set(_A_de.cities))
        rng.shuffle(cities)
        codes = rng.sample(range(10, 1000), 130)
        ci = 0
        for c in sorted(codes):
            d = District(f"{c:03d}")
            d.area = "0" + str(rng.randint(2, 9)) + "".join(
                str(rng.randrange(10)) for _ in range(rng.randint(1, 3)))
            for _ in range(rng.randint(2, 4)):
                if ci >= len(cities):
                    break
                d.towns.append(Town(cities[ci], d))
                ci += 1
            if d.towns:
                districts.append(d)
    else:  # fr
        deps = [c for c, _ in _A_fr.departments if c.isdigit() and int(c) < 96]
        picks = rng.sample([(dep, k) for dep in deps for k in range(10)], 160)
        used_names = set()
        for dep, k in sorted(picks):
            d = District(f"{dep}{k}")
            d.area = "0" + str(rng.randint(1, 5))
            for _ in range(rng.randint(2, 5)):
                for _try in range(20):
                    name = _render_faker_city(
                        _A_fr.city_formats[rng.randrange(len(_A_fr.city_formats))],
                        rng, _P_fr, _A_fr)
                    if name not in used_names:
                        break
                used_names.add(name)
                d.towns.append(Town(name, d))
            districts.append(d)
    for d in districts:
        used = set()
        for t in d.towns:
            for _ in range(rng.randint(1, 4)):
                for _try in range(50):
                    pc = d.code + f"{rng.randrange(100):02d}"
                    if pc not in used:
                        break
                used.add(pc)
                t.postcodes.append(pc)
        d.town_w = Weighted([(t, 1.0 / (i + 1)) for i, t in enumerate(d.towns)])
    rng.shuffle(districts)   # size rank independent of code order
    return Weighted([(d, 1.0 / (i + 5)) for i, d in enumerate(districts)])


# ---------------------------------------------------------------------------
# Reference tables per locale
# ---------------------------------------------------------------------------
class LocaleData:
    def __init__(self, locale, seed):
        self.locale = locale
        self.info = LOCALE_INFO[locale]
        self.family = _name_dist(locale, "family")
        self.given = {"M": _name_dist(locale, "given", "M"),
                      "F": _name_dist(locale, "given", "F")}
        self.geo = build_geography(locale, random.Random(f"geo-{locale}-{seed}"))
        jobs = {"en": _J_en, "de": _J_de, "fr": _J_fr}[locale].jobs
        jobs = sorted(dict.fromkeys(jobs), key=lambda n: (_crc(n), n))
        self.jobs = Weighted(_zipf_ranked(jobs, q=5.0))
        self.providers = Weighted(EMAIL_PROVIDERS[locale])
        if locale == "en":
            self.nicknames = _load_english_nicknames()
        elif locale == "de":
            self.nicknames = _parse_nick_block(NICKNAMES_DE)
        else:
            self.nicknames = _parse_nick_block(NICKNAMES_FR)
        self.street_types = Weighted({"en": EN_STREET_TYPES, "de": DE_STREET_TYPES,
                                      "fr": FR_STREET_TYPES}[locale])
        self.surname_stems = [n for n in ({"en": _P_en, "de": _P_de, "fr": _P_fr}[locale]
                                          .last_names)][:300]


SURNAME_VARIANTS = _surname_groups()

# ---------------------------------------------------------------------------
# Clean persons
# ---------------------------------------------------------------------------
_AGE_W = Weighted([(a, 1.0 if a < 60 else math.exp(-((a - 60) / 18.0) ** 2))
                   for a in range(18, 96)])
_REF_ORD = REF_DATE.toordinal()


def _draw_dob(rng, age=None):
    if age is None:
        age = _AGE_W.draw(rng)
    hi = REF_DATE.replace(year=REF_DATE.year - age).toordinal()
    lo = REF_DATE.replace(year=REF_DATE.year - age - 1).toordinal() + 1
    d = _dt.date.fromordinal(rng.randint(lo, hi))
    return (d.year, d.month, d.day)


def _ascii(s):
    s = s.replace("ß", "ss").replace("æ", "ae").replace("ø", "o").replace("ł", "l")
    return "".join(c for c in unicodedata.normalize("NFKD", s)
                   if not unicodedata.combining(c))


def _email_local(given, family, dob, rng):
    g = re.sub(r"[^a-z]", "", _ascii(given).lower())
    f = re.sub(r"[^a-z]", "", _ascii(family).lower())
    yy, yyyy = f"{dob[0] % 100:02d}", str(dob[0])
    r = rng.random()
    if r < 0.25:
        return f"{g}.{f}"
    if r < 0.35:
        return f"{g}{f}"
    if r < 0.45:
        return f"{g[:1]}{f}"
    if r < 0.50:
        return f"{g}_{f}"
    if r < 0.55:
        return f"{f}.{g}"
    if r < 0.70:
        return f"{g}.{f}{yy}"
    if r < 0.80:
        return f"{g}{yyyy}"
    if r < 0.90:
        return f"{g}{f}{rng.randrange(1, 1000)}"
    return f"{g[:1]}{f}{rng.randrange(10, 100)}"


class EmailBloom:
    """Fixed-size bit set so two persons rarely share an address."""

    def __init__(self, bits=27):
        self.mask = (1 << bits) - 1
        self.bits = bytearray(1 << (bits - 3))

    def _idx(self, s):
        h = hashlib.blake2b(s.encode("utf-8"), digest_size=8).digest()
        a = int.from_bytes(h[:4], "little") & self.mask
        b = int.from_bytes(h[4:], "little") & self.mask
        return a, b

    def add_if_new(self, s):
        a, b = self._idx(s)
        if (self.bits[a >> 3] >> (a & 7)) & 1 and (self.bits[b >> 3] >> (b & 7)) & 1:
            return False
        self.bits[a >> 3] |= 1 << (a & 7)
        self.bits[b >> 3] |= 1 << (b & 7)
        return True


def _phone(ld, district, rng, mobile):
    loc = ld.locale
    if loc == "en":
        area = district.area if not mobile else str(rng.randrange(201, 990))
        exch = rng.randrange(200, 1000)
        return f"{area}{exch:03d}{rng.randrange(10000):04d}"
    if loc == "de":
        if mobile:
            pre = ["151", "152", "157", "160", "162", "163", "170", "171", "172", "173",
                   "174", "175", "176", "177", "178", "179"][rng.randrange(16)]
            return pre + "".join(str(rng.randrange(10)) for _ in range(rng.choice((7, 8))))
        area = district.area[1:]
        n = 10 - len(area)
        return area + str(rng.randint(2, 9)) + "".join(str(rng.randrange(10))
                                                       for _ in range(n - 1))
    pre = ("6", "7")[rng.randrange(2)] if mobile else district.area[1:]
    return pre + "".join(str(rng.randrange(10)) for _ in range(8))


def _street(ld, rng):
    loc = ld.locale
    num = str(rng.randint(1, 250) if rng.random() < 0.8 else rng.randint(251, 4999))
    if loc == "en":
        stem = (EN_STREET_STEMS[rng.randrange(len(EN_STREET_STEMS))] if rng.random() < 0.6
                else ld.surname_stems[rng.randrange(len(ld.surname_stems))])
        return f"{num} {stem} {ld.street_types.draw(rng)}"
    if loc == "de":
        num = str(rng.randint(1, 120)) + ("" if rng.random() < 0.9 else "abc"[rng.randrange(3)])
        stem = (DE_STREET_STEMS[rng.randrange(len(DE_STREET_STEMS))] if rng.random() < 0.7
                else ld.surname_stems[rng.randrange(len(ld.surname_stems))])
        typ = ld.street_types.draw(rng)
        if stem == "Am":
            return f"Am {('Markt', 'Anger', 'Bach', 'Berg', 'Hang')[rng.randrange(5)]} {num}"
        if typ == "Straße":
            return f"{stem} Straße {num}"
        return f"{stem}{typ} {num}"
    name = FR_STREET_NAMES[rng.randrange(len(FR_STREET_NAMES))]
    num = str(rng.randint(1, 150)) + ("" if rng.random() < 0.92 else " bis")
    return f"{num} {ld.street_types.draw(rng)} {name}"


def _address(ld, rng, district=None):
    d = district or ld.geo.draw(rng)
    t = d.town_w.draw(rng)
    return {"street": _street(ld, rng), "town": t,
            "postcode": t.postcodes[rng.randrange(len(t.postcodes))]}


class PersonFactory:
    def __init__(self, locale, seed, profile):
        self.locales = ["en", "de", "fr"] if locale == "mixed" else [locale]
        self.locale_w = Weighted([(l, LOCALE_MIX[l]) for l in self.locales])
        self.data = {l: LocaleData(l, seed) for l in self.locales}
        self.household_rate = PROFILES[profile]["household_rate"]
        self.households = {l: [] for l in self.locales}   # ring buffers
        self.bloom = EmailBloom()

    def _given(self, ld, gender, rng, avoid=()):
        for _ in range(8):
            g = ld.given[gender].draw(rng)
            if g not in avoid:
                return g
        return g

    def make(self, pid, rng):
        loc = self.locale_w.draw(rng)
        ld = self.data[loc]
        gender = "F" if rng.random() < 0.51 else "M"
        hh = None
        ring = self.households[loc]
        if ring and rng.random() < self.household_rate:
            hh = ring[rng.randrange(len(ring))]
        if hh is None:
            addr = _address(ld, rng)
            family = ld.family.draw(rng)
            dob = _draw_dob(rng)
            hh = {"addr": addr, "family": family, "dob": dob, "given": [],
                  "landline": _phone(ld, addr["town"].district, rng, False)}
            if len(ring) < 256:
                ring.append(hh)
            else:
                ring[rng.randrange(256)] = hh
            share_landline = True
        else:
            addr = hh["addr"]
            rel = rng.random()
            if rel < 0.5:                      # spouse / partner
                family = hh["family"] if rng.random() < 0.8 else ld.family.draw(rng)
                age = REF_DATE.year - hh["dob"][0] + rng.randint(-8, 8)
                dob = _draw_dob(rng, min(95, max(18, age)))
            elif rel < 0.8:                    # grown-up child
                family = hh["family"] if rng.random() < 0.9 else ld.family.draw(rng)
                age = REF_DATE.year - hh["dob"][0] - rng.randint(20, 40)
                dob = _draw_dob(rng, age if age >= 18 else rng.randint(18, 30))
            else:                              # flatmate
                family = ld.family.draw(rng)
                dob = _draw_dob(rng)
            share_landline = rng.random() < 0.5
        given = self._given(ld, gender, rng, hh["given"])
        hh["given"].append(given)
        if len(hh["given"]) > 8:
            del hh["given"][0]
        district = addr["town"].district
        mobile = _phone(ld, district, rng, True)
        phone = hh["landline"] if share_landline and rng.random() < 0.5 else mobile
        alt_phone = mobile if phone != mobile else hh["landline"]
        if alt_phone == phone:
            alt_phone = _phone(ld, district, rng, True)
        for _ in range(6):
            local = _email_local(given, family, dob, rng)
            domain = ld.providers.draw(rng)
            email = f"{local}@{domain}"
            if self.bloom.add_if_new(email):
                break
        else:
            email = f"{local}{rng.randrange(1000, 100000)}@{domain}"
        alt_domain = domain
        while alt_domain == domain:
            alt_domain = ld.providers.draw(rng)
        alt_family = ld.family.draw(rng)
        while alt_family == family:
            alt_family = ld.family.draw(rng)
        job = ld.jobs.draw(rng)
        alt_job = ld.jobs.draw(rng)
        birth_town = addr["town"] if rng.random() < 0.5 else ld.geo.draw(rng).town_w.draw(rng)
        return {
            "pid": pid, "locale": loc, "ld": ld, "gender": gender, "given": given,
            "family": family, "alt_family": alt_family, "dob": dob,
            "email": email, "alt_email": f"{local}@{alt_domain}",
            "phone": phone, "alt_phone": alt_phone, "addr": addr,
            "alt_addr": _address(ld, rng), "job": job, "alt_job": alt_job,
            "birth_town": birth_town,
        }


# ---------------------------------------------------------------------------
# Corruption functions: f(value, ctx) -> new value.  Applicability predicates:
# app(value, ctx) -> bool.  ctx = (rng, person, record-state dict).
# ---------------------------------------------------------------------------
def _letters(s):
    return sum(1 for c in s if c.isalpha())



def c_phonetic(v, rng, p, st):
    low = v.lower()
    if len(low) != len(v):
        return v
    cands = []
    for pat, rep in PHONETIC_RULES:
        for m in pat.finditer(low):
            cands.append((m.start(), m.end(), m.expand(rep)))
    if not cands:
        return v
    s, e, rep = cands[rng.randrange(len(cands))]
    if s < len(v) and v[s].isupper():
        rep = rep[:1].upper() + rep[1:]
    out = v[:s] + rep + v[e:]
    return out if _letters(out) >= 2 else v


def c_keyboard(v, rng, p, st):
    nb = KEY_NEIGHBOURS[p["ld"].info["keyboard"]]
    idx = [i for i, c in enumerate(v) if c.isalpha()]
    op = rng.random()
    i = idx[rng.randrange(len(idx))]
    c = v[i]
    if op < 0.6:               # substitute (p 0.4) or insert (p 0.2) a neighbour
        n = nb.get(c.lower(), "")
        if not n:
            return v[:i] + v[i + 1:]
        k = n[rng.randrange(len(n))]
        k = k.upper() if c.isupper() else k
        if op < 0.4:
            return v[:i] + k + v[i + 1:]
        return v[:i] + k + v[i:] if rng.random() < 0.5 else v[:i + 1] + k + v[i + 1:]
    if op < 0.8:               # delete
        return v[:i] + v[i + 1:]
    j = i + 1 if i + 1 < len(v) else i - 1   # transpose with a neighbour position
    a, b = min(i, j), max(i, j)
    if v[a] == v[b]:
        return v[:i] + v[i + 1:]
    return v[:a] + v[b] + v[a] + v[b + 1:]


def c_ocr(v, rng, p, st):
    cands = []
    for a, b in OCR_PAIRS:
        start = v.find(a)
        while start >= 0:
            cands.append((start, a, b))
            start = v.find(a, start + 1)
    if not cands:
        return v
    s, a, b = cands[rng.randrange(len(cands))]
    return v[:s] + b + v[s + len(a):]


def a_ocr(v, p, st):
    return len(v) >= 2


def c_case(v, rng, p, st):
    r = rng.random()
    if r < 0.5 and v.upper() != v:
        return v.upper()
    if v.lower() != v:
        return v.lower()
    return v.title()


def a_case(v, p, st):
    return _letters(v) >= 2


def c_diacritics(v, rng, p, st):
    if p["locale"] == "de" and rng.random() < 0.6:
        t = (v.replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("Ä", "Ae")
             .replace("Ö", "Oe").replace("Ü", "Ue").replace("ß", "ss"))
        return _ascii(t)
    return _ascii(v)


def a_diacritics(v, p, st):
    return any(ord(c) > 127 for c in v)


def a_letters3(v, p, st):
    return _letters(v) >= 3


def a_any(v, p, st):
    return bool(v)


def c_nickname(v, rng, p, st):
    nicks = p["ld"].nicknames.get(v.lower())
    w = [3 if n[:1].lower() == v[:1].lower() else 1 for n in nicks]
    r = rng.random() * sum(w)
    for n, wi in zip(nicks, w):
        r -= wi
        if r < 0:
            return n
    return nicks[-1]


def a_nickname(v, p, st):
    return v.lower() in p["ld"].nicknames


def c_initial(v, rng, p, st):
    parts = [x for x in re.split(r"([- ])", v) if x]
    letters = [x[0] for x in parts if x not in "- "]
    r = rng.random()
    if len(letters) > 1:
        return (".-" if "-" in v else ". ").join(letters) + "." if r < 0.7 else "".join(letters)
    return letters[0] + "." if r < 0.7 else letters[0]


def c_married(v, rng, p, st):
    return p["alt_family"]


def c_hyphen(v, rng, p, st):
    return f"{v}-{p['alt_family']}" if rng.random() < 0.6 else f"{p['alt_family']}-{v}"


def a_female(v, p, st):
    return bool(v) and p["gender"] == "F"


def c_surname_variant(v, rng, p, st):
    opts = SURNAME_VARIANTS[v]
    return opts[rng.randrange(len(opts))]


def a_surname_variant(v, p, st):
    return v in SURNAME_VARIANTS


# dates: value = [y, m, d, fmt]
def _valid(y, m, d):
    try:
        _dt.date(y, m, d)
        return True
    except ValueError:
        return False


def _transpose_cands(v):
    y, m, d, f = v
    out = []
    ys = str(y)
    sw = int(ys[:2] + ys[3] + ys[2])
    if sw != y and 1900 <= sw <= REF_DATE.year:
        out.append((sw, m, d))
    ds = f"{d:02d}"
    nd = int(ds[::-1])
    if nd != d and 1 <= nd and _valid(y, m, nd):
        out.append((y, m, nd))
    ms = f"{m:02d}"
    nm = int(ms[::-1])
    if nm != m and 1 <= nm <= 12 and _valid(y, nm, d):
        out.append((y, nm, d))
    return out


def c_dm_swap(v, rng, p, st):
    return [v[0], v[2], v[1], v[3]]


def a_dm_swap(v, p, st):
    return v[3] != "year" and v[2] <= 12 and v[2] != v[1]


def c_dtrans(v, rng, p, st):
    c = _transpose_cands(v)
    y, m, d = c[rng.randrange(len(c))]
    return [y, m, d, v[3]]


def a_dtrans(v, p, st):
    return v[3] != "year" and bool(_transpose_cands(v))


def c_day1(v, rng, p, st):
    # An earlier corruption (day and month transposed) can leave a date
    # that is no calendar day: the day moves from the month's last one.
    if not _valid(v[0], v[1], v[2]):
        v = [v[0], v[1], _cal.monthrange(v[0], v[1])[1] if 1 <= v[1] <= 12 else 28, v[3]]
        if not _valid(v[0], v[1], v[2]):
            return v
    o = _dt.date(v[0], v[1], v[2]).toordinal() + (1 if rng.random() < 0.5 else -1)
    d = _dt.date.fromordinal(o)
    return [d.year, d.month, d.day, v[3]]


def c_year1(v, rng, p, st):
    y = v[0] + (1 if rng.random() < 0.5 else -1)
    d = v[2] if _valid(y, v[1], v[2]) else 28
    return [y, v[1], d, v[3]]


def a_date_full(v, p, st):
    return v[3] != "year"


def c_date_format(v, rng, p, st):
    opts = [f for f in DATE_FORMATS if f != v[3]]
    return [v[0], v[1], v[2], opts[rng.randrange(len(opts))]]


def c_year_only(v, rng, p, st):
    return [v[0], v[1], v[2], "year"]


def render_date(v):
    y, m, d, f = v
    if f == "iso":
        return f"{y:04d}-{m:02d}-{d:02d}"
    if f == "dmy_slash":
        return f"{d:02d}/{m:02d}/{y:04d}"
    if f == "mdy_slash":
        return f"{m:02d}/{d:02d}/{y:04d}"
    if f == "ymd_compact":
        return f"{y:04d}{m:02d}{d:02d}"
    if f == "dmy_dot":
        return f"{d:02d}.{m:02d}.{y:04d}"
    if f == "dmy_dash":
        return f"{d:02d}-{m:02d}-{y:04d}"
    return str(y)


# e-mail
def c_email_case(v, rng, p, st):
    local, _, dom = v.partition("@")
    r = rng.random()
    if r < 0.4:
        return v.upper() if v.upper() != v else v.capitalize()
    if r < 0.8:
        parts = local.split(".")
        return ".".join(x.capitalize() for x in parts) + "@" + dom.capitalize()
    return local + "@" + dom.upper()


def c_other_provider(v, rng, p, st):
    return p["alt_email"]


def c_gmail_dots(v, rng, p, st):
    local, _, dom = v.partition("@")
    base = local.split("+")[0]
    rest = local[len(base):]
    if "." in base and rng.random() < 0.5:
        new = base.replace(".", "")
    else:
        plain = base.replace(".", "")
        if len(plain) < 2:
            return v
        cuts = sorted(rng.sample(range(1, len(plain)), min(len(plain) - 1,
                                                            1 + (rng.random() < 0.3))))
        new, prev = "", 0
        for c in cuts:
            new += plain[prev:c] + "."
            prev = c
        new += plain[prev:]
    if rng.random() < 0.2:
        dom = "googlemail.com" if dom == "gmail.com" else "gmail.com"
    return new + rest + "@" + dom


def a_gmail(v, p, st):
    d = v.rpartition("@")[2].lower()
    return d in ("gmail.com", "googlemail.com")


def c_plus_tag(v, rng, p, st):
    local, _, dom = v.partition("@")
    return f"{local}+{PLUS_TAGS[rng.randrange(len(PLUS_TAGS))]}@{dom}"


def a_plus(v, p, st):
    return "@" in v and "+" not in v


def c_domain_typo(v, rng, p, st):
    local, _, dom = v.partition("@")
    opts = DOMAIN_TYPOS.get(dom.lower())
    if opts:
        return f"{local}@{opts[rng.randrange(len(opts))]}"
    i = rng.randrange(len(dom) - 1)
    return f"{local}@{dom[:i]}{dom[i + 1]}{dom[i]}{dom[i + 2:]}" if dom[i] != dom[i + 1] \
        else f"{local}@{dom[:i]}{dom[i + 1:]}"


def a_email(v, p, st):
    return "@" in v


def c_local_typo(v, rng, p, st):
    local, _, dom = v.partition("@")
    return c_keyboard(local, rng, p, st) + "@" + dom


def a_local3(v, p, st):
    return _letters(v.partition("@")[0]) >= 3


# phone: value = [digits, fmt]
def c_other_number(v, rng, p, st):
    return [p["alt_phone"], v[1]]


def c_phone_digit(v, rng, p, st):
    d = v[0]
    i = rng.randrange(3, len(d))          # keep the area code mostly intact
    if rng.random() < 0.5 and i + 1 < len(d) and d[i] != d[i + 1]:
        return [d[:i] + d[i + 1] + d[i] + d[i + 2:], v[1]]
    n = KEYPAD[d[i]]
    return [d[:i] + n[rng.randrange(len(n))] + d[i + 1:], v[1]]


def c_phone_format(v, rng, p, st):
    opts = [f for f in PHONE_FORMATS[p["locale"]] if f != v[1]]
    return [v[0], opts[rng.randrange(len(opts))]]


def _pairs(s):
    return " ".join(s[i:i + 2] for i in range(0, len(s), 2))


def render_phone(v, p):
    d, f = v
    cc = p["ld"].info["cc"]
    if f == "nanp_paren":
        return f"({d[:3]}) {d[3:6]}-{d[6:]}"
    if f == "nanp_dash":
        return f"{d[:3]}-{d[3:6]}-{d[6:]}"
    if f == "nanp_dot":
        return f"{d[:3]}.{d[3:6]}.{d[6:]}"
    if f == "nanp_plain":
        return d
    if f == "nanp_one":
        return f"1-{d[:3]}-{d[3:6]}-{d[6:]}"
    loc = p["locale"]
    if loc == "de":
        a = 3 if d[0] == "1" else len(p["addr"]["town"].district.area) - 1
        area, sub = d[:a], d[a:]
        if f == "de_space":
            return f"0{area} {sub}"
        if f == "de_slash":
            return f"0{area}/{sub}"
        if f == "de_dash":
            return f"0{area}-{sub}"
        if f == "de_plain":
            return f"0{area}{sub}"
        if f == "intl_space":
            return f"+49 {area} {sub}"
        if f == "intl_paren0":
            return f"+49 (0){area} {sub}"
        if f == "intl_00":
            return f"0049{area}{sub}"
        return f"+49{area}{sub}"
    if loc == "fr":
        if f == "fr_pairs":
            return _pairs("0" + d)
        if f == "fr_plain":
            return "0" + d
        if f == "fr_dots":
            return _pairs("0" + d).replace(" ", ".")
        if f == "intl_pairs":
            return f"+33 {d[0]} {_pairs(d[1:])}"
        if f == "intl_00_pairs":
            return f"0033 {d[0]} {_pairs(d[1:])}"
        return f"+33{d}"
    if f == "intl_space":
        return f"+{cc} {d[:3]} {d[3:6]} {d[6:]}"
    return f"+{cc}{d}"


# street / city / postcode
def _abbrev_cands(v, p):
    out = []
    for full, shorts in STREET_ABBREV[p["locale"]]:
        if re.search(r"(?<![A-Za-zäöüß])" + re.escape(full) + r"(?![A-Za-zäöüß])", v) or \
                (p["locale"] == "de" and full[0].islower() and full in v):
            for s in shorts:
                out.append((full, s))
        for s in shorts:
            if s.endswith(".") and s in v.split():
                out.append((s, full))
    return out


def c_abbrev(v, rng, p, st):
    c = _abbrev_cands(v, p)
    a, b = c[rng.randrange(len(c))]
    out = v.replace(a, b, 1)
    if p["locale"] == "fr" and rng.random() < 0.3:
        out = re.sub(r"^(\d+( bis)?) ", r"\1, ", out)
    return out


def a_abbrev(v, p, st):
    return bool(v) and bool(_abbrev_cands(v, p))


def c_house_number(v, rng, p, st):
    m = list(re.finditer(r"\d+", v))
    mm = m[rng.randrange(len(m))]
    num = mm.group()
    r = rng.random()
    if r < 0.4 and len(num) > 1 and num[0] != num[1]:
        new = num[1] + num[0] + num[2:]
    elif r < 0.7:
        new = str(int(num) + (1 if rng.random() < 0.5 else -1) * rng.choice((1, 2)))
        if new in ("0", "-1") or new.startswith("-"):
            new = str(int(num) + 2)
    else:
        i = rng.randrange(len(num))
        new = num[:i] + KEYPAD[num[i]][0] + num[i + 1:]
    return v[:mm.start()] + new + v[mm.end():]


def a_digits(v, p, st):
    return any(c.isdigit() for c in v)


def c_neighbour_town(v, rng, p, st):
    town = st["town_obj"]
    others = [t for t in town.district.towns if t is not town]
    t = others[rng.randrange(len(others))]
    return t.name


def a_neighbour(v, p, st):
    t = st.get("town_obj")
    return bool(v) and t is not None and len(t.district.towns) > 1 and v == t.name


def _city_abbrev_cands(v):
    return [(a, b) for a, bs in CITY_ABBREV if a in v for b in bs]


def c_city_abbrev(v, rng, p, st):
    c = _city_abbrev_cands(v)
    a, b = c[rng.randrange(len(c))]
    out = v.replace(a, b, 1)
    return out.replace(")", "") if a == " (" else out


def a_city_abbrev(v, p, st):
    return bool(_city_abbrev_cands(v))


def c_within_district(v, rng, p, st):
    town = st["town_obj"]
    codes = [pc for t in town.district.towns for pc in t.postcodes if pc != v]
    return codes[rng.randrange(len(codes))]


def a_within_district(v, p, st):
    t = st.get("town_obj")
    return t is not None and v.isdigit() and \
        sum(len(x.postcodes) for x in t.district.towns) > 1


def c_pc_digit(v, rng, p, st):
    i = rng.randrange(len(v))
    if rng.random() < 0.5 and i + 1 < len(v) and v[i] != v[i + 1]:
        return v[:i] + v[i + 1] + v[i] + v[i + 2:]
    n = KEYPAD[v[i]]
    return v[:i] + n[rng.randrange(len(n))] + v[i + 1:]


def a_pc_digits(v, p, st):
    return v.isdigit()


def c_pc_format(v, rng, p, st):
    loc = p["locale"]
    opts = []
    if v.startswith("0"):
        opts += [v.lstrip("0")] * 2            # spreadsheet ate the leading zero
    if loc == "en":
        opts += [f"{v}-{rng.randrange(10000):04d}", f"{v[:3]} {v[3:]}", f" {v}", f"{v} "]
    elif loc == "de":
        opts += [f"D-{v}", f"d-{v}", f"D {v}", f"DE-{v}", f"{v[:2]} {v[2:]}", f"de{v}"]
    else:
        opts += [f"{v[:2]} {v[2:]}", f"F-{v}", f"f-{v}", f"FR-{v}", f"F {v}", f"fr{v}"]
    return opts[rng.randrange(len(opts))]


def c_country(v, rng, p, st):
    opts = p["ld"].info["countries"]
    return opts[rng.randrange(len(opts))]


def c_gender_wrong(v, rng, p, st):
    return "M" if v == "F" else "F"


def a_gender_canon(v, p, st):
    return v in ("F", "M")


def c_gender_code(v, rng, p, st):
    opts = p["ld"].info["gender_codes"][v]
    return opts[rng.randrange(len(opts))]


def c_job_change(v, rng, p, st):
    return p["alt_job"] if p["alt_job"] != v else p["ld"].jobs.draw(rng)


CORRUPTIONS = {
    # name: (applies, apply)
    "nickname": (a_nickname, c_nickname),
    "initial": (a_letters3, c_initial),
    "phonetic": (a_letters3, c_phonetic),
    "keyboard": (a_letters3, c_keyboard),
    "ocr": (a_ocr, c_ocr),
    "diacritics": (a_diacritics, c_diacritics),
    "case": (a_case, c_case),
    "married_name": (a_female, c_married),
    "hyphenated": (a_female, c_hyphen),
    "surname_variant": (a_surname_variant, c_surname_variant),
    "day_month_swap": (a_dm_swap, c_dm_swap),
    "digit_transpose": (a_dtrans, c_dtrans),
    "off_by_one_day": (a_date_full, c_day1),
    "off_by_one_year": (a_date_full, c_year1),
    "date_format": (a_date_full, c_date_format),
    "year_only": (a_date_full, c_year_only),
    "other_provider": (a_email, c_other_provider),
    "gmail_dots": (a_gmail, c_gmail_dots),
    "plus_tag": (a_plus, c_plus_tag),
    "domain_typo": (a_email, c_domain_typo),
    "local_typo": (a_local3, c_local_typo),
    "other_number": (lambda v, p, st: True, c_other_number),
    "digit_typo": (lambda v, p, st: True, c_phone_digit),
    "phone_format": (lambda v, p, st: True, c_phone_format),
    "abbreviation": (a_abbrev, c_abbrev),
    "house_number": (a_digits, c_house_number),
    "neighbour_town": (a_neighbour, c_neighbour_town),
    "city_abbrev": (a_city_abbrev, c_city_abbrev),
    "within_district": (a_within_district, c_within_district),
    "postcode_format": (a_pc_digits, c_pc_format),
    "country_format": (a_any, c_country),
    "gender_wrong": (a_gender_canon, c_gender_wrong),
    "gender_code": (a_gender_canon, c_gender_code),
    "job_change": (a_any, c_job_change),
}
# field-specific overrides of a generic name
FIELD_OVERRIDES = {("email", "case"): (a_email, c_email_case),
                   ("postcode", "digit_typo"): (a_pc_digits, c_pc_digit)}


# ---------------------------------------------------------------------------
# Record generation
# ---------------------------------------------------------------------------
class Corrupter:
    def __init__(self, profile):
        self.profile = PROFILES[profile]
        self.rates = self.profile["rates"]
        self.eligible = Counter()
        self.fired = Counter()
        # precompiled plan per field: list of (key, rate, applies, apply, post)
        self.plan = {}
        for field, rates in self.rates.items():
            pre, post, miss = [], [], None
            for name, rate in rates.items():
                key = f"{field}.{name}"
                if name == "missing":
                    miss = (key, rate)
                    continue
                if field in ("name", "address"):
                    continue
                app, fn = FIELD_OVERRIDES.get((field, name)) or CORRUPTIONS[name]
                (post if name in POST_RENDER else pre).append((key, rate, app, fn))
            self.plan[field] = (miss, pre, post)

    def _draw(self, key, rate, rng):
        self.eligible[key] += 1
        return rng.random() < rate

    def _field(self, field, value, rng, p, st, render=None):
        miss, pre, post = self.plan.get(field, (None, (), ()))
        if miss and self._draw(miss[0], miss[1], rng):
            self.fired[miss[0]] += 1
            return ""
        for key, rate, app, fn in pre:
            if app(value, p, st):
                self.eligible[key] += 1
                if rng.random() < rate:
                    new = fn(value, rng, p, st)
                    if new != value:
                        self.fired[key] += 1
                        value = new
        s = render(value) if render else value
        for key, rate, app, fn in post:
            if app(s, p, st):
                self.eligible[key] += 1
                if rng.random() < rate:
                    new = fn(s, rng, p, st)
                    if new != s:
                        self.fired[key] += 1
                        s = new
        return s

    def _rec(self, field, name, rng):
        rate = self.rates.get(field, {}).get(name)
        if not rate:
            return False
        key = f"{field}.{name}"
        self.eligible[key] += 1
        if rng.random() < rate:
            self.fired[key] += 1
            return True
        return False

    def record(self, p, rng, date_fmt):
        fields = self.profile["fields"].values()
        st = {}
        addr = p["alt_addr"] if self._rec("address", "moved", rng) else p["addr"]
        out = {}
        need_name = any(f in ("given", "family", "name") for f in fields)
        if need_name:
            name_missing = "missing" in self.rates.get("name", {}) and \
                self._rec("name", "missing", rng)
            given = self._field("given", p["given"], rng, p, st)
            family = self._field("family", p["family"], rng, p, st)
            swap = self._rec("name", "swap", rng)
            last_first = self._rec("name", "last_first", rng)
            first_only = self._rec("name", "first_only", rng)
            if "name" in fields:   # one cell
                if name_missing:
                    out["name"] = ""
                elif first_only and given:
                    out["name"] = given
                elif last_first and given and family:
                    out["name"] = f"{family}, {given}"
                elif swap:
                    out["name"] = f"{family} {given}".strip()
                else:
                    out["name"] = f"{given} {family}".strip()
            else:
                if swap:
                    given, family = family, given
                if last_first and (given or family):
                    # both names end up in the last-name cell
                    given, family = "", f"{family}, {given}".strip(", ")
                out["given"], out["family"] = given, family
        for f in fields:
            if f in ("given", "family", "name"):
                continue
            if f == "dob":
                dob = list(p["dob"]) + [date_fmt]
                out[f] = self._field("dob", dob, rng, p, st, render_date)
            elif f == "email":
                out[f] = self._field("email", p["email"], rng, p, st)
            elif f == "phone":
                out[f] = self._field("phone", [p["phone"], PHONE_DEFAULT[p["locale"]]],
                                     rng, p, st, lambda v: render_phone(v, p))
            elif f == "street":
                out[f] = self._field("street", addr["street"], rng, p, st)
            elif f == "city":
                st["town_obj"] = addr["town"]
                out[f] = self._field("city", addr["town"].name, rng, p, st)
            elif f == "postcode":
                st["town_obj"] = addr["town"]
                out[f] = self._field("postcode", addr["postcode"], rng, p, st)
            elif f == "birthplace":
                st["town_obj"] = p["birth_town"]
                out[f] = self._field("birthplace", p["birth_town"].name, rng, p, st)
            elif f == "country":
                out[f] = self._field("country", p["ld"].info["country"], rng, p, st)
            elif f == "gender":
                out[f] = self._field("gender", p["gender"], rng, p, st)
            elif f == "occupation":
                out[f] = self._field("occupation", p["job"], rng, p, st)
            elif f == "signup":
                o = rng.randint(_dt.date(2010, 1, 1).toordinal(), _REF_ORD)
                out[f] = _dt.date.fromordinal(o).isoformat()
        return [out[self.profile["fields"][c]] for c in self.profile["columns"][1:]]


def records_per_person(dist, lo, hi, s):
    if dist == "uniform":
        return Weighted([(k, 1.0) for k in range(lo, hi + 1)])
    return Weighted([(k, k ** -s) for k in range(lo, hi + 1)])


def generate(people=None, seed=1, out="table.csv", truth="truth.csv", fmt="csv",
             profile="crm", locale="en", min_records=1, max_records=20, dist="zipf",
             zipf_s=2.0, records=None, stats=None, verbose=False):
    """Write the table and the truth file; return the corruption counters."""
    if (people is None) == (records is None):
        raise ValueError("give exactly one of people or records")
    if not 1 <= min_records <= max_records:
        raise ValueError("need 1 <= min_records <= max_records")
    t0 = time.time()
    prof = PROFILES[profile]
    rng = random.Random(f"persons-{seed}")
    shuffle_rng = random.Random(f"shuffle-{seed}")
    factory = PersonFactory(locale, seed, profile)
    corr = Corrupter(profile)
    kdist = records_per_person(dist, min_records, max_records, zipf_s)
    mean_k = sum(k * (kdist.cum[i] - (kdist.cum[i - 1] if i else 0))
                 for i, k in enumerate(kdist.values)) / kdist.total
    expected = records if records is not None else int(people * mean_k)
    nb = max(1, math.ceil(expected / BUCKET_RECORDS))
    out_dir = os.path.dirname(os.path.abspath(out))
    n_people = n_records = 0
    with tempfile.TemporaryDirectory(prefix=".corrupt-", dir=out_dir) as tmp:
        bfiles = [open(os.path.join(tmp, f"b{i}.csv"), "w", newline="", encoding="utf-8")
                  for i in range(nb)]
        bw = [csv.writer(f, lineterminator="\n") for f in bfiles]
        while True:
            if people is not None and n_people >= people:
                break
            if records is not None and n_records >= records:
                break
            pid = f"P{n_people + 1:07d}"
            person = factory.make(pid, rng)
            k = kdist.draw(rng)
            if records is not None:
                k = min(k, records - n_records)
            for _ in range(k):
                dfmt = prof["date_format"]
                if dfmt == "local":
                    dfmt = person["ld"].info["date_local"]
                row = corr.record(person, rng, dfmt)
                bw[shuffle_rng.randrange(nb) if nb > 1 else 0].writerow([pid] + row)
            n_people += 1
            n_records += k
        for f in bfiles:
            f.close()
        header = prof["columns"]
        with open(out, "w", newline="", encoding="utf-8") as fo, \
                open(truth, "w", newline="", encoding="utf-8") as ft:
            tw = csv.writer(ft, lineterminator="\n")
            tw.writerow(["record_id", "person_id"])
            ow = csv.writer(fo, lineterminator="\n") if fmt == "csv" else None
            if ow:
                ow.writerow(header)
            rid = 0
            width = max(7, len(str(n_records)))
            for i in range(nb):
                with open(os.path.join(tmp, f"b{i}.csv"), newline="", encoding="utf-8") as fb:
                    rows = list(csv.reader(fb))
                shuffle_rng.shuffle(rows)
                for row in rows:
                    rid += 1
                    r = f"R{rid:0{width}d}"
                    tw.writerow([r, row[0]])
                    vals = [r] + row[1:]
                    if ow:
                        ow.writerow(vals)
                    else:
                        fo.write(json.dumps({h: (v if v != "" else None)
                                             for h, v in zip(header, vals)},
                                            ensure_ascii=False) + "\n")
    result = {"people": n_people, "records": n_records, "seconds": round(time.time() - t0, 2),
              "rates": {k: {"configured": corr.rates[k.split(".")[0]][k.split(".")[1]],
                            "eligible": corr.eligible[k], "fired": corr.fired[k],
                            "observed": round(corr.fired[k] / corr.eligible[k], 4)
                            if corr.eligible[k] else None}
                        for k in sorted(corr.eligible)}}
    if stats:
        with open(stats, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1, sort_keys=True)
    if verbose:
        print(f"{n_people} people, {n_records} records in {result['seconds']} s",
              file=sys.stderr)
        for k, v in result["rates"].items():
            print(f"  {k:32s} configured {v['configured']:.3f} observed "
                  f"{v['observed'] if v['observed'] is not None else '-'} "
                  f"(eligible {v['eligible']})", file=sys.stderr)
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--people", type=int, help="number of distinct persons")
    g.add_argument("--records", type=int, help="stop at this many records instead")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--min-records", type=int, default=1)
    ap.add_argument("--max-records", type=int, default=20)
    ap.add_argument("--dist", choices=["zipf", "uniform"], default="zipf")
    ap.add_argument("--zipf-s", type=float, default=2.0,
                    help="exponent of P(k) ~ k^-s for --dist zipf (default 2.0)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--format", choices=["csv", "ndjson"], default="csv")
    ap.add_argument("--profile", choices=sorted(PROFILES), default="crm")
    ap.add_argument("--locale", choices=["en", "de", "fr", "mixed"], default="en")
    ap.add_argument("--stats", help="write configured vs observed corruption rates (JSON)")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv)
    generate(people=a.people, records=a.records, seed=a.seed, out=a.out, truth=a.truth,
             fmt=a.format, profile=a.profile, locale=a.locale, min_records=a.min_records,
             max_records=a.max_records, dist=a.dist, zipf_s=a.zipf_s, stats=a.stats,
             verbose=a.verbose)


if __name__ == "__main__":
    main()
