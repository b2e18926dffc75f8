// Reads vCard files with ez-vcard and prints what it read, one JSON line per
// card, for compare.py. Compiled and run by compare.py:
//
//   javac -cp ez-vcard.jar:vinnie.jar -d OUT EzDump.java
//   java -Dfile.encoding=UTF-8 -cp OUT:ez-vcard.jar:vinnie.jar EzDump FILE...
//
// For each FILE: one line {"file":..., "cards":N} (or {"file":..., "error":...}
// when ez-vcard throws), then N lines, one per card, in file order:
//   {"file":..., "index":i, "uid":..., "fullName":..., "family":..., "given":...,
//    "emails":[...], "phones":[...], "phoneDigits":[...],
//    "addresses":[{"street":..,"locality":..,"region":..,"postalCode":..,
//                  "country":..,"poBox":..,"extended":..}],
//    "notes":[...], "warnings":n, "warningTexts":[...first five...]}
// Absent values are null. A component that ez-vcard reads as a list (3.0 and
// 4.0 address parts split at unescaped commas) is joined with ",".
// Every character above U+007E is written as \\uXXXX, so the output is ASCII
// and lossless whatever the platform's encoding.
//
// ez-vcard reads each file with the JVM's default charset: compare.py runs
// java with -Dfile.encoding=UTF-8 (the dumper prints the charset it got on
// stderr).
import ezvcard.Ezvcard;
import ezvcard.VCard;
import ezvcard.io.ParseWarning;
import ezvcard.property.Address;
import ezvcard.property.Email;
import ezvcard.property.FormattedName;
import ezvcard.property.Note;
import ezvcard.property.StructuredName;
import ezvcard.property.Telephone;
import ezvcard.property.Uid;
import java.io.BufferedWriter;
import java.io.File;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class EzDump {
  public static void main(String[] args) throws Exception {
    System.err.println("EzDump: default charset " + Charset.defaultCharset());
    PrintWriter out = new PrintWriter(new BufferedWriter(
        new OutputStreamWriter(System.out, StandardCharsets.US_ASCII), 1 << 16));
    for (String path : args) {
      dumpFile(path, out);
    }
    out.flush();
  }

  static void dumpFile(String path, PrintWriter out) {
    List<List<ParseWarning>> warnings = new ArrayList<>();
    List<VCard> cards;
    try {
      cards = Ezvcard.parse(new File(path)).warnings(warnings).all();
    } catch (Exception e) {
      StringBuilder b = new StringBuilder("{");
      key(b, "file", true); str(b, path);
      key(b, "error", false); str(b, e.toString());
      out.println(b.append('}'));
      return;
    }
    StringBuilder h = new StringBuilder("{");
    key(h, "file", true); str(h, path);
    key(h, "cards", false); h.append(cards.size());
    out.println(h.append('}'));
    for (int i = 0; i < cards.size(); i++) {
      List<ParseWarning> w = i < warnings.size() ? warnings.get(i) : new ArrayList<>();
      out.println(card(path, i, cards.get(i), w));
    }
  }

  static String card(String path, int index, VCard card, List<ParseWarning> warnings) {
    StringBuilder b = new StringBuilder(512).append('{');
    key(b, "file", true); str(b, path);
    key(b, "index", false); b.append(index);
    Uid uid = card.getUid();
    key(b, "uid", false); str(b, uid == null ? null : uid.getValue());
    FormattedName fn = card.getFormattedName();
    key(b, "fullName", false); str(b, fn == null ? null : fn.getValue());
    StructuredName n = card.getStructuredName();
    key(b, "family", false); str(b, n == null ? null : n.getFamily());
    key(b, "given", false); str(b, n == null ? null : n.getGiven());

    List<String> emails = new ArrayList<>();
    for (Email e : card.getEmails()) emails.add(e.getValue());
    key(b, "emails", false); strs(b, emails);

    List<String> phones = new ArrayList<>();
    List<String> digits = new ArrayList<>();
    for (Telephone t : card.getTelephoneNumbers()) {
      String v = t.getText();
      if (v == null && t.getUri() != null) v = t.getUri().toString();
      phones.add(v);
      digits.add(v == null ? null : digitsOnly(v));
    }
    key(b, "phones", false); strs(b, phones);
    key(b, "phoneDigits", false); strs(b, digits);

    key(b, "addresses", false);
    b.append('[');
    boolean firstAdr = true;
    for (Address a : card.getAddresses()) {
      if (!firstAdr) b.append(',');
      firstAdr = false;
      b.append('{');
      key(b, "street", true); str(b, joined(a.getStreetAddresses()));
      key(b, "locality", false); str(b, joined(a.getLocalities()));
      key(b, "region", false); str(b, joined(a.getRegions()));
      key(b, "postalCode", false); str(b, joined(a.getPostalCodes()));
      key(b, "country", false); str(b, joined(a.getCountries()));
      key(b, "poBox", false); str(b, joined(a.getPoBoxes()));
      key(b, "extended", false); str(b, joined(a.getExtendedAddresses()));
      b.append('}');
    }
    b.append(']');

    List<String> notes = new ArrayList<>();
    for (Note note : card.getNotes()) notes.add(note.getValue());
    key(b, "notes", false); strs(b, notes);

    key(b, "warnings", false); b.append(warnings.size());
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < warnings.size() && i < 5; i++) texts.add(warnings.get(i).toString());
    key(b, "warningTexts", false); strs(b, texts);
    return b.append('}').toString();
  }

  /** The list joined with ",", or null when it is empty. */
  static String joined(List<String> parts) {
    if (parts == null || parts.isEmpty()) return null;
    return String.join(",", parts);
  }

  static String digitsOnly(String s) {
    StringBuilder d = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') d.append(c);
    }
    return d.toString();
  }

  static void key(StringBuilder b, String k, boolean first) {
    if (!first) b.append(',');
    str(b, k);
    b.append(':');
  }

  static void strs(StringBuilder b, List<String> values) {
    b.append('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) b.append(',');
      str(b, values.get(i));
    }
    b.append(']');
  }

  static void str(StringBuilder b, String s) {
    if (s == null) {
      b.append("null");
      return;
    }
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"': b.append("\\\""); break;
        case '\\': b.append("\\\\"); break;
        case '\n': b.append("\\n"); break;
        case '\r': b.append("\\r"); break;
        case '\t': b.append("\\t"); break;
        default:
          if (c < 0x20 || c > 0x7e) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    b.append('"');
  }
}
