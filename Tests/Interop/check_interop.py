#!/usr/bin/env python3
"""Checks contactsdb's vCards against real clients, as CI runs it:

- khard, the console address book, lists a directory of exported .vcf files
  (vCard 4.0 and 3.0) with the same names, phones and emails;
- vCards written by the Python `vobject` library import with every field.

Usage: check_interop.py PATH/TO/contactsdb   (needs: pip install khard vobject)
Prints one line per check and ends with "N passed, M failed".
"""
import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import vobject

CONTACTSDB = str(Path(sys.argv[1]).resolve())
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok else ": " + detail))


def run(*args, db=None):
    command = [CONTACTSDB] + (["--db", db] if db else []) + list(args)
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def export(db):
    return [json.loads(line) for line in run("export", "--format", "ndjson", db=db).splitlines()]


def khard(config, *args):
    return subprocess.run(["khard", "-c", str(config)] + list(args), check=True, capture_output=True,
                          text=True).stdout


def check_khard(work, db, contacts, version):
    cards = work / f"cards-{version}"
    run("export", "--format", "vcard", "--vcard-version", version, "--directory", str(cards), db=db)
    config = work / f"khard-{version}.conf"
    config.write_text(f"""[addressbooks]
[[contactsdb]]
path = {cards}
[general]
default_action = list
[contact table]
display = first_name
show_uids = yes
sort = last_name
[vcard]
skip_unparsable = no
""")
    listed = [line.split("\t") for line in khard(config, "list", "--parsable").splitlines()]
    name_of = {uid: name for uid, name, *_ in listed}
    ours = {contact["id"]: contact for contact in contacts}
    check(f"khard lists every {version} card", set(name_of) == set(ours),
          f"{len(name_of)} listed, {len(ours)} exported")

    def words(contact):
        parts = [contact["firstName"], contact["lastName"]] if contact["firstName"] or contact["lastName"] \
            else [contact["company"]]
        return sorted(" ".join(part for part in parts if part).split())

    wrong = [uid for uid, contact in ours.items() if sorted(name_of.get(uid, "").split()) != words(contact)]
    check(f"khard shows the same names ({version})", not wrong, f"{wrong[:3]}")

    # khard prints each number or address with its contact's name: compare
    # (name, value) multisets, which holds even where two contacts share a name.
    for kind, key in (("phone", "phones"), ("email", "emails")):
        theirs = collections.Counter(
            (name, value) for value, name, *_ in
            (line.split("\t") for line in khard(config, kind, "--parsable").splitlines() if "\t" in line))
        expected = collections.Counter(
            (name_of.get(contact["id"], "?"), item["value"]) for contact in contacts for item in contact[key])
        check(f"khard shows the same {key} ({version})", theirs == expected,
              f"missing {list((expected - theirs).items())[:2]}, extra {list((theirs - expected).items())[:2]}")


def check_vobject(work):
    people = [
        ("Петров", "Иван", "Рога и копыта", [("+7 912 345-67-89", "CELL"), ("8 (495) 123-45-67", "HOME")],
         [("ivan@example.ru", "WORK")], ["Family", "Работа"]),
        ("홍", "길동", None, [("010-1234-5678", "CELL")], [], []),
        ("Smith", "John", "Smith, Jones & Co.", [("+1 415 555 0132", "WORK")],
         [("john@smith.example", "HOME"), ("j.smith@work.example", "WORK")], []),
        ("Durand", "Éloïse", None, [], [("eloise@example.fr", "HOME")], ["Amis; proches"]),
    ]
    cards = []
    for family, given, org, tels, emails, categories in people:
        card = vobject.vCard()
        card.add("n").value = vobject.vcard.Name(family=family, given=given)
        card.add("fn").value = f"{given} {family}"
        if org:
            card.add("org").value = [org]
        for number, kind in tels:
            tel = card.add("tel")
            tel.value = number
            tel.type_param = kind
        for address, kind in emails:
            email = card.add("email")
            email.value = address
            email.type_param = kind
        if categories:
            card.add("categories").value = categories
        address = card.add("adr")
        address.value = vobject.vcard.Address(street="ул. Ленина, 1", city="Москва", code="101000", country="Russia")
        address.type_param = "HOME"
        card.add("note").value = "a note, with a comma; and a semicolon"
        card.add("x-vobject-custom").value = "not held by the model"
        cards.append(card.serialize())
    path = work / "vobject.vcf"
    path.write_text("".join(cards))
    db = str(work / "vobject.sqlite")
    run("init", "--no-seed", db=db)
    report = subprocess.run([CONTACTSDB, "--db", db, "import", str(path)], capture_output=True, text=True)
    check("vobject's cards import", report.returncode == 0, report.stderr.strip())
    check("properties the model does not hold are kept and reported", "X-VOBJECT-CUSTOM ×4" in report.stderr,
          report.stderr.strip())
    imported = {contact["lastName"]: contact for contact in export(db)}
    label = {"CELL": "mobile", "HOME": "home", "WORK": "work"}
    for family, given, org, tels, emails, categories in people:
        contact = imported.get(family)
        ok = contact is not None and contact["firstName"] == given and contact["company"] == org \
            and [(p["value"], p["type"]) for p in contact["phones"]] == [(n, label[k]) for n, k in tels] \
            and [(e["value"], e["type"]) for e in contact["emails"]] == [(a, label[k]) for a, k in emails] \
            and sorted(contact["groups"]) == sorted(categories) \
            and contact.get("note") == "a note, with a comma; and a semicolon" \
            and contact.get("extra") == ["X-VOBJECT-CUSTOM:not held by the model"] \
            and [(a["street1"], a["city"], a["zipcode"], a["country"], a["type"]) for a in contact["addresses"]] \
            == [("ул. Ленина, 1", "Москва", "101000", "Russia", "home")]
        check(f"vobject card of {given} {family} has every field", ok, json.dumps(contact, ensure_ascii=False))


