// Streams every card of a file through ez-vcard's VCardReader and counts
// them: the ez-vcard side of compare.sh. Compiled by compare.sh.
import ezvcard.VCard;
import ezvcard.io.text.VCardReader;
import java.io.File;

public class EzVcardCount {
  public static void main(String[] args) throws Exception {
    File file = new File(args[0]);
    long t0 = System.nanoTime();
    long cards = 0;
    try (VCardReader reader = new VCardReader(file)) {
      VCard card;
      while ((card = reader.readNext()) != null) {
        cards++;
      }
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    double mb = file.length() / 1e6;
    System.out.printf("ez-vcard: %.1f MB, %d cards, %.3f s, %.1f MB/s, %.0f cards/s%n",
        mb, cards, secs, mb / secs, cards / secs);
  }
}
