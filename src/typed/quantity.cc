#include "typed/quantity.h"

#include <charconv>
#include <limits>
#include <optional>

#include "gocompat/json_quote.h"
#include "gocompat/strconv.h"
#include "typed/go_text.h"

namespace tjr::typed {
namespace {

// Exponents Go handles without int32 wrap-around (its int64 path) or in
// reasonable time (its inf.Dec path, which expands 10^exponent); anything
// beyond is refused rather than guessed.
constexpr std::int64_t kExponentLimit = 1'000'000'000;
constexpr std::int64_t kBigExponentLimit = 100'000;

constexpr std::uint64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();

Diagnostic QuantityError(std::string_view message) {
  return MakeError({}, "", std::string(message));
}

Diagnostic Unsupported(std::string_view text, std::int64_t limit) {
  return MakeError({}, "",
                   "tjrender: quantity \"" + std::string(text) +
                       "\" has an exponent beyond the supported range of ±" +
                       std::to_string(limit));
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// parseQuantityString: sign, the numeric text, its integer digits (leading
// zeros removed, "0" when none remain), fraction digits and the suffix.
struct Pieces {
  bool positive = true;
  std::string_view value;
  std::string_view num;
  std::string_view denom;
  std::string_view suffix;
};

std::optional<Pieces> Split(std::string_view str) {
  Pieces p;
  std::size_t pos = 0;
  const std::size_t end = str.size();
  if (pos < end && (str[0] == '-' || str[0] == '+')) {
    p.positive = str[0] != '-';
    ++pos;
  }
  while (pos < end && str[pos] == '0') ++pos;
  if (pos == end) {
    p.num = p.value = "0";
    return p;
  }
  std::size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  p.num = str.substr(pos, i - pos);
  if (i == end) {
    p.value = str;
    return p;
  }
  pos = i;
  if (p.num.empty()) p.num = "0";
  if (str[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(str[i])) ++i;
    p.denom = str.substr(pos, i - pos);
    if (i == end) {
      p.value = str;
      return p;
    }
    pos = i;
  }
  p.value = str.substr(0, pos);
  const std::size_t suffix_start = pos;
  constexpr std::string_view kSuffixLetters = "eEinumkKMGTP";
  while (pos < end && kSuffixLetters.find(str[pos]) != std::string_view::npos) ++pos;
  if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
  while (pos < end && IsDigit(str[pos])) ++pos;
  if (pos != end) return std::nullopt;
  p.suffix = str.substr(suffix_start);
  return p;
}

struct SuffixMeaning {
  int base = 10;
  std::int32_t exponent = 0;
  QuantityFormat format = QuantityFormat::kDecimalSI;
};

std::optional<SuffixMeaning> Interpret(std::string_view suffix) {
  struct Entry {
    std::string_view text;
    SuffixMeaning meaning;
  };
  static constexpr Entry kTable[] = {
      {"", {10, 0, QuantityFormat::kDecimalSI}},    {"n", {10, -9, QuantityFormat::kDecimalSI}},
      {"u", {10, -6, QuantityFormat::kDecimalSI}},  {"m", {10, -3, QuantityFormat::kDecimalSI}},
      {"k", {10, 3, QuantityFormat::kDecimalSI}},   {"M", {10, 6, QuantityFormat::kDecimalSI}},
      {"G", {10, 9, QuantityFormat::kDecimalSI}},   {"T", {10, 12, QuantityFormat::kDecimalSI}},
      {"P", {10, 15, QuantityFormat::kDecimalSI}},  {"E", {10, 18, QuantityFormat::kDecimalSI}},
      {"Ki", {2, 10, QuantityFormat::kBinarySI}},   {"Mi", {2, 20, QuantityFormat::kBinarySI}},
      {"Gi", {2, 30, QuantityFormat::kBinarySI}},   {"Ti", {2, 40, QuantityFormat::kBinarySI}},
      {"Pi", {2, 50, QuantityFormat::kBinarySI}},   {"Ei", {2, 60, QuantityFormat::kBinarySI}},
  };
  for (const Entry& entry : kTable) {
    if (entry.text == suffix) return entry.meaning;
  }
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    // strconv.ParseInt(s, 10, 64), then Go's int32 conversion truncates.
    std::optional<std::int64_t> exponent = gocompat::ParseInt(suffix.substr(1), 10);
    if (!exponent) return std::nullopt;
    const auto bits = static_cast<std::uint64_t>(*exponent);
    return SuffixMeaning{10, static_cast<std::int32_t>(static_cast<std::uint32_t>(bits)),
                         QuantityFormat::kDecimalExponent};
  }
  return std::nullopt;
}

std::int32_t WrapInt32(std::int64_t value) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(value)));
}

