#!/usr/bin/env python3
"""Writes the CSV files CSVCommandTests imports, in the layouts of their
producers, from the producers' published header lists: Google Contacts'
current export (UTF-8, CR LF), its older export (`Given Name`, `Group
Membership`, `E-mail 1 - Type`) and Outlook's (every field quoted, in the
Windows ANSI code page, `0/0/00` for no date and its defaults in every row).
The people and their values are made up here.  Run from this folder."""
import csv, io

GOOGLE = ["First Name", "Middle Name", "Last Name", "Phonetic First Name", "Phonetic Middle Name",
          "Phonetic Last Name", "Name Prefix", "Name Suffix", "Nickname", "File As", "Organization Name",
          "Organization Title", "Organization Department", "Birthday", "Notes", "Photo", "Labels",
          "E-mail 1 - Label", "E-mail 1 - Value", "E-mail 2 - Label", "E-mail 2 - Value",
          "Phone 1 - Label", "Phone 1 - Value", "Phone 2 - Label", "Phone 2 - Value",
          "Address 1 - Label", "Address 1 - Formatted", "Address 1 - Street", "Address 1 - City",
          "Address 1 - PO Box", "Address 1 - Region", "Address 1 - Postal Code", "Address 1 - Country",
          "Address 1 - Extended Address", "Relation 1 - Label", "Relation 1 - Value", "Website 1 - Label",
          "Website 1 - Value", "Event 1 - Label", "Event 1 - Value", "IM 1 - Label", "IM 1 - Service",
          "IM 1 - Value", "Custom Field 1 - Label", "Custom Field 1 - Value"]

GOOGLE_OLDER = ["Name", "Given Name", "Additional Name", "Family Name", "Yomi Name", "Given Name Yomi",
                "Additional Name Yomi", "Family Name Yomi", "Name Prefix", "Name Suffix", "Initials", "Nickname",
                "Short Name", "Maiden Name", "Birthday", "Gender", "Location", "Billing Information",
                "Directory Server", "Mileage", "Occupation", "Hobby", "Sensitivity", "Priority", "Subject", "Notes",
                "Language", "Photo", "Group Membership", "E-mail 1 - Type", "E-mail 1 - Value", "Phone 1 - Type",
                "Phone 1 - Value", "Phone 2 - Type", "Phone 2 - Value", "Address 1 - Type", "Address 1 - Formatted",
                "Address 1 - Street", "Address 1 - City", "Address 1 - PO Box", "Address 1 - Region",
                "Address 1 - Postal Code", "Address 1 - Country", "Address 1 - Extended Address",
                "Organization 1 - Type", "Organization 1 - Name", "Organization 1 - Yomi Name",
                "Organization 1 - Title", "Organization 1 - Department", "Organization 1 - Symbol",
                "Organization 1 - Location", "Organization 1 - Job Description", "Website 1 - Type",
                "Website 1 - Value"]

OUTLOOK = ["Title", "First Name", "Middle Name", "Last Name", "Suffix", "Company", "Department", "Job Title",
           "Business Street", "Business Street 2", "Business Street 3", "Business City", "Business State",
           "Business Postal Code", "Business Country/Region", "Home Street", "Home Street 2", "Home Street 3",
           "Home City", "Home State", "Home Postal Code", "Home Country/Region", "Other Street", "Other Street 2",
           "Other Street 3", "Other City", "Other State", "Other Postal Code", "Other Country/Region",
           "Assistant's Phone", "Business Fax", "Business Phone", "Business Phone 2", "Callback", "Car Phone",
           "Company Main Phone", "Home Fax", "Home Phone", "Home Phone 2", "ISDN", "Mobile Phone", "Other Fax",
           "Other Phone", "Pager", "Primary Phone", "Radio Phone", "TTY/TDD Phone", "Telex", "Account",
           "Anniversary", "Assistant's Name", "Billing Information", "Birthday", "Business Address PO Box",
           "Categories", "Children", "Directory Server", "E-mail Address", "E-mail Type", "E-mail Display Name",
           "E-mail 2 Address", "E-mail 2 Type", "E-mail 2 Display Name", "E-mail 3 Address", "E-mail 3 Type",
           "E-mail 3 Display Name", "Gender", "Government ID Number", "Hobby", "Home Address PO Box", "Initials",
           "Internet Free Busy", "Keywords", "Language", "Location", "Manager's Name", "Mileage", "Notes",
           "Office Location", "Organizational ID Number", "Other Address PO Box", "Priority", "Private",
           "Profession", "Referred By", "Sensitivity", "Spouse", "User 1", "User 2", "User 3", "User 4", "Web Page"]


