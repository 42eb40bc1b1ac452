#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tjr::typed {

/// A non-negative integer of any size, with just the operations that
/// resource.Quantity's inf.Dec / big.Int code paths need (multiplying and
/// dividing by small numbers and powers of ten).
class BigUint {
 public:
  BigUint() = default;
  explicit BigUint(std::uint64_t value);

  /// Parses decimal digits only; an empty string is zero.
  static BigUint FromDigits(std::string_view digits);

  bool is_zero() const { return limbs_.empty(); }
  /// Number of decimal digits (1 for zero).
  std::size_t DigitCount() const;
  std::string ToString() const;
  /// The value when it fits, else false.
  bool ToUint64(std::uint64_t* out) const;

  void MultiplySmall(std::uint32_t factor);
  void AddSmall(std::uint32_t addend);
  /// Divides in place and returns the remainder.
  std::uint32_t DivideSmall(std::uint32_t divisor);
  std::uint32_t ModuloSmall(std::uint32_t divisor) const;

  void MultiplyPow10(std::uint64_t exponent);
  /// Divides by 10^exponent, truncating; returns whether anything nonzero
  /// was discarded.
  bool DividePow10(std::uint64_t exponent);
  void MultiplyPow2(std::uint32_t exponent);
  /// Removes factors of ten; returns how many.
  std::uint64_t StripFactorsOf10();

  friend int Compare(const BigUint& a, const BigUint& b);
  friend bool operator==(const BigUint& a, const BigUint& b) { return a.limbs_ == b.limbs_; }

 private:
  static constexpr std::uint32_t kBase = 1'000'000'000;  // nine decimal digits a limb
  void Trim();

  std::vector<std::uint32_t> limbs_;  // least significant first; empty means zero
};

}  // namespace tjr::typed