bool EndsWith(std::string_view text, std::string_view tail) {
  return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// Whether magnitude × 10^exponent exceeds `limit`.
bool Exceeds(const BigUint& magnitude, std::int64_t exponent, std::uint64_t limit) {
  BigUint bound(limit);
  if (exponent >= 0) {
    if (static_cast<std::int64_t>(magnitude.DigitCount()) + exponent > 20) return true;
    BigUint value = magnitude;
    value.MultiplyPow10(static_cast<std::uint64_t>(exponent));
    return Compare(value, bound) > 0;
  }
  bound.MultiplyPow10(static_cast<std::uint64_t>(-exponent));
  return Compare(magnitude, bound) > 0;
}

}  // namespace

Result<Quantity> Quantity::Parse(std::string_view str) {
  if (str.empty()) return QuantityError(kQuantityFormatWrong);
  Quantity q;
  if (str == "0") {
    q.format_ = QuantityFormat::kDecimalSI;
    q.kept_text_ = "0";
    return q;
  }
  std::optional<Pieces> pieces = Split(str);
  if (!pieces) return QuantityError(kQuantityFormatWrong);
  std::optional<SuffixMeaning> suffix = Interpret(pieces->suffix);
  if (!suffix) return QuantityError(kQuantitySuffix);
  const Pieces& p = *pieces;
  q.negative_ = !p.positive;
  q.format_ = suffix->format;

  // The int64 fast path of ParseQuantity, which may keep the text.
  std::int64_t precision = -1;
  std::int64_t scale = 0;
  std::uint64_t mantissa = 1;
  if (suffix->format == QuantityFormat::kBinarySI) {
    if (suffix->exponent >= 0 && p.denom.empty()) {
      mantissa = std::uint64_t{1} << suffix->exponent;
      precision = 15 - static_cast<std::int64_t>(p.num.size()) - suffix->exponent * 3 / 10 - 1;
    }
  } else {
    scale = suffix->exponent;
    precision = 18 - static_cast<std::int64_t>(p.num.size() + p.denom.size());
  }
  if (precision >= 0) {
    std::int32_t shifted_scale = WrapInt32(scale - static_cast<std::int64_t>(p.denom.size()));
    if (shifted_scale >= -9) {
      std::string shifted = std::string(p.num) + std::string(p.denom);
      std::uint64_t value = 0;
      std::from_chars(shifted.data(), shifted.data() + shifted.size(), value);
      unsigned __int128 product = static_cast<unsigned __int128>(value) * mantissa;
      if (product <= kMaxInt64) {
        q.magnitude_ = BigUint(static_cast<std::uint64_t>(product));
        q.exponent_ = shifted_scale;
        bool keep = suffix->format == QuantityFormat::kBinarySI
                        ? (value & 7) != 0
                        : shifted_scale % 3 == 0 && !EndsWith(shifted, "000") && shifted[0] != '0';
        if (keep) {
          q.kept_text_ = std::string(str);
        } else if (shifted_scale > kExponentLimit) {
          return Unsupported(str, kExponentLimit);
        }
        return q;
      }
    }
  }

  // The inf.Dec path: exact value, rounded up to nano units, binary capped.
  if (p.value.find_first_of("0123456789") == std::string_view::npos) {
    return QuantityError(kQuantityNumeric);
  }
  if (suffix->exponent > kBigExponentLimit || suffix->exponent < -kBigExponentLimit) {
    return Unsupported(str, kBigExponentLimit);
  }
  q.magnitude_ = BigUint::FromDigits(std::string(p.num) + std::string(p.denom));
  q.exponent_ = -static_cast<std::int64_t>(p.denom.size());
  if (suffix->base == 10) {
    q.exponent_ += suffix->exponent;
  } else {
    q.magnitude_.MultiplyPow2(static_cast<std::uint32_t>(suffix->exponent));
  }
  if (!q.magnitude_.is_zero()) {
    q.exponent_ += static_cast<std::int64_t>(q.magnitude_.StripFactorsOf10());
    if (q.exponent_ < -9) {
      if (q.magnitude_.DividePow10(static_cast<std::uint64_t>(-9 - q.exponent_))) {
        q.magnitude_.AddSmall(1);
      }
      q.exponent_ = -9;
    }
  }
  if (q.format_ == QuantityFormat::kBinarySI) {
    if (Exceeds(q.magnitude_, q.exponent_, kMaxInt64)) {
      q.magnitude_ = BigUint(kMaxInt64);
      q.exponent_ = 0;
    }
    if (!q.magnitude_.is_zero() && q.exponent_ < 0) {
      BigUint one(1);
      one.MultiplyPow10(static_cast<std::uint64_t>(-q.exponent_));
      // 0 < |value| < 1 is decimal from the start.
      if (Compare(q.magnitude_, one) < 0) q.format_ = QuantityFormat::kDecimalSI;
    }
  }
  return q;
}

