import OhanaCore

/// ``RowKeys`` of consecutive ranges laid end to end: every list by a
/// job of its own, on the workers.
struct LaidKeys {
  var records: [ScoreRecord] = [], birthday: [UInt32] = [], fieldKeys: [UInt64] = [], addressKeys: [UInt64] = []
  var phones: [UInt64] = [], phoneOffsets: [UInt32] = [0]
  var emails: [UInt64] = [], emailOffsets: [UInt32] = [0]
  var addresses: [UInt64] = [], postcodes: [UInt64] = [], houses: [UInt64] = []
  var addressTexts: [AddressText] = [], addressOffsets: [UInt32] = [0]

  /// The records get their names from `names` (by row) as they are laid.
  init(
    _ taken: consuming [RowKeys], count n: Int,
    names: (given: [StringID], givenCanonical: [StringID], family: [StringID], nonLatin: [Bool]), threads: Int
  ) {
    var parts = taken
    // Column-major: each list's parts in a handoff of its own, taken and
    // freed by the job that lays the list.
    func take<T>(_ list: WritableKeyPath<RowKeys, [T]>) -> Handoff<[[T]]> {
      var all: [[T]] = []
      all.reserveCapacity(parts.count)
      for i in parts.indices {
        all.append(parts[i][keyPath: list])
        parts[i][keyPath: list] = []
      }
      return Handoff(all)
    }
    let phoneLengths = parts.map(\.phones.count), emailLengths = parts.map(\.emails.count)
    let addressLengths = parts.map(\.addresses.count)
    let records = take(\.records), birthday = take(\.birthday), fieldKeys = take(\.fieldKeys)
    let addressKeys = take(\.addressKeys), phones = take(\.phones), emails = take(\.emails)
    let addresses = take(\.addresses), postcodes = take(\.postcodes), houses = take(\.houses)
    let addressTexts = take(\.addressTexts)
    let phoneEnds = take(\.phoneEnds), emailEnds = take(\.emailEnds), addressEnds = take(\.addressEnds)
    parts = []
    let r = ResultSlots<[ScoreRecord]>(count: 1), b = ResultSlots<[UInt32]>(count: 1)
    let wide = ResultSlots<[UInt64]>(count: 7), texts = ResultSlots<[AddressText]>(count: 1)
    let offsets = ResultSlots<[UInt32]>(count: 3)
    Parallel.forEach(13, workers: threads) { job in
      switch job {
      case 0:
        r.set(
          0,
          ParallelFill.laid(records.take(), threads: threads) { row, record in
            record.given = names.given[row]
            record.givenCanonical = names.givenCanonical[row]
            record.family = names.family[row]
            record.nonLatinName = names.nonLatin[row]
          })
      case 1: texts.set(0, ParallelFill.laid(addressTexts.take(), threads: threads))
      case 2: b.set(0, ParallelFill.laid(birthday.take(), threads: threads))
      case 3: wide.set(0, ParallelFill.laid(fieldKeys.take(), threads: threads))
      case 4: wide.set(1, ParallelFill.laid(addressKeys.take(), threads: threads))
      case 5: wide.set(2, ParallelFill.laid(phones.take(), threads: threads))
      case 6: wide.set(3, ParallelFill.laid(emails.take(), threads: threads))
      case 7: wide.set(4, ParallelFill.laid(addresses.take(), threads: threads))
      case 8: wide.set(5, ParallelFill.laid(postcodes.take(), threads: threads))
      case 9: wide.set(6, ParallelFill.laid(houses.take(), threads: threads))
      case 10: offsets.set(0, ParallelFill.offsets(ends: phoneEnds.take(), lengths: phoneLengths, threads: threads))
      case 11: offsets.set(1, ParallelFill.offsets(ends: emailEnds.take(), lengths: emailLengths, threads: threads))
      default: offsets.set(2, ParallelFill.offsets(ends: addressEnds.take(), lengths: addressLengths, threads: threads))
      }
    }
    self.records = r.take(0)
    self.birthday = b.take(0)
    self.fieldKeys = wide.take(0)
    self.addressKeys = wide.take(1)
    self.phones = wide.take(2)
    self.emails = wide.take(3)
    self.addresses = wide.take(4)
    self.postcodes = wide.take(5)
    self.houses = wide.take(6)
    self.addressTexts = texts.take(0)
    self.phoneOffsets = offsets.take(0)
    self.emailOffsets = offsets.take(1)
    self.addressOffsets = offsets.take(2)
  }
}
