#!/usr/bin/env python3
"""Writes vCard 2.1/3.0 files in legacy charsets without any CHARSET parameter,
the way old phone and Outlook exports do, with the original Unicode names beside
them (the oracle for measure.sh).

    python3 gen_legacy.py OUTDIR [--cards N] [--seed S] [--samples K]

For every charset below it writes OUTDIR/<charset>-<N>.vcf (N cards, default
3000) and K files (default 10, different seeds) of each small size:
OUTDIR/<charset>-<n>-s<k>.vcf for n in (1, 5, 20, 100); beside each, an
.expected.ndjson: one JSON line per card with fullName, givenName,
familyName and locality as Unicode. Python's
codecs do the encoding, independently of ICU (which ohana decodes with).
"""
import json
import os
import random
import sys

LANGS = {
    # charset: (python codec, [(given, family)...] builder, cities, streets, phone prefix, name order)
    "windows-1251": dict(
        codec="cp1251",
        given=["Александр", "Сергей", "Дмитрий", "Андрей", "Алексей", "Максим", "Евгений", "Иван",
               "Михаил", "Николай", "Ольга", "Елена", "Татьяна", "Наталья", "Ирина", "Светлана",
               "Анна", "Мария", "Екатерина", "Юлия", "Пётр", "Фёдор", "Любовь", "Вячеслав"],
        family=["Иванов", "Смирнов", "Кузнецов", "Попов", "Васильев", "Петров", "Соколов",
                "Михайлов", "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев",
                "Семёнов", "Егоров", "Павлов", "Козлов", "Степанов", "Николаев", "Жуков", "Щукин"],
        cities=["Москва", "Санкт-Петербург", "Новосибирск", "Екатеринбург", "Казань",
                "Нижний Новгород", "Самара", "Омск", "Ростов-на-Дону", "Уфа"],
        streets=["улица Ленина", "Садовая улица", "проспект Мира", "улица Гагарина",
                 "Пушкинская улица", "Невский проспект", "улица Чехова"],
        phone="+7 9{a:02d} {b:03d}-{c:02d}-{d:02d}", western=True),
    "windows-1253": dict(
        codec="cp1253",
        given=["Γιώργος", "Κωνσταντίνος", "Δημήτρης", "Νίκος", "Γιάννης", "Παναγιώτης", "Βασίλης",
               "Χρήστος", "Αθανάσιος", "Μιχάλης", "Μαρία", "Ελένη", "Αικατερίνη", "Βασιλική",
               "Σοφία", "Αγγελική", "Γεωργία", "Δήμητρα", "Κωνσταντίνα", "Παρασκευή", "Άννα", "Ευάγγελος"],
        family=["Παπαδόπουλος", "Παπαγεωργίου", "Οικονόμου", "Γεωργίου", "Παπαδημητρίου",
                "Νικολάου", "Ιωάννου", "Βασιλείου", "Καραγιάννης", "Αθανασίου", "Δημητρίου",
                "Μακρής", "Παππάς", "Αντωνίου", "Κωνσταντίνου", "Ανδρέου", "Ζαχαρίου"],
        cities=["Αθήνα", "Θεσσαλονίκη", "Πάτρα", "Ηράκλειο", "Λάρισα", "Βόλος", "Ιωάννινα", "Χανιά"],
        streets=["Οδός Ερμού", "Λεωφόρος Αλεξάνδρας", "Οδός Πανεπιστημίου", "Οδός Σταδίου",
                 "Λεωφόρος Συγγρού", "Οδός Αθηνάς"],
        phone="+30 69{a:02d} {b:03d} {c:02d}{d:02d}", western=True),
    "windows-1255": dict(
        codec="cp1255",
        given=["אברהם", "יצחק", "יעקב", "משה", "דוד", "שלמה", "יוסף", "אפרים", "מרים", "שרה",
               "רבקה", "רחל", "לאה", "חנה", "אסתר", "נועה", "תמר", "יעל", "אורי", "איתי", "צבי", "שושנה"],
        family=["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "דהן", "אברהמי", "פרידמן", "אזולאי", "מלכה",
                "קישון", "גבאי", "שפירא", "רוזנברג", "אוחיון", "חדד", "ברק", "צור"],
        cities=["תל אביב", "ירושלים", "חיפה", "באר שבע", "נתניה", "אשדוד", "ראשון לציון", "פתח תקווה"],
        streets=["רחוב הרצל", "שדרות רוטשילד", "רחוב יפו", "רחוב בן יהודה", "רחוב ויצמן", "דרך בגין"],
        phone="+972 5{a:01d}-{b:03d}-{c:02d}{d:02d}", western=True),
    "ISO-8859-2": dict(
        codec="iso8859_2",
        given=["Łukasz", "Paweł", "Michał", "Krzysztof", "Tomasz", "Piotr", "Grzegorz", "Wojciech",
               "Agnieszka", "Małgorzata", "Katarzyna", "Joanna", "Żaneta", "Bożena", "Jolanta",
               "Jiří", "Petr", "Tomáš", "Zdeněk", "Kateřina", "Věra", "Lucie", "Jana", "Šárka"],
        family=["Kowalski", "Wiśniewski", "Wójcik", "Kowalczyk", "Kamiński", "Lewandowski",
                "Zieliński", "Szymański", "Woźniak", "Dąbrowski", "Kozłowski", "Jankowski",
                "Pawłowski", "Król", "Novák", "Svoboda", "Novotný", "Dvořák", "Černý", "Procházka",
                "Kučera", "Veselý", "Růžička", "Pospíšil", "Hájek", "Śliwa", "Żak"],
        cities=["Kraków", "Łódź", "Wrocław", "Poznań", "Gdańsk", "Szczecin", "Bielsko-Biała",
                "Praha", "Brno", "Ostrava", "Plzeň", "České Budějovice", "Ústí nad Labem"],
        streets=["ulica Długa", "ulica Świętojańska", "aleja Róż", "ulica Źródlana",
                 "Václavské náměstí", "Národní třída", "Žižkova"],
        phone="+48 5{a:02d} {b:03d} {c:02d}{d:01d}", western=True),
    "Shift_JIS": dict(
        codec="shift_jis",
        given=["太郎", "花子", "翔太", "陽菜", "大輔", "美咲", "健太", "さくら", "拓也", "由美",
               "直樹", "恵子", "誠", "明美", "浩二", "ゆかり", "亮", "真由美"],
        family=["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤",
                "吉田", "山田", "佐々木", "山口", "松本", "井上", "木村"],
        cities=["東京都", "大阪市", "横浜市", "名古屋市", "札幌市", "京都市", "神戸市", "福岡市"],
        streets=["千代田区丸の内1-1", "中央区銀座4-5", "北区梅田2-3", "中区栄3-6", "港区六本木6-10"],
        phone="+81 90-{b:04d}-{c:02d}{d:02d}", western=False),
    "GB18030": dict(
        codec="gb18030",
        given=["伟", "芳", "娜", "秀英", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰",
               "娟", "涛", "明", "超", "秀兰", "霞", "建华", "志强"],
        family=["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱",
                "胡", "郭", "何", "林"],
        cities=["北京市", "上海市", "广州市", "深圳市", "成都市", "杭州市", "武汉市", "南京市"],
        streets=["中山路", "人民路", "解放路", "建设路", "和平街", "长江路"],
        phone="+86 13{a:01d} {b:04d} {c:02d}{d:02d}", western=False),
    "windows-1252": dict(
        codec="cp1252",
        given=["François", "Jérôme", "Hélène", "Amélie", "Jürgen", "Jörg", "Björn", "Günter",
               "José", "María", "Íñigo", "Begoña", "Noël", "Zoë", "Chloé", "Renée", "Søren", "Ægir",
               "Pierre", "Anna"],
        family=["Lefèvre", "Müller", "Schröder", "Großmann", "Muñoz", "Peña", "Ibáñez", "Béranger",
                "Dubœuf", "Gödel", "Weiß", "Núñez", "García", "Martínez", "Fäßler", "Crèvecœur", "Schmidt"],
        cities=["Genève", "Zürich", "München", "Köln", "Málaga", "Córdoba", "Besançon", "Orléans"],
        streets=["Rue du Sacré-Cœur", "Königsallee", "Straße des 17. Juni", "Calle de Alcalá",
                 "Place de l’Étoile", "Plaça d’Espanya"],
        phone="+33 6 {a:02d} {b:03d} {c:02d} {d:02d}", western=True),
}

