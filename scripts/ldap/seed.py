#!/usr/bin/env python3
"""LDIF for the test directory (scripts/lib/slapd.sh): the base, ou=people with COUNT people
whose names come from several scripts, ou=groups with a few groups. Values are base64 (LDIF's
`::`) whenever they are not plain ASCII, as RFC 2849 requires.

    seed.py BASE COUNT [GROUPS]
"""
import base64
import sys

GIVEN = ["Anna", "José", "Zoë", "Дмитрий", "Ольга", "Νίκος", "Ελένη", "美咲", "太郎", "أحمد", "فاطمة",
         "Søren", "Łukasz", "Ngọc", "अनिल", "Öykü", "Chloé", "Иван", "Σοφία", "明"]
FAMILY = ["Müller", "García", "Nowak", "Иванова", "Смирнов", "Παπαδόπουλος", "山田", "佐藤", "الحسن",
          "Nguyễn", "Øster", "Şahin", "शर्मा", "Dubois", "Kowalczyk", "Петров", "Γεωργίου", "李", "O'Brien", "Smith"]


def line(attribute, value):
    try:
        value.encode("ascii")
        plain = not value.startswith((" ", ":", "<")) and not value.endswith(" ")
    except UnicodeEncodeError:
        plain = False
    if plain:
        return f"{attribute}: {value}\n"
    return f"{attribute}:: {base64.b64encode(value.encode()).decode()}\n"


def main():
    base, count = sys.argv[1], int(sys.argv[2])
    groups = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    dc = base.split(",")[0].split("=")[1]
    out = sys.stdout
    out.write(f"dn: {base}\nobjectClass: dcObject\nobjectClass: organization\no: Roster test\ndc: {dc}\n\n")
    out.write(f"dn: ou=people,{base}\nobjectClass: organizationalUnit\nou: people\n\n")
    out.write(f"dn: ou=groups,{base}\nobjectClass: organizationalUnit\nou: groups\n\n")
    out.write(f"dn: ou=policies,{base}\nobjectClass: organizationalUnit\nou: policies\n\n")
    out.write(f"dn: cn=default,ou=policies,{base}\nobjectClass: device\nobjectClass: pwdPolicy\ncn: default\n"
              "pwdAttribute: userPassword\npwdLockout: TRUE\npwdMaxFailure: 3\npwdLockoutDuration: 0\n\n")
    names = ["Engineering", "Support", "Финансы", "営業"]
    group_dns = [f"cn={names[g] if g < len(names) else f'Group {g}'},ou=groups,{base}" for g in range(groups)]
    members = {n: [] for n in range(groups)}
    for n in range(1, count + 1):
        given = GIVEN[n % len(GIVEN)]
        family = FAMILY[(n * 7) % len(FAMILY)]
        uid = f"user{n:06d}"
        dn = f"uid={uid},ou=people,{base}"
        out.write(f"dn: {dn}\nobjectClass: inetOrgPerson\n")
        out.write(line("cn", f"{given} {family}"))
        out.write(line("sn", family))
        out.write(line("givenName", given))
        out.write(line("displayName", f"{given} {family}"))
        out.write(f"uid: {uid}\nmail: {uid}@example.org\n")
        out.write(f"title: Seeded {n}\n")
        out.write(f"userPassword: seeded-{n}\n")
        # memberof does not run under slapadd: the seed writes what it would have.
        for g in range(groups):
            if n % (g + 2) == 0:
                members[g].append(dn)
                out.write(line("memberOf", group_dns[g]))
        out.write("\n")
    for g in range(groups):
        name = names[g] if g < len(names) else f"Group {g}"
        out.write(line("dn", group_dns[g]))
        out.write("objectClass: groupOfNames\n")
        out.write(line("cn", name))
        # groupOfNames requires a member: an empty group holds the base itself.
        for dn in members[g] or [base]:
            out.write(f"member: {dn}\n")
        out.write("\n")


if __name__ == "__main__":
    main()
