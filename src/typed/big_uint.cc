#include "typed/big_uint.h"

#include <algorithm>

namespace tjr::typed {
namespace {

constexpr std::uint32_t kPow10[] = {1,      10,      100,      1000,      10000,
                                    100000, 1000000, 10000000, 100000000, 1000000000};

}  // namespace

BigUint::BigUint(std::uint64_t value) {
  while (value != 0) {
    limbs_.push_back(static_cast<std::uint32_t>(value % kBase));
    value /= kBase;
  }
}

BigUint BigUint::FromDigits(std::string_view digits) {
  BigUint out;
  std::size_t end = digits.size();
  while (end > 0) {
    std::size_t begin = end >= 9 ? end - 9 : 0;
    std::uint32_t limb = 0;
    for (std::size_t i = begin; i < end; ++i) {
      limb = limb * 10 + static_cast<std::uint32_t>(digits[i] - '0');
    }
    out.limbs_.push_back(limb);
    end = begin;
  }
  out.Trim();
  return out;
}

void BigUint::Trim() {
  while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
}

std::size_t BigUint::DigitCount() const {
  if (limbs_.empty()) return 1;
  std::size_t count = (limbs_.size() - 1) * 9;
  for (std::uint32_t top = limbs_.back(); top != 0; top /= 10) ++count;
  return count;
}

std::string BigUint::ToString() const {
  if (limbs_.empty()) return "0";
  std::string out = std::to_string(limbs_.back());
  for (std::size_t i = limbs_.size() - 1; i-- > 0;) {
    std::string limb = std::to_string(limbs_[i]);
    out.append(9 - limb.size(), '0');
    out += limb;
  }
  return out;
}

bool BigUint::ToUint64(std::uint64_t* out) const {
  unsigned __int128 value = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;) {
    value = value * kBase + limbs_[i];
    if (value > UINT64_MAX) return false;
  }
  *out = static_cast<std::uint64_t>(value);
  return true;
}

void BigUint::MultiplySmall(std::uint32_t factor) {
  std::uint64_t carry = 0;
  for (std::uint32_t& limb : limbs_) {
    std::uint64_t product = std::uint64_t{limb} * factor + carry;
    limb = static_cast<std::uint32_t>(product % kBase);
    carry = product / kBase;
  }
  while (carry != 0) {
    limbs_.push_back(static_cast<std::uint32_t>(carry % kBase));
    carry /= kBase;
  }
  Trim();
}

void BigUint::AddSmall(std::uint32_t addend) {
  std::uint64_t carry = addend;
  for (std::size_t i = 0; carry != 0; ++i) {
    if (i == limbs_.size()) limbs_.push_back(0);
    std::uint64_t sum = std::uint64_t{limbs_[i]} + carry;
    limbs_[i] = static_cast<std::uint32_t>(sum % kBase);
    carry = sum / kBase;
  }
}

std::uint32_t BigUint::DivideSmall(std::uint32_t divisor) {
  std::uint64_t remainder = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;) {
    std::uint64_t current = remainder * kBase + limbs_[i];
    limbs_[i] = static_cast<std::uint32_t>(current / divisor);
    remainder = current % divisor;
  }
  Trim();
  return static_cast<std::uint32_t>(remainder);
}

std::uint32_t BigUint::ModuloSmall(std::uint32_t divisor) const {
  std::uint64_t remainder = 0;
  for (std::size_t i = limbs_.size(); i-- > 0;) {
    remainder = (remainder * kBase + limbs_[i]) % divisor;
  }
  return static_cast<std::uint32_t>(remainder);
}

void BigUint::MultiplyPow10(std::uint64_t exponent) {
  if (limbs_.empty()) return;
  limbs_.insert(limbs_.begin(), static_cast<std::size_t>(exponent / 9), 0);
  MultiplySmall(kPow10[exponent % 9]);
}

bool BigUint::DividePow10(std::uint64_t exponent) {
  bool discarded = false;
  std::size_t whole = static_cast<std::size_t>(std::min<std::uint64_t>(exponent / 9, limbs_.size()));
  for (std::size_t i = 0; i < whole; ++i) discarded = discarded || limbs_[i] != 0;
  limbs_.erase(limbs_.begin(), limbs_.begin() + static_cast<std::ptrdiff_t>(whole));
  if (limbs_.empty()) return discarded;
  if (DivideSmall(kPow10[exponent % 9]) != 0) discarded = true;
  return discarded;
}

void BigUint::MultiplyPow2(std::uint32_t exponent) {
  while (exponent >= 16) {
    MultiplySmall(1u << 16);
    exponent -= 16;
  }
  MultiplySmall(1u << exponent);
}

std::uint64_t BigUint::StripFactorsOf10() {
  std::uint64_t times = 0;
  if (limbs_.empty()) return 0;
  std::size_t zero_limbs = 0;
  while (limbs_[zero_limbs] == 0) ++zero_limbs;
  limbs_.erase(limbs_.begin(), limbs_.begin() + static_cast<std::ptrdiff_t>(zero_limbs));
  times = zero_limbs * 9;
  while (ModuloSmall(10) == 0) {
    DivideSmall(10);
    ++times;
  }
  return times;
}

int Compare(const BigUint& a, const BigUint& b) {
  if (a.limbs_.size() != b.limbs_.size()) return a.limbs_.size() < b.limbs_.size() ? -1 : 1;
  for (std::size_t i = a.limbs_.size(); i-- > 0;) {
    if (a.limbs_[i] != b.limbs_[i]) return a.limbs_[i] < b.limbs_[i] ? -1 : 1;
  }
  return 0;
}

}  // namespace tjr::typed
