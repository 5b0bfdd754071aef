#!/usr/bin/env python3
"""LDIF for the test Active Directory (scripts/lib/samba.sh): COUNT people in CN=Users with
names in several scripts (scripts/ldap/seed.py's pools), each enabled with a password, two
groups, and "Address book": a group of CONTACTS contacts (1,600: more than the 1,500 values
Active Directory sends of an attribute at once, so it is read in ranges). Added over LDAP to
the provisioned template by scripts/lib/samba.sh.

    seed_ad.py BASE COUNT [CONTACTS]
"""
import base64
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from seed import FAMILY, GIVEN, line  # noqa: E402


def main():
    base, count = sys.argv[1], int(sys.argv[2])
    contacts = int(sys.argv[3]) if len(sys.argv) > 3 else 1600
    users = f"CN=Users,{base}"
    out = sys.stdout
    members = {"Engineering": [], "Support": []}
    for n in range(1, count + 1):
        given = GIVEN[n % len(GIVEN)]
        family = FAMILY[(n * 7) % len(FAMILY)]
        login = f"user{n:04d}"
        dn = f"CN={login},{users}"
        out.write(line("dn", dn))
        out.write("objectClass: user\n")
        out.write(f"sAMAccountName: {login}\nuserPrincipalName: {login}@roster.test\n")
        out.write(line("displayName", f"{given} {family}"))
        out.write(line("givenName", given))
        out.write(line("sn", family))
        out.write(f"mail: {login}@example.org\ntitle: Seeded {n}\n")
        password = f'"Seeded-{n}-Pass"'.encode("utf-16-le")
        out.write(f"unicodePwd:: {base64.b64encode(password).decode()}\n")
        out.write("userAccountControl: 512\n\n")
        members["Engineering" if n % 2 == 0 else "Support"].append(dn)
    for name, dns in members.items():
        out.write(f"dn: CN={name},{users}\nobjectClass: group\nsAMAccountName: {name}\n")
        for dn in dns:
            out.write(line("member", dn))
        out.write("\n")
    # Contacts are cheap for the server to add (no password), and are not people to Roster.
    out.write(f"dn: OU=Contacts,{base}\nobjectClass: organizationalUnit\n\n")
    for n in range(1, contacts + 1):
        out.write(f"dn: CN=contact{n:04d},OU=Contacts,{base}\nobjectClass: contact\n\n")
    out.write(f"dn: CN=Address book,{users}\nobjectClass: group\nsAMAccountName: Address book\n")
    for n in range(1, contacts + 1):
        out.write(f"member: CN=contact{n:04d},OU=Contacts,{base}\n")
    out.write("\n")


if __name__ == "__main__":
    main()
