#!/usr/bin/env python3
"""Writes N international full names, one per line (UTF-8), seeded.

About 64% of the rows are distinct (640,000 of 1,000,000 by default): every
distinct name appears once, the rest are repeats drawn with a skew (common
names are common), and the rows are shuffled. Names mix many locales and
scripts; CJK and Hungarian/Vietnamese names are written family name first.

Usage: gen_names.py [--rows 1000000] [--distinct 640000] [--seed 42] OUT
"""
import argparse
import random

LATIN = {
    "de": (["Anna", "Lena", "Jürgen", "Jörg", "Björn", "Uwe", "Käthe", "Günther", "Lukas", "Sophie",
            "Maximilian", "Ölke", "Ute", "Heinz", "Frauke", "Matthias", "Claudia", "Sören", "Marie", "Paul"],
           ["Müller", "Schmidt", "Schneider", "Fischer", "Weiß", "Meyer", "Wagner", "Becker", "Schulz",
            "Hoffmann", "Schäfer", "Koch", "Bauer", "Richter", "Klein", "Wolf", "Schröder", "Neumann",
            "Schwarz", "Zimmermann", "Krüger", "Hofmann", "Hartmann", "Lange", "Köhler", "Mueller", "Muller"]),
    "sv": (["Åsa", "Björn", "Märta", "Örjan", "Sven", "Ingrid", "Lars", "Karin", "Göran", "Elin"],
           ["Andersson", "Johansson", "Karlsson", "Nilsson", "Eriksson", "Öberg", "Åberg", "Ängström",
            "Lindqvist", "Sjögren", "Ström", "Holmgren"]),
    "fr": (["Amélie", "Éloïse", "François", "Hélène", "Jérôme", "Léa", "Noël", "Chloé", "Gaëlle", "René",
            "Zoé", "Benoît", "Cécile", "Anaïs"],
           ["Martin", "Bernard", "Dubois", "Lefèvre", "Lefebvre", "Girard", "Bonnet", "Dupont", "Lambert",
            "Fontaine", "Rousseau", "Vincent", "Muller", "Legrand", "Garnier", "de la Fontaine", "Côté"]),
    "es": (["José", "María", "Ángel", "Sofía", "Iñaki", "Jesús", "Lucía", "Martín", "Nuria", "Raúl",
            "Álvaro", "Begoña"],
           ["García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez",
            "Gómez", "Muñoz", "Núñez", "Ibáñez", "Peña", "Castaño"]),
    "pl": (["Łukasz", "Małgorzata", "Paweł", "Zofia", "Michał", "Agnieszka", "Wojciech", "Żaneta",
            "Jędrzej", "Bożena"],
           ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kowalczyk", "Kamiński", "Lewandowski", "Zieliński",
            "Szymański", "Woźniak", "Dąbrowski", "Kozłowski", "Jankowski", "Łuczak"]),
    "cs": (["Jiří", "Tomáš", "Kateřina", "Lucie", "Petr", "Jana", "Zdeněk", "Věra"],
           ["Novák", "Svoboda", "Novotný", "Dvořák", "Černý", "Procházka", "Kučera", "Veselý", "Horák",
            "Němec", "Růžička", "Šťastný"]),
    "tr": (["Ayşe", "Mehmet", "Fatma", "Mustafa", "Emine", "İbrahim", "Hüseyin", "Zeynep", "Çağla", "Ömer"],
           ["Yılmaz", "Kaya", "Demir", "Şahin", "Çelik", "Yıldız", "Yıldırım", "Öztürk", "Aydın", "Özdemir"]),
    "en": (["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William",
            "Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah"],
           ["Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson",
            "Taylor", "Moore", "Jackson", "O'Brien", "McDonald", "MacLeod", "Van der Berg", "D'Angelo"]),
    "pt": (["João", "Conceição", "Gonçalo", "Inês", "Sebastião", "Leonor"],
           ["Silva", "Santos", "Ferreira", "Pereira", "Gonçalves", "Magalhães", "Simões", "Guimarães"]),
    "da": (["Søren", "Mette", "Jørgen", "Ærøe", "Bjørn", "Kirsten"],
           ["Jensen", "Nielsen", "Hansen", "Pedersen", "Sørensen", "Møller", "Østergaard", "Kjær"]),
    "lt": (["Jonas", "Ieva", "Žygimantas", "Rūta", "Vytautas", "Aistė"],
           ["Kazlauskas", "Jankauskas", "Petrauskas", "Žukauskas", "Butkus", "Paulauskas", "Yla"]),
}
FAMILY_FIRST_LATIN = {
    "hu": (["László", "Zsófia", "György", "Erzsébet", "Attila", "Katalin", "Gábor", "Éva"],
           ["Nagy", "Kovács", "Tóth", "Szabó", "Horváth", "Varga", "Kiss", "Molnár", "Németh", "Farkas"]),
    "vi": (["Anh", "Bảo", "Dũng", "Hương", "Lan", "Minh", "Phương", "Thảo", "Tuấn", "Hải"],
           ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Huỳnh", "Phan", "Vũ", "Võ", "Đặng", "Bùi", "Đỗ"]),
}
OTHER = {
    "ru": (["Александр", "Сергей", "Елена", "Ольга", "Дмитрий", "Наталья", "Андрей", "Юлия", "Фёдор",
            "Ирина", "Михаил", "Татьяна"],
           ["Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов", "Михайлов",
            "Новиков", "Фёдоров", "Морозов", "Волков", "Ёлкин"]),
    "uk": (["Олександр", "Їжак", "Ганна", "Богдан", "Євген"],
           ["Шевченко", "Коваленко", "Бондаренко", "Ткаченко", "Кравченко", "Ґудзь"]),
    "el": (["Γιώργος", "Μαρία", "Νίκος", "Ελένη", "Δημήτρης", "Αικατερίνη", "Κώστας", "Σοφία"],
           ["Παπαδόπουλος", "Παπαδοπούλου", "Βλάχος", "Αγγελόπουλος", "Νικολάου", "Γεωργίου", "Οικονόμου"]),
    "ar": (["محمد", "أحمد", "فاطمة", "علي", "مريم", "يوسف", "خالد", "عائشة"],
           ["العلي", "الحسن", "المصري", "الخطيب", "الشامي", "حداد", "منصور"]),
    "he": (["דוד", "שרה", "יוסף", "רחל", "משה", "נועה"],
           ["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "אברהם"]),
    "hi": (["अमित", "प्रिया", "राहुल", "सुनीता", "विजय", "अंजलि"],
           ["शर्मा", "वर्मा", "गुप्ता", "सिंह", "कुमार", "पटेल"]),
    "th": (["สมชาย", "สมศรี", "ประเสริฐ", "วิไล", "สุดา"],
           ["สุขสวัสดิ์", "ศรีสุข", "วงศ์ใหญ่", "แสงทอง", "ทองดี"]),
}
CJK = {  # family name first, no space (ja/zh) or with a space (ko)
    "ja": (["太郎", "花子", "翔", "さくら", "ゆい", "健太", "美咲", "ハルト", "陽菜", "大輔", "愛", "蓮"],
           ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田",
            "さとう", "たなか", "ヤマダ"], ""),
    "zh": (["伟", "芳", "娜", "秀英", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟"],
           ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "欧阳"], ""),
    "ko": (["민준", "서연", "도윤", "서윤", "시우", "지우", "하준", "하은", "지호", "수아"],
           ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"], " "),
}
INITIALS = "ABCDEFGHIJKLMNOPRSTUVWZÅÄÖÉ"
SUFFIXES = ["Jr.", "Sr.", "II", "III", "PhD"]
LOCALE_WEIGHTS = [("latin", 55), ("family_first_latin", 8), ("other", 17), ("cjk", 20)]


def make_name(rng):
    kind = rng.choices([k for k, _ in LOCALE_WEIGHTS], [w for _, w in LOCALE_WEIGHTS])[0]
    if kind == "latin" or kind == "other":
        table = LATIN if kind == "latin" else OTHER
        given, family = table[rng.choice(sorted(table))]
        parts = [rng.choice(given)]
        if rng.random() < 0.35:
            parts.append(rng.choice(given))
        if kind == "latin" and rng.random() < 0.3:
            parts.append(rng.choice(INITIALS) + ".")
        fam = rng.choice(family)
        if rng.random() < 0.2:
            fam += "-" + rng.choice(family)
        parts.append(fam)
        if kind == "latin" and rng.random() < 0.03:
            parts.append(rng.choice(SUFFIXES))
        name = " ".join(parts)
    elif kind == "family_first_latin":
        given, family = FAMILY_FIRST_LATIN[rng.choice(sorted(FAMILY_FIRST_LATIN))]
        parts = [rng.choice(family)]
        if rng.random() < 0.5:
            parts.append(rng.choice(given))
        parts.append(rng.choice(given))
        name = " ".join(parts)
    else:
        given, family, sep = CJK[rng.choice(sorted(CJK))]
        g = rng.choice(given)
        if rng.random() < 0.4:
            g += rng.choice(given)
        name = rng.choice(family) + sep + g
    # A little case noise, as in real address books.
    r = rng.random()
    if r < 0.02:
        name = name.upper()
    elif r < 0.04:
        name = name.lower()
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--distinct", type=int, default=640_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("out")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    distinct = []
    seen = set()
    attempts = 0
    while len(distinct) < args.distinct:
        attempts += 1
        if attempts > args.distinct * 50:
            raise SystemExit("name space too small for the requested distinct count")
        n = make_name(rng)
        if n not in seen:
            seen.add(n)
            distinct.append(n)
    rows = list(distinct)
    # Repeats: skewed towards the first names generated (a few very common names).
    k = len(distinct)
    for _ in range(args.rows - len(rows)):
        rows.append(distinct[min(k - 1, int(k * rng.random() ** 3))])
    rng.shuffle(rows)
    with open(args.out, "w", encoding="utf-8") as f:
        for n in rows:
            f.write(n)
            f.write("\n")
    print(f"wrote {len(rows)} rows, {len(distinct)} distinct, to {args.out}")


if __name__ == "__main__":
    main()
