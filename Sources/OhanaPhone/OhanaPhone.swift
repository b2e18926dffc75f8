// OhanaPhone: phone-number parsing, validation, classification and
// formatting with libphonenumber's semantics, over UTF-8 bytes.
//
// The metadata (libphonenumber, Apache-2.0, Google; through the PyPI package
// phonenumbers, pinned in Scripts/phone/generate_metadata.py) is compiled
// ahead of time into DFAs over the ten digits and flat tables; see
// Metadata/PhoneMetadataTables.swift. Entry point: `PhoneNumberEngine`.