# Each component of N, ADR and ORG, as JSON names it and as vobject's parsed
# value names it.
STRUCTURED = {
    "n": [("lastName", "family"), ("firstName", "given"), ("middleName", "additional"),
          ("namePrefix", "prefix"), ("nameSuffix", "suffix")],
    "adr": [("poBox", "box"), ("street2", "extended"), ("street1", "street"), ("city", "city"),
            ("state", "region"), ("zipcode", "code"), ("country", "country")],
    "org": [("company", 0), ("department", 1)],
}


def structured_contacts():
    """One contact per component and character: each of N's, ADR's and ORG's
    components holding a comma, a semicolon, a backslash and a line break."""
    contacts = []
    for prop, components in STRUCTURED.items():
        for key, _ in components:
            for index, char in enumerate([",", ";", "\\", "\n"]):
                value = f"Left{char}Right"
                contact = {"id": f"{prop}-{key}-{index}", "firstName": "Plain", "lastName": "Name"}
                address = {"type": "home", "street1": "1 Main St", "city": "Town", "country": "Land"}
                if prop == "adr":
                    address[key] = value
                else:
                    contact[key] = value
                contact["addresses"] = [address]
                contacts.append(contact)
    return contacts


def vobject_components(card):
    """N's, ADR's and ORG's components as vobject reads them: one text each,
    or a list where the writer left a separator unescaped."""
    name, address = card.n.value, card.adr.value
    org = card.org.value if hasattr(card, "org") else []
    found = {key: getattr(name, attribute) for key, attribute in STRUCTURED["n"]}
    found.update({key: getattr(address, attribute) for key, attribute in STRUCTURED["adr"]})
    found.update({key: org[index] if index < len(org) else "" for key, index in STRUCTURED["org"]})
    return found


def compare_structured(label, stored, cards):
    """Every component of every stored contact equals what vobject read."""
    read = {card.uid.value: vobject_components(card) for card in cards}
    wrong = []
    for contact in stored:
        found = read.get(contact["id"])
        address = contact["addresses"][0]
        for prop, components in STRUCTURED.items():
            for key, _ in components:
                expected = (address if prop == "adr" else contact).get(key) or ""
                if found is None or found[key] != expected:
                    wrong.append((contact["id"], key, expected, found and found[key]))
    check(f"vobject reads every component of N, ADR and ORG as stored ({label})", not wrong and len(read) == len(stored),
          f"{len(wrong)} differ: {wrong[:4]}")


def check_structured_values(work):
    db = str(work / "structured.sqlite")
    run("init", "--no-seed", db=db)
    source = work / "structured.json"
    source.write_text(json.dumps(structured_contacts(), ensure_ascii=False))
    run("import", str(source), db=db)
    stored = export(db)
    kept = [c for c in stored if any(ch in json.dumps(c) for ch in (",Right", ";Right", "\\\\Right"))]
    check("the characters are stored as given", len(kept) == len(stored) * 3 // 4, f"{len(kept)} of {len(stored)}")
    for version in ("3.0", "4.0"):
        text = run("export", "--format", "vcard", "--vcard-version", version, db=db)
        compare_structured(f"vCard {version}", stored, list(vobject.readComponents(text)))
    # The same through a sync: pushed to Radicale, read there by vobject, and
    # pulled into a second database unchanged.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "Sync"))
    import davserver
    with davserver.running("radicale", str(work / "radicale")) as server:
        env = dict(os.environ, DAV_PASSWORD="password")
        def synced(*args, db):
            return subprocess.run([CONTACTSDB, "--db", db] + list(args), env=env, check=True,
                                  capture_output=True, text=True).stdout
        # Bound to the book the contacts are in, which the first sync pushes.
        synced("remote", "add", "local", server["addressbook"], "--username", "user",
               "--password-env", "DAV_PASSWORD", db=db)
        synced("sync", db=db)
        files = sorted(path for path in (work / "radicale" / "collections").rglob("*.vcf")
                       if ".Radicale.cache" not in path.parts)
        cards = [vobject.readOne(path.read_text(encoding="utf-8")) for path in files]
        compare_structured("on Radicale after a sync", stored, cards)
        second = str(work / "second.sqlite")
        synced("init", "--no-seed", db=second)
        synced("remote", "add", "radicale", server["addressbook"], "--username", "user",
               "--password-env", "DAV_PASSWORD", db=second)
        synced("sync", db=second)
        fields = lambda c: {k: c.get(k) for k in ("id", "firstName", "lastName", "middleName", "namePrefix",
                                                   "nameSuffix", "company", "department", "addresses")}
        pulled = sorted(map(fields, export(second)), key=lambda c: c["id"])
        check("a second database pulls every component as stored", pulled == sorted(map(fields, stored), key=lambda c: c["id"]),
              f"{[a for a, b in zip(pulled, sorted(map(fields, stored), key=lambda c: c['id'])) if a != b][:2]}")


with tempfile.TemporaryDirectory() as directory:
    work = Path(directory)
    db = str(work / "contacts.sqlite")
    run("init", db=db)
    generated = work / "generated.json"
    generated.write_text(run("generate", "--contacts", "60", "--seed", "3"))
    run("import", str(generated), db=db)
    contacts = export(db)
    for version in ("4.0", "3.0"):
        check_khard(work, db, contacts, version)
    check_vobject(work)
    check_structured_values(work)

passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
