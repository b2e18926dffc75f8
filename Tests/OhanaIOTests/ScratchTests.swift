import Foundation
import OhanaCore
import Testing
@testable import OhanaIO

@Test func scratchTiming() throws {
  guard let dir = corpusDirectory() else { return }
  for f in ["folkerkinzel-vcards/LargeFile.vcf", "ez-vcard/John_Doe_IPHONE.vcf", "aosp-vcard/v30_ios_613_multiline.vcf", "aosp-vcard/v21_malformed_photo.vcf", "audriga-jmap/rc-vcard-invalid-card.vcf", "audriga-jmap/rc-vcard-invalid-line.vcf", "evolution-data-server/7.vcf", "evolution-data-server/8.vcf", "evolution-data-server/9.vcf", "folkerkinzel-vcards/Cropped_2_1.vcf", "folkerkinzel-vcards/Empty.vcf", "khard/unparsable.vcf"] {
    let t0 = Date()
    let r = try ContactIO.read(path: dir.appendingPathComponent(f).path)
    let t1 = Date()
    print(f, r.recordsRead, r.errors.map { "\($0.line): \($0.reason)" }, t1.timeIntervalSince(t0))
  }
}
