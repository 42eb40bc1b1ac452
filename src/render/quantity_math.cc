#include "render/quantity_math.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "gocompat/strconv.h"

namespace tjr::render {
namespace {

// The widest exponent read back from a quantity's text: inf.Dec's scale is
// an int32, so no quantity Go parses goes past it.
constexpr std::int64_t kMaxExponent = std::int64_t{1} << 31;

// Magnitudes are decimal digit strings without leading zeros.
void StripLeadingZeros(std::string* digits) {
  std::size_t first = digits->find_first_not_of('0');
  digits->erase(0, first == std::string::npos ? digits->size() : first);
}

int CompareMagnitude(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string AddMagnitude(const std::string& a, const std::string& b) {
  std::string out;
  int carry = 0;
  for (std::size_t i = 0; i < std::max(a.size(), b.size()) || carry != 0; ++i) {
    int sum = carry;
    if (i < a.size()) sum += a[a.size() - 1 - i] - '0';
    if (i < b.size()) sum += b[b.size() - 1 - i] - '0';
    out.push_back(static_cast<char>('0' + sum % 10));
    carry = sum / 10;
  }
  std::reverse(out.begin(), out.end());
  StripLeadingZeros(&out);
  return out;
}

// a - b for a >= b.
std::string SubtractMagnitude(const std::string& a, const std::string& b) {
  std::string out;
  int borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    int d = a[a.size() - 1 - i] - '0' - borrow;
    if (i < b.size()) d -= b[b.size() - 1 - i] - '0';
    borrow = d < 0 ? 1 : 0;
    out.push_back(static_cast<char>('0' + (d + 10) % 10));
  }
  std::reverse(out.begin(), out.end());
  StripLeadingZeros(&out);
  return out;
}

std::string MultiplyMagnitude(const std::string& a, std::uint64_t factor) {
  if (a.empty() || factor == 0) return {};
  std::string out;
  unsigned __int128 carry = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    unsigned __int128 product = static_cast<unsigned __int128>(a[i] - '0') * factor + carry;
    out.push_back(static_cast<char>('0' + static_cast<int>(product % 10)));
    carry = product / 10;
  }
  while (carry != 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(carry % 10)));
    carry /= 10;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// Decimal text of digits × 10^exponent with `fraction` digits after the
// point (at least what the value needs).
std::string DecimalText(const std::string& digits, std::int64_t exponent, std::size_t fraction) {
  std::string whole = digits;
  if (exponent > 0) whole += std::string(static_cast<std::size_t>(exponent), '0');
  std::size_t needed = exponent < 0 ? static_cast<std::size_t>(-exponent) : 0;
  whole += std::string(fraction - needed, '0');
  if (whole.size() <= fraction) whole.insert(0, fraction - whole.size() + 1, '0');
  if (fraction == 0) return whole;
  return whole.substr(0, whole.size() - fraction) + "." + whole.substr(whole.size() - fraction);
}

// ParseQuantity keeps the input text as the quantity's cached string when
// its scale (suffix exponent minus fraction digits) is a multiple of 3 (and
// other conditions); a fraction length making it not one guarantees that
// String() canonicalizes, as for a computed quantity.
std::size_t UncachedFraction(std::int64_t suffix_exponent, std::int64_t exponent) {
  std::size_t fraction = exponent < 0 ? static_cast<std::size_t>(-exponent) : 0;
  while ((suffix_exponent - static_cast<std::int64_t>(fraction)) % 3 == 0) ++fraction;
  return fraction;
}

}  // namespace

Result<Amount> Amount::FromJson(const doc::Node& value) {
  typed::Quantity quantity;
  if (Status s = quantity.UnmarshalJson(value); !s.ok()) {
    Diagnostic error = s.take_error();
    if (!error.location.known()) error.location = value.location();
    return error;
  }
  return FromQuantity(quantity);
}

