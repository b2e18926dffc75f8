import ArgumentParser
import Ohana

/// The model's settings, the same for `dedupe` and `link`: threshold,
/// weights, blocking, the chaining guard and the phone region.
struct MatchingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Match weight (log2 Bayes factor) at or above which a pair is a match.",
      discussion: """
        Default 3 under the built-in weights, 1 under weights EM fitted to the table's candidate \
        pairs (their weights are measured against the candidates, most of which share a name part); \
        given, it is used for both.
        """))
  var threshold: Double?

  @Option(help: "Region for national phone numbers when a contact's country is unknown (default US).")
  var region: String?

  @Flag(help: "Estimate the model's m/u probabilities from the data (EM): the same as --weights em.")
  var em = false

  @Option(
    help: ArgumentHelp(
      "Model weights: auto, defaults or em.",
      discussion: """
        defaults: the built-in weights, measured on address books (duplicates share a phone \
        or an e-mail). em: estimated from this data's candidate pairs (no labels). auto (the \
        default): em when fewer than half the contacts have a phone or an e-mail, else defaults.
        """))
  var weights: String?

  @Option(
    name: .customLong("u-from"),
    help: ArgumentHelp(
      "Where estimated weights take u from: candidates or random-pairs.",
      discussion: """
        candidates (the default): EM over the candidate pairs fits m and u. random-pairs: \
        u from a million random pairs of rows, as Splink does, with the prior odds of a \
        random pair in every weight (see "4. Weights" in the Dedupe Model page). Only with fitted weights.
        """))
  var uFrom: String?

  @Option(
    help: ArgumentHelp(
      "Blocking rules: all, basic, or a comma-separated list.",
      discussion: """
        basic: phone, email, name (whole folded name) and address (postcode + street). all (the \
        default) adds the typo-tolerant rules: family+birthday, given+birthday, \
        phonetic-name+postcode, birthday+postcode, initials+birth-year, house+postcode, \
        house+locality, birthday+locality, birthday+initial, sorted-names, mailbox, and column+name \
        (a table's own selective column, such as a birthplace, with the family name's sound or the \
        birth year; used where fewer than half the contacts have a phone or an e-mail, always when \
        named). A list names the rules to use, e.g. phone,email,family+birthday.
        """))
  var blocking: String?

  @Option(name: .customLong("max-block"), help: "Largest block compared; larger ones are skipped and reported (default 50).")
  var maxBlock: Int?

  @Option(
    name: .customLong("max-cluster"),
    help: "Chaining guard: no cluster grows past this many contacts (default 32).")
  var maxCluster: Int?

  @Option(
    name: .customLong("guard"),
    help: ArgumentHelp(
      "Chaining guard: average (two clusters join when the mean weight of their cross pairs reaches 0) or complete (every cross pair must; default average).",
      valueName: "linkage"))
  var guardLinkage: GuardLinkage?

  /// `--weights` as given (`auto` when not), `--em` read as `em`
  /// (``validate()`` checked the name).
  var weightsSetting: WeightsSetting { em ? .em : weights.flatMap(WeightsSetting.init(rawValue:)) ?? .auto }

  func validate() throws {
    if let region, !(region.count == 2 && region.allSatisfy({ $0.isLetter && $0.isASCII })) {
      throw ValidationError("--region must be a two-letter region code such as US")
    }
    if let maxBlock, maxBlock < 2 { throw ValidationError("--max-block must be 2 or more") }
    if let weights, WeightsSetting(rawValue: weights) == nil {
      throw ValidationError("--weights must be auto, defaults or em")
    }
    if let uFrom, !["candidates", "random-pairs"].contains(uFrom) {
      throw ValidationError("--u-from must be candidates or random-pairs")
    }
    if uFrom == "random-pairs" && weights == "defaults" {
      throw ValidationError("--u-from random-pairs needs fitted weights (--weights auto or em), not defaults")
    }
    _ = try configuration()
  }

  /// The configuration the options ask for.
  func configuration() throws -> DedupeConfiguration {
    var config = DedupeConfiguration(defaultRegion: (region ?? "US").uppercased(), maxBlockSize: maxBlock ?? 50)
    config.setWeights(weightsSetting)
    if let unknown = config.setBlocking(blocking ?? "all") {
      throw ValidationError(
        "--blocking: unknown rule \(unknown) (rules: \(BlockingKey.allCases.map(\.description).joined(separator: ", ")))")
    }
    if let threshold { config.setThreshold(threshold) }
    if let guardLinkage { config.guardLinkage = guardLinkage }
    if let maxCluster { config.maxClusterSize = maxCluster }
    config.uFromRandomPairs = uFrom == "random-pairs"
    return config
  }
}
