#include "smp/go_sort.h"

namespace tjr::smp {
namespace {

using Less = std::function<bool(std::size_t, std::size_t)>;
using Swap = std::function<void(std::size_t, std::size_t)>;

void InsertionSort(const Less& less, const Swap& swap, std::size_t a, std::size_t b) {
  for (std::size_t i = a + 1; i < b; ++i) {
    for (std::size_t j = i; j > a && less(j, j - 1); --j) swap(j, j - 1);
  }
}

void SwapRange(const Swap& swap, std::size_t a, std::size_t b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) swap(a + i, b + i);
}

void Rotate(const Swap& swap, std::size_t a, std::size_t m, std::size_t b) {
  std::size_t i = m - a;
  std::size_t j = b - m;
  while (i != j) {
    if (i > j) {
      SwapRange(swap, m - i, m, j);
      i -= j;
    } else {
      SwapRange(swap, m - i, m + j - i, i);
      j -= i;
    }
  }
  SwapRange(swap, m - i, m, i);
}

void SymMerge(const Less& less, const Swap& swap, std::size_t a, std::size_t m, std::size_t b) {
  if (m - a == 1) {
    std::size_t i = m;
    std::size_t j = b;
    while (i < j) {
      const std::size_t h = (i + j) / 2;
      if (less(h, a)) {
        i = h + 1;
      } else {
        j = h;
      }
    }
    for (std::size_t k = a; k + 1 < i; ++k) swap(k, k + 1);
    return;
  }
  if (b - m == 1) {
    std::size_t i = a;
    std::size_t j = m;
    while (i < j) {
      const std::size_t h = (i + j) / 2;
      if (!less(m, h)) {
        i = h + 1;
      } else {
        j = h;
      }
    }
    for (std::size_t k = m; k > i; --k) swap(k, k - 1);
    return;
  }
  const std::size_t mid = (a + b) / 2;
  const std::size_t n = mid + m;
  std::size_t start = 0;
  std::size_t r = 0;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const std::size_t p = n - 1;
  while (start < r) {
    const std::size_t c = (start + r) / 2;
    if (!less(p - c, c)) {
      start = c + 1;
    } else {
      r = c;
    }
  }
  const std::size_t end = n - start;
  if (start < m && m < end) Rotate(swap, start, m, end);
  if (a < start && start < mid) SymMerge(less, swap, a, start, mid);
  if (mid < end && end < b) SymMerge(less, swap, mid, end, b);
}

}  // namespace

void GoSliceStable(std::size_t size, const Less& less, const Swap& swap) {
  std::size_t block = 20;
  std::size_t a = 0;
  std::size_t b = block;
  while (b <= size) {
    InsertionSort(less, swap, a, b);
    a = b;
    b += block;
  }
  InsertionSort(less, swap, a, size);
  while (block < size) {
    a = 0;
    b = 2 * block;
    while (b <= size) {
      SymMerge(less, swap, a, a + block, b);
      a = b;
      b += 2 * block;
    }
    if (a + block < size) SymMerge(less, swap, a, a + block, size);
    block *= 2;
  }
}

}  // namespace tjr::smp