Result<Amount> Amount::FromQuantity(const typed::Quantity& quantity) {
  Amount out;
  out.format_ = quantity.format();
  if (quantity.is_zero()) return out;
  // Read the value back from the printed form: [-+]digits[.digits][suffix].
  const std::string text = quantity.String();
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) out.negative_ = text[i++] == '-';
  std::string digits;
  std::int64_t exponent = 0;
  bool fraction = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      fraction = true;
    } else if (c >= '0' && c <= '9') {
      digits.push_back(c);
      if (fraction) --exponent;
    } else {
      break;
    }
  }
  const std::string_view suffix = std::string_view(text).substr(i);
  std::uint32_t binary_power = 0;
  static constexpr std::pair<std::string_view, int> kDecimal[] = {
      {"", 0}, {"n", -9}, {"u", -6}, {"m", -3}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}};
  static constexpr std::pair<std::string_view, std::uint32_t> kBinary[] = {
      {"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}};
  bool known = false;
  for (const auto& [s, e] : kDecimal) {
    if (suffix == s) exponent += e, known = true;
  }
  for (const auto& [s, p] : kBinary) {
    if (suffix == s) binary_power = p, known = true;
  }
  if (!known && !suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::optional<std::int64_t> power = gocompat::ParseInt(suffix.substr(1), 10);
    if (!power || *power > kMaxExponent || *power < -kMaxExponent) {
      return MakeError({}, "", "quantity exponent out of range in " + text);
    }
    exponent += *power;
    known = true;
  }
  if (!known) return MakeError({}, "", "unexpected quantity text " + text);
  for (std::uint32_t p = 0; p < binary_power; p += 10) digits = MultiplyMagnitude(digits, 1024);
  StripLeadingZeros(&digits);
  out.digits_ = digits;
  out.exponent_ = exponent;
  return out;
}

void Amount::Add(const Amount& other) {
  if (is_zero()) format_ = other.format_;
  if (other.is_zero()) return;
  std::int64_t exponent = std::min(exponent_, other.exponent_);
  std::string a = digits_ + std::string(static_cast<std::size_t>(exponent_ - exponent), '0');
  std::string b = other.digits_ + std::string(static_cast<std::size_t>(other.exponent_ - exponent), '0');
  if (digits_.empty()) a.clear();
  if (negative_ == other.negative_) {
    digits_ = AddMagnitude(a, b);
  } else if (CompareMagnitude(a, b) >= 0) {
    digits_ = SubtractMagnitude(a, b);
  } else {
    digits_ = SubtractMagnitude(b, a);
    negative_ = other.negative_;
  }
  exponent_ = exponent;
  if (digits_.empty()) negative_ = false;
}

void Amount::Mul(std::int64_t factor) {
  if (factor < 0) negative_ = !negative_;
  digits_ = MultiplyMagnitude(digits_, factor < 0 ? 0 - static_cast<std::uint64_t>(factor)
                                                  : static_cast<std::uint64_t>(factor));
  if (digits_.empty()) negative_ = false;
}

int Amount::Cmp(const Amount& other) const {
  Amount difference = *this;
  Amount negated = other;
  negated.negative_ = !other.negative_ && !other.is_zero();
  difference.Add(negated);
  if (difference.is_zero()) return 0;
  return difference.negative_ ? -1 : 1;
}

std::int64_t Amount::Value() const {
  if (is_zero()) return 0;
  // Rounded away from zero, and past int64 as Go's big.Int.Int64 gives it
  // (what Quantity.Value returns for an inf.Dec amount): the magnitude's low
  // 64 bits, negated for a negative value. Unsigned arithmetic wraps mod
  // 2^64, and 10^64 is 0 mod 2^64, so no exponent needs more than 64 steps
  // (render_pipeline fuzz finding: std::stoll threw past int64).
  std::string_view integer = digits_;
  bool inexact = false;
  if (exponent_ < 0) {
    const std::uint64_t places = static_cast<std::uint64_t>(-(exponent_ + 1)) + 1;  // -exponent_, no overflow
    const std::size_t drop = places >= integer.size() ? integer.size() : static_cast<std::size_t>(places);
    inexact = integer.substr(integer.size() - drop).find_first_not_of('0') != std::string_view::npos;
    integer.remove_suffix(drop);
  }
  std::uint64_t low = 0;
  for (char digit : integer) low = low * 10 + static_cast<std::uint64_t>(digit - '0');
  for (std::int64_t i = 0; i < std::min<std::int64_t>(exponent_, 64); ++i) low *= 10;
  if (inexact) low += 1;
  if (negative_) low = ~low + 1;
  return static_cast<std::int64_t>(low);
}

std::string Amount::String() const {
  if (is_zero()) return "0";
  std::string text = negative_ ? "-" : "";
  switch (format_) {
    case typed::QuantityFormat::kBinarySI:
      // value / 1024 = value × 5^10 / 10^10, always a finite decimal; any
      // fraction sends ParseQuantity down its exact, uncached path.
      text += DecimalText(MultiplyMagnitude(digits_, 9765625), exponent_ - 10,
                          std::max<std::size_t>(1, exponent_ - 10 < 0 ? static_cast<std::size_t>(10 - exponent_) : 0)) +
              "Ki";
      break;
    case typed::QuantityFormat::kDecimalSI:
      text += DecimalText(digits_, exponent_, UncachedFraction(0, exponent_));
      break;
    default:
      // digits × 10^exponent written as digits.0…e<exponent>.
      text += DecimalText(digits_, 0, UncachedFraction(exponent_, 0)) + "e" + std::to_string(exponent_);
      break;
  }
  Result<typed::Quantity> parsed = typed::Quantity::Parse(text);
  return parsed.ok() ? parsed->String() : text;
}

Result<ResourceList> ResourceListFromJson(const doc::Node* value) {
  ResourceList out;
  if (value == nullptr) return out;
  for (const doc::Field& field : value->fields()) {
    Result<Amount> amount = Amount::FromJson(field.value);
    if (!amount.ok()) return amount.take_error();
    out[field.key] = *std::move(amount);
  }
  return out;
}

doc::Node ResourceListToJson(const ResourceList& list) {
  doc::Node out = doc::Node::Mapping();
  for (const auto& [name, amount] : list) out.Set(name, doc::Node::String(amount.String()));
  return out;
}

}  // namespace tjr::render
