#include <array>

#include "admission/jobset_parts.h"
#include "base/object_name.h"
#include "doc/path.h"

namespace tjr::admission::jobset_parts {

std::int64_t IntAt(const doc::Node* node, std::string_view key, std::int64_t fallback) {
  return OptionalIntAt(node, key).value_or(fallback);
}

std::optional<std::int64_t> OptionalIntAt(const doc::Node* node, std::string_view key) {
  const doc::Node* value = doc::At(node, key);
  if (value == nullptr || !value->is_int()) return std::nullopt;
  return value->int_value();
}

const doc::Node* JobSpecOf(const doc::Node& replicated_job) {
  return doc::AtPath(&replicated_job, {"template", "spec"});
}

const doc::Node* PodSpecOf(const doc::Node& replicated_job) {
  return doc::AtPath(&replicated_job, {"template", "spec", "template", "spec"});
}

std::string JobName(std::string_view jobset, std::string_view replicated_job, std::int64_t index) {
  std::string out(jobset);
  out += '-';
  out += replicated_job;
  out += '-';
  out += std::to_string(index);
  return out;
}

std::string Subdomain(const doc::Node& jobset) {
  std::string subdomain = doc::StringAtPath(jobset, {"spec", "network", "subdomain"});
  return subdomain.empty() ? doc::StringAtPath(jobset, {"metadata", "name"}) : subdomain;
}

std::string CoordinatorEndpoint(const doc::Node& jobset) {
  const doc::Node* coordinator = doc::AtPath(&jobset, {"spec", "coordinator"});
  return JobName(doc::StringAtPath(jobset, {"metadata", "name"}), doc::StringAt(coordinator, "replicatedJob"),
                 IntAt(coordinator, "jobIndex", 0)) +
         "-" + std::to_string(IntAt(coordinator, "podIndex", 0)) + "." + Subdomain(jobset);
}

namespace {

constexpr std::string_view kMaxLen63 = "must be no more than 63 characters";
// validation.go dns1035LabelErrMsg with RegexError's examples.
constexpr std::string_view kDns1035Message =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation "
    "is '[a-z]([-a-z0-9]*[a-z0-9])?')";
// content.IsLabelValue's labelValueErrMsg with its examples.
constexpr std::string_view kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
    "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

bool IsAlphanumeric(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

}  // namespace

std::vector<std::string> Dns1035LabelErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > 63) errors.emplace_back(kMaxLen63);
  // `[a-z]([-a-z0-9]*[a-z0-9])?` is a DNS-1123 label that starts with a letter.
  if (!MatchesDns1123Label(value) || value.front() < 'a' || value.front() > 'z') errors.emplace_back(kDns1035Message);
  return errors;
}

std::vector<std::string> LabelValueErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > 63) errors.emplace_back(kMaxLen63);
  bool matches = true;
  if (!value.empty()) {
    matches = IsAlphanumeric(value.front()) && IsAlphanumeric(value.back());
    for (char c : value) matches = matches && (IsAlphanumeric(c) || c == '-' || c == '_' || c == '.');
  }
  if (!matches) errors.emplace_back(kLabelValueMessage);
  return errors;
}

// FIPS 180-4 SHA-1; the job-key label only needs its 40 hex digits to be
// right, but a real digest keeps the rendered Job honest.
std::string Sha1Hex(std::string_view text) {
  std::array<std::uint32_t, 5> h = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  std::string message(text);
  const std::uint64_t bit_length = static_cast<std::uint64_t>(text.size()) * 8;
  message += static_cast<char>(0x80);
  while (message.size() % 64 != 56) message += '\0';
  for (int shift = 56; shift >= 0; shift -= 8) message += static_cast<char>((bit_length >> shift) & 0xFF);
  auto rotl = [](std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); };
  for (std::size_t block = 0; block < message.size(); block += 64) {
    std::array<std::uint32_t, 80> w{};
    for (int i = 0; i < 16; ++i) {
      for (int b = 0; b < 4; ++b) w[i] = (w[i] << 8) | static_cast<unsigned char>(message[block + 4 * i + b]);
    }
    for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
      std::uint32_t f = 0, k = 0;
      if (i < 20) {
        f = (b & c) | (~b & d), k = 0x5A827999u;
      } else if (i < 40) {
        f = b ^ c ^ d, k = 0x6ED9EBA1u;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDCu;
      } else {
        f = b ^ c ^ d, k = 0xCA62C1D6u;
      }
      const std::uint32_t next = rotl(a, 5) + f + e + k + w[i];
      e = d, d = c, c = rotl(b, 30), b = a, a = next;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint32_t word : h) {
    for (int shift = 28; shift >= 0; shift -= 4) out += kHex[(word >> shift) & 0xF];
  }
  return out;
}

}  // namespace tjr::admission::jobset_parts