def row(header, **values):
    return {name: values.get(name, "") for name in header}


def google():
    ingrid = dict(zip(GOOGLE, [
        "Ingrid", "Maria", "Svensson", "", "", "", "Dr.", "", "Inga", "", "Nordlys AB", "Engineer", "Research",
        "1984-03-07", "Met at the fjord\nlikes coffee", "", "* myContacts ::: * starred ::: Friends ::: Ski club",
        "* Work", "ingrid@nordlys.example", "Home", "inga@post.example",
        "Mobile", "+46 70 123 45 67 ::: +46 70 765 43 21", "Work", "+46 8 555 010 20",
        "Home", "Storgatan 1\n111 22 Stockholm\nSweden", "Storgatan 1", "Stockholm", "", "", "111 22", "Sweden", "",
        "Spouse", "Lars", "Profile", "https://nordlys.example/ingrid", "Anniversary", "2010-06-12",
        "", "Skype", "ingrid.s", "Shoe size", "39"]))
    kenji = row(GOOGLE, **{"First Name": "Kenji", "Last Name": "Tanaka", "Phonetic First Name": "けんじ",
                           "Phonetic Last Name": "たなか", "Birthday": "--11-02", "Labels": "* myContacts",
                           "E-mail 1 - Value": "kenji@example.jp", "Phone 1 - Value": "090-1234-5678"})
    with open("google.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, GOOGLE, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows([ingrid, kenji])


def google_older():
    paolo = row(GOOGLE_OLDER, **{
        "Name": "Paolo Rossi", "Given Name": "Paolo", "Family Name": "Rossi", "Birthday": "1975-09-30",
        "Hobby": "Sailing", "Group Membership": "* myContacts ::: Colleagues", "E-mail 1 - Type": "* Work",
        "E-mail 1 - Value": "paolo@rossi.example", "Phone 1 - Type": "Mobile", "Phone 1 - Value": "+39 347 123 4567",
        "Phone 2 - Type": "Home Fax", "Phone 2 - Value": "+39 06 1234 5678", "Address 1 - Type": "Work",
        "Address 1 - Formatted": "Via Roma 5, 00100 Roma", "Address 1 - Street": "Via Roma 5",
        "Address 1 - City": "Roma", "Address 1 - Postal Code": "00100", "Address 1 - Country": "Italy",
        "Organization 1 - Type": "Other", "Organization 1 - Name": "Rossi & Figli", "Organization 1 - Title": "Owner",
        "Website 1 - Type": "Blog", "Website 1 - Value": "https://paolo.example"})
    with open("google-older.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, GOOGLE_OLDER, lineterminator="\r\n")
        writer.writeheader()
        writer.writerow(paolo)


def outlook():
    defaults = {"Anniversary": "0/0/00", "Birthday": "0/0/00", "Gender": "Unspecified", "Priority": "Normal",
                "Private": "False", "Sensitivity": "Normal"}
    zoe = row(OUTLOOK, **{**defaults, **{
        "First Name": "Zoë", "Last Name": "Müller", "Company": "Bäckerei Müller", "Job Title": "Meisterin",
        "Business Street": "Hauptstraße 3", "Business City": "Köln", "Business Postal Code": "50667",
        "Business Country/Region": "Deutschland", "Business Phone": "+49 221 123456", "Mobile Phone": "+49 151 23456789",
        "Home Phone": "0221 987654", "Birthday": "4/12/1990", "Anniversary": "6/1/2015", "Categories": "Kunden;Lieferanten",
        "E-mail Address": "zoe@baeckerei.example", "E-mail Type": "SMTP",
        "E-mail Display Name": "Zoë Müller (zoe@baeckerei.example)", "Spouse": "Jürgen",
        "Notes": "Brötchen – dienstags\r\nimmer früh", "Web Page": "https://baeckerei.example/", "Gender": "Female"}})
    bob = row(OUTLOOK, **{**defaults, **{
        "First Name": "Bob", "Last Name": "Stone", "E-mail Address": "bob@stone.example", "E-mail Type": "SMTP",
        "E-mail Display Name": "Bob Stone (bob@stone.example)", "Home Street": "12 Elm St", "Home City": "Springfield",
        "Home State": "IL", "Home Postal Code": "62701", "Home Country/Region": "United States of America",
        "Home Phone": "(217) 555-0134"}})
    text = io.StringIO()
    writer = csv.DictWriter(text, OUTLOOK, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    writer.writeheader()
    writer.writerows([zoe, bob])
    with open("outlook-windows-1252.csv", "wb") as f:
        f.write(text.getvalue().encode("cp1252"))


google()
google_older()
outlook()
