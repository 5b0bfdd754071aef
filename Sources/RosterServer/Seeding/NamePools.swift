/// Given and family names by script, each with the Latin spelling its email address uses.
/// Realistic data finds the bugs ASCII hides: wide CJK columns, right-to-left text, combining
/// marks, letters whose lower case differs in length.
struct NamePool: Sendable {
    /// A name as written, and as an email's local part would spell it.
    struct Name: Sendable {
        var written: String
        var latin: String
    }

    var script: String
    var given: [Name]
    var family: [Name]
    /// Whether the family name comes first and how the two are joined.
    var familyFirst: Bool
    var separator: String
    /// How often this pool is drawn, relative to the others.
    var weight: Int

    func fullName(given: Name, family: Name) -> String {
        familyFirst ? family.written + separator + given.written : given.written + separator + family.written
    }
}

extension NamePool {
    private static func names(_ pairs: KeyValuePairs<String, String>) -> [Name] {
        pairs.map { Name(written: $0.key, latin: $0.value) }
    }

    static let all: [NamePool] = [
        NamePool(
            script: "Latin", given: names([
                "Emma": "emma", "Liam": "liam", "Olivia": "olivia", "Noah": "noah", "Ava": "ava",
                "James": "james", "Grace": "grace", "Henry": "henry", "Chloe": "chloe", "Samuel": "samuel",
                "Ruth": "ruth", "Oscar": "oscar", "Isla": "isla", "Arthur": "arthur", "Maya": "maya",
            ]),
            family: names([
                "Smith": "smith", "Johnson": "johnson", "Brown": "brown", "Taylor": "taylor",
                "Wilson": "wilson", "Clarke": "clarke", "Walker": "walker", "Hughes": "hughes",
                "Bennett": "bennett", "O'Connor": "oconnor", "Reid": "reid", "Murphy": "murphy",
            ]),
            familyFirst: false, separator: " ", weight: 20),
        NamePool(
            script: "accented Latin", given: names([
                "José": "jose", "François": "francois", "Zoë": "zoe", "Łukasz": "lukasz", "Ágnes": "agnes",
                "Søren": "soren", "Çağla": "cagla", "Đorđe": "djordje", "Māris": "maris", "Inês": "ines",
                "Jürgen": "jurgen", "Renée": "renee", "Håkon": "hakon", "Małgorzata": "malgorzata", "Şebnem": "sebnem",
            ]),
            family: names([
                "Müller": "muller", "García": "garcia", "Nuñez": "nunez", "Dvořák": "dvorak",
                "Ødegaard": "odegaard", "Kowalczyk": "kowalczyk", "Lefèvre": "lefevre", "Øster": "oster",
                "Þórsdóttir": "thorsdottir", "Yılmaz": "yilmaz", "Sánchez": "sanchez", "Škoda": "skoda",
            ]),
            familyFirst: false, separator: " ", weight: 20),
        NamePool(
            script: "Cyrillic", given: names([
                "Анна": "anna", "Дмитрий": "dmitry", "Ольга": "olga", "Иван": "ivan", "Екатерина": "ekaterina",
                "Сергей": "sergey", "Мария": "maria", "Алексей": "alexey", "Наталья": "natalya", "Юрий": "yuri",
            ]),
            family: names([
                "Иванова": "ivanova", "Смирнов": "smirnov", "Кузнецова": "kuznetsova", "Попов": "popov",
                "Соколова": "sokolova", "Лебедев": "lebedev", "Шевченко": "shevchenko", "Ёлкина": "yolkina",
            ]),
            familyFirst: false, separator: " ", weight: 10),
        NamePool(
            script: "Greek", given: names([
                "Γιώργος": "giorgos", "Ελένη": "eleni", "Δημήτρης": "dimitris", "Μαρία": "maria",
                "Νίκος": "nikos", "Σοφία": "sofia", "Κωνσταντίνος": "konstantinos", "Αικατερίνη": "aikaterini",
            ]),
            family: names([
                "Παπαδόπουλος": "papadopoulos", "Οικονόμου": "oikonomou", "Γεωργίου": "georgiou",
                "Νικολάου": "nikolaou", "Βασιλείου": "vasileiou", "Σταύρου": "stavrou",
            ]),
            familyFirst: false, separator: " ", weight: 6),
        NamePool(
            script: "Arabic", given: names([
                "محمد": "mohammed", "فاطمة": "fatima", "أحمد": "ahmed", "ليلى": "layla", "يوسف": "youssef",
                "مريم": "maryam", "عمر": "omar", "نور": "nour",
            ]),
            family: names([
                "العلي": "alali", "الحسن": "alhassan", "منصور": "mansour", "خليل": "khalil",
                "حداد": "haddad", "سعيد": "saeed",
            ]),
            familyFirst: false, separator: " ", weight: 8),
        NamePool(
            script: "Hebrew", given: names([
                "דוד": "david", "שרה": "sarah", "יוסף": "yosef", "רחל": "rachel", "נועה": "noa", "אורי": "ori",
            ]),
            family: names([
                "כהן": "cohen", "לוי": "levi", "מזרחי": "mizrahi", "פרץ": "peretz", "ביטון": "biton", "אברהם": "avraham",
            ]),
            familyFirst: false, separator: " ", weight: 5),
        NamePool(
            script: "Devanagari", given: names([
                "अनन्या": "ananya", "राहुल": "rahul", "प्रिया": "priya", "अर्जुन": "arjun", "दीपिका": "deepika",
                "विक्रम": "vikram", "स्नेहा": "sneha", "आदित्य": "aditya",
            ]),
            family: names([
                "शर्मा": "sharma", "वर्मा": "verma", "पटेल": "patel", "गुप्ता": "gupta", "सिंह": "singh", "जोशी": "joshi",
            ]),
            familyFirst: false, separator: " ", weight: 10),
        NamePool(
            script: "Chinese", given: names([
                "伟": "wei", "娜": "na", "秀英": "xiuying", "敏": "min", "静": "jing", "强": "qiang",
                "磊": "lei", "婷": "ting", "浩然": "haoran", "雨桐": "yutong",
            ]),
            family: names([
                "王": "wang", "李": "li", "张": "zhang", "刘": "liu", "陈": "chen", "杨": "yang", "黄": "huang", "赵": "zhao",
            ]),
            familyFirst: true, separator: "", weight: 10),
        NamePool(
            script: "Japanese", given: names([
                "花子": "hanako", "太郎": "taro", "さくら": "sakura", "健太": "kenta", "ゆい": "yui",
                "翔": "sho", "美咲": "misaki", "大輔": "daisuke",
            ]),
            family: names([
                "佐藤": "sato", "鈴木": "suzuki", "高橋": "takahashi", "田中": "tanaka", "渡辺": "watanabe",
                "伊藤": "ito", "山本": "yamamoto",
            ]),
            familyFirst: true, separator: " ", weight: 6),
        NamePool(
            script: "Korean", given: names([
                "민준": "minjun", "서연": "seoyeon", "지우": "jiwoo", "하은": "haeun", "도윤": "doyun", "수아": "sua",
            ]),
            family: names([
                "김": "kim", "이": "lee", "박": "park", "최": "choi", "정": "jung", "강": "kang",
            ]),
            familyFirst: true, separator: "", weight: 5),
    ]
}