Status Quantity::UnmarshalJson(const doc::Node& value) {
  std::string raw;
  switch (value.kind()) {
    case doc::Kind::kNull:
      negative_ = false;
      magnitude_ = BigUint();
      exponent_ = 0;
      return Ok();
    case doc::Kind::kString:
      if (gocompat::JsonStringHasEscapes(value.string_value())) return QuantityError(kQuantityFormatWrong);
      raw = std::string(TrimUnicodeSpace(value.string_value()));
      break;
    case doc::Kind::kInt:
    case doc::Kind::kFloat: {
      Result<std::string> text = JsonNumberText(value);
      if (!text) return text.take_error();
      raw = *text;
      break;
    }
    default:
      // true, false, objects and arrays reach the parser as raw JSON text,
      // whose first byte no quantity can start with.
      return QuantityError(kQuantityFormatWrong);
  }
  Result<Quantity> parsed = Parse(raw);
  if (!parsed) return parsed.take_error();
  *this = std::move(parsed).value();
  return Ok();
}

std::string Quantity::String() const {
  if (!kept_text_.empty()) return kept_text_;
  return Canonical();
}

std::string Quantity::Canonical() const {
  if (magnitude_.is_zero()) return "0";
  QuantityFormat format = format_;
  if (format == QuantityFormat::kBinarySI) {
    BigUint stripped = magnitude_;
    bool integral = exponent_ + static_cast<std::int64_t>(stripped.StripFactorsOf10()) >= 0;
    if (integral && Exceeds(magnitude_, exponent_, 1023)) return CanonicalBinary();
    // |value| < 1024, or a fraction binary suffixes cannot show.
    format = QuantityFormat::kDecimalSI;
  }
  BigUint digits = magnitude_;
  std::int64_t exponent = exponent_ + static_cast<std::int64_t>(digits.StripFactorsOf10());
  while (exponent % 3 != 0) {
    digits.MultiplySmall(10);
    --exponent;
  }
  std::string out = negative_ ? "-" : "";
  out += digits.ToString();
  if (format == QuantityFormat::kDecimalSI) {
    static constexpr std::string_view kSuffixes[] = {"n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    if (exponent >= -9 && exponent <= 18) out += kSuffixes[(exponent + 9) / 3];
    // Any other power of 1000 has no DecimalSI suffix; Go then prints none.
  } else if (exponent != 0) {
    out += 'e';
    out += std::to_string(exponent);
  }
  return out;
}

std::string Quantity::CanonicalBinary() const {
  BigUint value = magnitude_;
  value.MultiplyPow10(static_cast<std::uint64_t>(exponent_ < 0 ? 0 : exponent_));
  if (exponent_ < 0) value.DividePow10(static_cast<std::uint64_t>(-exponent_));
  int power = 0;
  while (!value.is_zero() && value.ModuloSmall(1024) == 0) {
    value.DivideSmall(1024);
    ++power;
  }
  static constexpr std::string_view kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  std::string out = negative_ ? "-" : "";
  out += value.ToString();
  if (power < 7) out += kSuffixes[power];
  return out;
}

int Compare(const Quantity& a, const Quantity& b) {
  const bool a_negative = a.negative();
  const bool b_negative = b.negative();
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  if (a.is_zero() || b.is_zero()) {
    if (a.is_zero() && b.is_zero()) return 0;
    // Same sign and one is zero: the other is positive.
    return a.is_zero() ? -1 : 1;
  }
  // Bring both magnitudes to the smaller exponent, then compare digits.
  BigUint left = a.magnitude_;
  BigUint right = b.magnitude_;
  if (a.exponent_ > b.exponent_) {
    left.MultiplyPow10(static_cast<std::uint64_t>(a.exponent_ - b.exponent_));
  } else if (b.exponent_ > a.exponent_) {
    right.MultiplyPow10(static_cast<std::uint64_t>(b.exponent_ - a.exponent_));
  }
  int magnitude = Compare(left, right);
  return a_negative ? -magnitude : magnitude;
}

}  // namespace tjr::typed
