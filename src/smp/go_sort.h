#pragma once

#include <cstddef>
#include <functional>

namespace tjr::smp {

/// Go's sort.SliceStable (insertion sort on blocks of 20, then SymMerge),
/// step for step. The upstream order code sorts with a comparison that is
/// not a strict weak order (an element missing from the reference list is
/// "less" than everything, both ways round), so only the very same sequence
/// of Less and Swap calls reproduces its results.
void GoSliceStable(std::size_t size, const std::function<bool(std::size_t, std::size_t)>& less,
                   const std::function<void(std::size_t, std::size_t)>& swap);

}  // namespace tjr::smp
