// Benchmark harness for Google's C++ libphonenumber: reads `raw<TAB>region`
// lines from stdin and, for each, does parse + E164 + INTERNATIONAL +
// NATIONAL + RFC3966 + validity + type, single thread, writing the same
// columns as `ohana phone`. Prints the CPU time of the loop to stderr.
#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <ctime>
#include <iostream>
#include <string>
#include <vector>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static const char* TypeName(PhoneNumberUtil::PhoneNumberType t) {
  switch (t) {
    case PhoneNumberUtil::FIXED_LINE: return "FIXED_LINE";
    case PhoneNumberUtil::MOBILE: return "MOBILE";
    case PhoneNumberUtil::FIXED_LINE_OR_MOBILE: return "FIXED_LINE_OR_MOBILE";
    case PhoneNumberUtil::TOLL_FREE: return "TOLL_FREE";
    case PhoneNumberUtil::PREMIUM_RATE: return "PREMIUM_RATE";
    case PhoneNumberUtil::SHARED_COST: return "SHARED_COST";
    case PhoneNumberUtil::VOIP: return "VOIP";
    case PhoneNumberUtil::PERSONAL_NUMBER: return "PERSONAL_NUMBER";
    case PhoneNumberUtil::PAGER: return "PAGER";
    case PhoneNumberUtil::UAN: return "UAN";
    case PhoneNumberUtil::VOICEMAIL: return "VOICEMAIL";
    default: return "UNKNOWN";
  }
}

static const char* ErrorName(PhoneNumberUtil::ErrorType e) {
  switch (e) {
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR: return "INVALID_COUNTRY_CODE";
    case PhoneNumberUtil::NOT_A_NUMBER: return "NOT_A_NUMBER";
    case PhoneNumberUtil::TOO_SHORT_AFTER_IDD: return "TOO_SHORT_AFTER_IDD";
    case PhoneNumberUtil::TOO_SHORT_NSN: return "TOO_SHORT_NSN";
    case PhoneNumberUtil::TOO_LONG_NSN: return "TOO_LONG";
    default: return "ERROR";
  }
}

static double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main() {
  std::ios::sync_with_stdio(false);
  std::vector<std::pair<std::string, std::string>> rows;
  std::string line;
  while (std::getline(std::cin, line)) {
    size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      rows.emplace_back(line, "US");
    } else {
      std::string region = line.substr(tab + 1);
      size_t tab2 = region.find('\t');
      if (tab2 != std::string::npos) region.resize(tab2);
      rows.emplace_back(line.substr(0, tab), region.empty() ? "US" : region);
    }
  }
  const PhoneNumberUtil* util = PhoneNumberUtil::GetInstance();
  std::string out;
  out.reserve(rows.size() * 120);
  std::string e164, intl, national, rfc;
  const double start = CpuSeconds();
  for (const auto& row : rows) {
    PhoneNumber n;
    PhoneNumberUtil::ErrorType err = util->Parse(row.first, row.second, &n);
    out += row.first;
    out += '\t';
    out += row.second;
    if (err != PhoneNumberUtil::NO_PARSING_ERROR) {
      out += "\t0\t\t\t\t\t0\t";
      out += ErrorName(err);
      out += '\n';
      continue;
    }
    util->Format(n, PhoneNumberUtil::E164, &e164);
    util->Format(n, PhoneNumberUtil::INTERNATIONAL, &intl);
    util->Format(n, PhoneNumberUtil::NATIONAL, &national);
    util->Format(n, PhoneNumberUtil::RFC3966, &rfc);
    const bool valid = util->IsValidNumber(n);
    const PhoneNumberUtil::PhoneNumberType type = util->GetNumberType(n);
    out += "\t1\t";
    out += e164;
    out += '\t';
    out += intl;
    out += '\t';
    out += national;
    out += '\t';
    out += rfc;
    out += valid ? "\t1\t" : "\t0\t";
    out += TypeName(type);
    out += '\n';
  }
  const double cpu = CpuSeconds() - start;
  std::cout << out;
  std::cerr << "cpp " << rows.size() << " numbers " << cpu << " s cpu" << std::endl;
  return 0;
}