SIZES = (1, 5, 20, 100)


def ascii_mail(i):
    return f"contact{i}@example.com"


def cards(lang, n, rng):
    out = []
    for i in range(n):
        g = rng.choice(lang["given"])
        f = rng.choice(lang["family"])
        fn = f"{g} {f}" if lang["western"] else f"{f}{g}"
        city = rng.choice(lang["cities"])
        street = f"{rng.choice(lang['streets'])} {rng.randint(1, 120)}"
        phone = lang["phone"].format(a=rng.randint(0, 99) if "{a:01d}" not in lang["phone"] else rng.randint(0, 9),
                                     b=rng.randint(0, 999), c=rng.randint(0, 99), d=rng.randint(0, 99))
        out.append(dict(fullName=fn, givenName=g, familyName=f, locality=city, street=street, phone=phone,
                        email=ascii_mail(i), version="2.1" if i % 2 == 0 else "3.0"))
    return out


def vcard(c):
    if c["version"] == "2.1":
        lines = ["BEGIN:VCARD", "VERSION:2.1", f"N:{c['familyName']};{c['givenName']};;;", f"FN:{c['fullName']}",
                 f"TEL;CELL:{c['phone']}", f"EMAIL;INTERNET:{c['email']}",
                 f"ADR;HOME:;;{c['street']};{c['locality']};;;", "END:VCARD"]
    else:
        lines = ["BEGIN:VCARD", "VERSION:3.0", f"N:{c['familyName']};{c['givenName']};;;", f"FN:{c['fullName']}",
                 f"TEL;TYPE=CELL:{c['phone']}", f"EMAIL;TYPE=INTERNET:{c['email']}",
                 f"ADR;TYPE=HOME:;;{c['street']};{c['locality']};;;", "END:VCARD"]
    return "\r\n".join(lines) + "\r\n"


def main():
    out = sys.argv[1]
    n = int(sys.argv[sys.argv.index("--cards") + 1]) if "--cards" in sys.argv else 3000
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    samples = int(sys.argv[sys.argv.index("--samples") + 1]) if "--samples" in sys.argv else 10
    os.makedirs(out, exist_ok=True)
    for name, lang in LANGS.items():
        jobs = [(n, f"{name}-{n}")] + [(size, f"{name}-{size}-s{k}") for size in SIZES for k in range(samples)]
        for size, stem in jobs:
            rng = random.Random(f"{seed}-{stem}")
            cs = cards(lang, size, rng)
            with open(os.path.join(out, stem + ".vcf"), "wb") as fh:
                for c in cs:
                    fh.write(vcard(c).encode(lang["codec"]))
            with open(os.path.join(out, stem + ".expected.ndjson"), "w", encoding="utf-8") as fh:
                for c in cs:
                    fh.write(json.dumps({k: c[k] for k in ("fullName", "givenName", "familyName", "locality")},
                                        ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
